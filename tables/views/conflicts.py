"""The turn tracker's commands (issue 24): one POST endpoint, the action named by the button.

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


def _moved_up(campaign, character_id) -> list[int]:
    """The order with this character one place earlier (the GM's "Move up")."""
    conflict = turns.running_conflict(campaign)
    if conflict is None:
        return []
    order = list(conflict.participants.values_list("character_id", flat=True))
    try:
        i = order.index(int(character_id))
    except (TypeError, ValueError):
        return []
    if i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
    return order


def _acting_id(campaign):
    conflict = turns.running_conflict(campaign)
    acting = conflict.acting if conflict else None
    return acting.character_id if acting else None


def _run(action: str, campaign, user, post):
    character = post.get("character")
    pk = campaign.pk
    if action == "start":
        entries = {
            k[len("initiative_") :]: v for k, v in post.items() if k.startswith("initiative_")
        }
        return turns.start_conflict(pk, user, post.getlist("character"), entries)
    if action == "choose":
        return turns.choose_next(pk, user, character)
    if action == "end":
        return turns.end_turn(pk, user, character)
    if action == "keep":
        return paid.keep_initiative(pk, user, character, post.get("pay") or "spend")
    if action == "interrupt":
        return paid.interrupt(pk, user, character)
    if action == "open_round":
        return paid.gm_opens_round(pk, user, character)
    if action == "skip":
        return turns.skip_turn(pk, user, character)
    if action == "skip_acting":
        return turns.skip_turn(pk, user, _acting_id(campaign))
    if action == "insert":
        return turns.insert_participant(pk, user, character)
    if action == "up":
        return turns.reorder(pk, user, _moved_up(campaign, character))
    if action == "end_conflict":
        return turns.end_conflict(pk, user)
    return None


ACTIONS = (
    "start",
    "choose",
    "end",
    "keep",
    "interrupt",
    "open_round",
    "skip",
    "skip_acting",
    "insert",
    "up",
    "end_conflict",
)


@login_required
@require_POST
def turn_command(request, pk: int):
    """Start, run and end the conflict's turn order (services/conflicts/turns.py)."""
    campaign, membership = campaign_for(request, pk, role="player")
    action = request.POST.get("action", "")
    if action not in ACTIONS:
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
