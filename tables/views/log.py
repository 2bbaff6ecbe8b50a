"""The table log's pages over htmx: older entries on demand, and the log filter."""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tables.live import log_page as pages
from tables.presenters.scene_board import task_offers
from tables.presenters.table import GM, audience_for, shows_threat
from tables.views.access import campaign_for

_SEQ = re.compile(r"[0-9]{1,18}")  # ASCII digits that fit the database's integers


@login_required
@require_GET
def table_log(request, pk: int):
    """`?show=all|rolls|pools|talk[&before=<seq>]`; members only, each seeing what the page shows.

    With `before`: the next older entries (appended to #roll-log-older) and a new "Older
    entries" button. Without: the whole log view, filtered (it replaces #log-view).
    """
    campaign, membership = campaign_for(request, pk)
    show = pages.parse_show(request.GET.get("show"))
    if show is None:
        return HttpResponseBadRequest(gettext("Show everything, rolls, pool changes or talk."))
    raw = request.GET.get("before", "").strip()
    if raw and not _SEQ.fullmatch(raw):
        return HttpResponseBadRequest(gettext("Older entries are asked for by their number."))
    audience = audience_for(membership)
    before = int(raw) if raw else None
    page = pages.log_page(campaign, audience, before=before, show=show, viewer=request.user.pk)
    context = {
        "campaign": campaign,
        "audience": audience,
        "is_gm": audience == GM,
        "show_threat": shows_threat(campaign, audience),
        "log": page.entries,
        "log_page": page,
        **task_offers(campaign),  # a resolved test's card offers the open tasks
    }
    template = "tables/partials/log_older.html" if raw else "tables/partials/log_view.html"
    return render(request, template, context)
