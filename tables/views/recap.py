"""The session recap (issue 40): a page per session and per scene, and its Markdown.

`?session=<n>` (default: the latest) and `?scene=<n>` pick the stretch of the log;
members only, each reading what the log shows them (tables/recap/facts.py).
"""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tables.presenters.recap import recap_context
from tables.recap.facts import recap_of
from tables.recap.spans import Outline, Span, outline
from tables.views.access import campaign_for

_NUMBER = re.compile(r"[0-9]{1,9}")


def _number(params, key: str) -> int | None:
    raw = params.get(key, "").strip()
    if not raw:
        return None
    if not _NUMBER.fullmatch(raw):
        raise Http404(gettext("Sessions and scenes are named by their number."))
    return int(raw)


def _span(params, found: Outline) -> Span | None:
    """The span the query names: a scene of a session, a session, or the latest session;
    None when the campaign has played none yet. A number that names nothing is a 404."""
    session_number, scene_number = _number(params, "session"), _number(params, "scene")
    if scene_number is not None:
        scene = found.scene(scene_number)
        if scene is None or session_number not in (None, scene.session):
            raise Http404(gettext("There is no such scene."))
        return scene
    session = found.session(session_number)
    if session is None and session_number is not None:
        raise Http404(gettext("There is no such session."))
    return session


def _context(request, pk: int) -> dict:
    campaign, membership = campaign_for(request, pk)
    found = outline(campaign)
    span = _span(request.GET, found)
    if span is None:
        return {"campaign": campaign, "outline": found, "span": None}
    facts = recap_of(campaign, span, is_gm=membership.is_gm, viewer_id=request.user.pk)
    return recap_context(campaign, facts, found)


@login_required
@require_GET
def recap(request, pk: int):
    """The recap page: the pools drawn over the session, each character's tally and luck,
    the moments, how the tasks went."""
    return render(request, "tables/recap.html", _context(request, pk))


@login_required
@require_GET
def recap_markdown(request, pk: int):
    """The same recap as Markdown, for the group's notes or a Discord channel."""
    response = render(
        request,
        "tables/recap_markdown.txt",
        _context(request, pk),
        content_type="text/markdown; charset=utf-8",
    )
    response["Content-Disposition"] = 'inline; filename="recap.md"'
    return response
