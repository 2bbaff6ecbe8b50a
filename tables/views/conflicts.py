"""The turn tracker's commands (issue 24): one POST endpoint, the action named by the button
(COMMANDS, one small function each).

The answer is the tracker as the actor sees it (a refusal shown inside it, nothing
changed), then the event's live fragments, so the page updates without a socket.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.presenters.conflicts import tracker_context
from tables.presenters.table import audience_for, base_context
from tables.services.conflicts import paid, turns
from tables.views.access import campaign_for
from tables.views.answers import back_to_table, respond, run_command

TRACKER = "tables/partials/turn_tracker.html"


def _moved(campaign, character_id, step: int) -> list[int]:
    """Those still to act, this character one place earlier (step -1, the GM's "Move up")
    or later (+1, "Move down"). At the end of the list, or no longer waiting (a stale
    page), the order stays, which the service refuses as the same order."""
    conflict = turns.running_conflict(campaign)
    if conflict is None:
        return []
    waiting = conflict.participants.filter(acted=False, acting=False).order_by("position", "pk")
    order = list(waiting.values_list("character_id", flat=True))
    try:
        i = order.index(int(character_id))
    except (TypeError, ValueError):
        return order
    j = i + step
    if 0 <= j < len(order):
        order[i], order[j] = order[j], order[i]
    return order


def _acting_id(campaign):
    conflict = turns.running_conflict(campaign)
    acting = conflict.acting if conflict else None
    return acting.character_id if acting else None


# One small function per button: (campaign, user, POST) -> the command's event. The
# buttons name their action; an action not listed here is refused before anything runs.


def _start(campaign, user, post):
    entries = {k[len("initiative_") :]: v for k, v in post.items() if k.startswith("initiative_")}
    return turns.start_conflict(campaign.pk, user, post.getlist("character"), entries)


def _keep(campaign, user, post):
    return paid.keep_initiative(
        campaign.pk, user, post.get("character"), post.get("pay") or "spend"
    )


def _skip_acting(campaign, user, post):
    return turns.skip_turn(campaign.pk, user, _acting_id(campaign))


def _up(campaign, user, post):
    return turns.reorder(
        campaign.pk, user, _moved(campaign, post.get("character"), -1), waiting=True
    )


def _down(campaign, user, post):
    return turns.reorder(
        campaign.pk, user, _moved(campaign, post.get("character"), 1), waiting=True
    )


def _order(campaign, user, post):
    """The to-act list dropped into a new order (turn_order.js): its characters in order."""
    return turns.reorder(campaign.pk, user, post.getlist("character"), waiting=True)


def _end_conflict(campaign, user, post):
    return turns.end_conflict(campaign.pk, user)


def _for_character(command):
    """A command that takes the character the button names, as most do."""
    return lambda campaign, user, post: command(campaign.pk, user, post.get("character"))


COMMANDS = {
    "start": _start,
    "choose": _for_character(turns.choose_next),
    "end": _for_character(turns.end_turn),
    "keep": _keep,
    "interrupt": _for_character(paid.interrupt),
    "open_round": _for_character(paid.gm_opens_round),
    "skip": _for_character(turns.skip_turn),
    "skip_acting": _skip_acting,
    "insert": _for_character(turns.insert_participant),
    "up": _up,
    "down": _down,
    "order": _order,
    "end_conflict": _end_conflict,
}


def _run(action: str, campaign, user, post):
    return COMMANDS[action](campaign, user, post)


@login_required
@require_POST
def turn_command(request, pk: int):
    """Start, run and end the conflict's turn order (services/conflicts/turns.py)."""
    campaign, membership = campaign_for(request, pk, role="player")
    action = request.POST.get("action", "")
    if action not in COMMANDS:
        return HttpResponseBadRequest(_("Choose what to do with the turn order."))
    event, error = run_command(request, _run, campaign)
    if not request.htmx:
        return back_to_table(request, campaign, error=error)
    campaign.refresh_from_db()
    context = {
        **base_context(campaign, audience_for(membership)),
        **tracker_context(campaign, membership.is_gm),
        "turn_viewer": request.user.pk,
        "turn_error": error,
    }
    return respond(request, membership, TRACKER, context, [event] if event else [])
