"""The live table page, its pool ledgers and its small GM tools (live push: tables/live.py,
tables/consumers.py)."""

import re

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from rules import pools
from tables.live import table_page
from tables.live.log_filters import DEFAULT_SHOW, parse_show
from tables.models import Character, PersonSettings, PoolChange
from tables.policy.access import has_role
from tables.presenters.table import ALL, GM, audience_for, shows_threat
from tables.services import core, sessions
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, respond
from tables.views.d20 import composer_of
from tables.views.talk import talk_form
from tables.words.wording import pool_name


class NoteForm(forms.Form):
    text = forms.CharField(max_length=sessions.NOTE_MAX_LENGTH, strip=True)


@login_required
def table(request, pk: int):
    """The table: characters, pools, the log and who is here; members only."""
    campaign, membership = campaign_for(request, pk)
    # ?show= is the log filter's no-htmx fallback; a name it does not know shows everything.
    show = parse_show(request.GET.get("show")) or DEFAULT_SHOW
    # ?at=<seq>: the log from that entry back (the recap's links to a moment, issue 40).
    raw = request.GET.get("at", "")
    at = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None
    context = table_page.table_context(campaign.pk, membership, show=show, at=at)
    context["note_form"] = NoteForm()
    # Table talk (views/talk.py): players and GMs post; observers only read.
    context["talk_form"] = (
        talk_form(campaign, request.user) if has_role(membership, "player") else None
    )
    # The viewer's own choices (issue 14); site.css animates only under this class.
    person = PersonSettings.of(request.user)
    context["dice_motion"] = person.animate_dice
    context["stage_off"] = not person.show_stage  # roll_stage.html, stage.js (issue 29)
    if not campaign.uses_d6:  # composer.html draws the 2d20 composer from it
        context["d20"] = composer_of(campaign, membership)
    return render(request, "tables/table.html", context)


@login_required
@require_POST
def table_note(request, pk: int):
    """A GM posts a note to the log. The answer carries the new entry too, so the
    GM's page updates even without a socket; the socket's copy is then ignored
    by its sequence number."""
    campaign, membership = campaign_for(request, pk, role="gm")
    form = NoteForm(request.POST)
    event = None
    if form.is_valid():
        try:
            event = sessions.post_note(campaign.pk, request.user, form.cleaned_data["text"])
        except (core.ServiceError, PermissionDenied) as error:
            form.add_error("text", str(error))
    if not request.htmx:
        error = "" if event else " ".join(form.errors.get("text", ["Note not posted."]))
        return back_to_table(request, campaign, error=error)
    context = {"campaign": campaign, "note_form": NoteForm() if event else form}
    return respond(request, membership, "tables/partials/note_form.html", context, [event])


# --- Pool ledgers -------------------------------------------------------------------

LEDGER_LIMIT = 50  # newest lines shown; the rest stay in the database
LEDGER = "tables/pool_ledger.html"
CAMPAIGN_POOLS = pools.CAMPAIGN_POOLS
_ID = re.compile(r"[0-9]{1,18}")  # ASCII digits that fit the database's integers


class _Refused(Exception):
    """A ledger link this viewer cannot follow: the message to show, and the status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@login_required
@require_GET
def pool_ledger(request, pk: int):
    """A pool's history, newest first: who changed it, by how much, why, what the cap
    took (PM-04, PM-13). `?pool=<pool>[&character=<id>]`; members only.

    Players and observers never see a GM-only event's lines (TB-03), nor Threat
    unless the GM shows it (MO-13). With htmx the answer is the ledger fragment
    (the table page opens it in a dialog); otherwise a small page around it.
    """
    campaign, membership = campaign_for(request, pk)
    audience = audience_for(membership)
    try:
        pool, character = _ledger_subject(request.GET, campaign, audience)
    except _Refused as refusal:
        context = {
            "campaign": campaign,
            "title": gettext("Pool history"),
            "ledger_error": str(refusal),
        }
        return _ledger_answer(request, context, refusal.status)
    lines = PoolChange.objects.filter(campaign=campaign, pool=pool, character=character)
    if audience != GM:
        lines = lines.filter(event__audience=ALL)
    label = pool_name(campaign, pool, PoolChange.Pool(pool).label)  # the line's name (GL-01)
    context = {
        "campaign": campaign,
        "title": f"{character.name}'s {label}" if character is not None else label,
        "pool": pool,
        "character": character,
        "value": getattr(character if character is not None else campaign, pool),
        "cap": _cap(pool, character, campaign),
        "lines": lines.select_related("event", "event__actor", "character")[:LEDGER_LIMIT],
        "total": lines.count(),
        "limit": LEDGER_LIMIT,
    }
    return _ledger_answer(request, context)


def _ledger_subject(params, campaign, audience: str):
    """(pool, character or None) named by the query string, else _Refused.

    Any pool of the model is accepted, not only those the campaign uses now:
    the economy is a setting, and the history of a pool outlives a change of it.
    """
    pool = params.get("pool", "")
    if pool not in PoolChange.Pool.values:
        raise _Refused(gettext("There is no pool called “%(40)s”.") % {"40": pool[:40]}, 400)
    label = str(PoolChange.Pool(pool).label)
    raw = params.get("character", "").strip()
    if pool in CAMPAIGN_POOLS:
        if raw:
            raise _Refused(
                gettext("%(label)s is the table's, not a character's.") % {"label": label}, 400
            )
        if pool == "threat" and not shows_threat(campaign, audience):
            raise _Refused(
                gettext("Threat is the GM's pool; the GM has not shown it to players."), 403
            )
        return pool, None
    if not raw:
        raise _Refused(gettext("Whose %(label)s? Name a character.") % {"label": label}, 400)
    if not _ID.fullmatch(raw):
        raise _Refused(gettext("A character is named by its number."), 400)
    character = Character.objects.filter(campaign=campaign, pk=int(raw)).first()
    if character is None:
        raise _Refused(gettext("That character is not in this campaign."), 404)
    return pool, character


def _cap(pool: str, character, campaign=None) -> int | None:
    """The pool's cap as rules.pools sets it (Resolve's is on the sheet, RS-01; the group
    pool's is the campaign's game line's, GL-01)."""
    own = character.resolve_max if character is not None else None
    if campaign is not None and pool in pools.LINE_CAPPED:
        own = campaign.group_cap
    return pools.cap_of(pool, own)


def _ledger_answer(request, context: dict, status: int = 200):
    template = f"{LEDGER}#ledger" if request.htmx else LEDGER
    return render(request, template, context, status=status)
