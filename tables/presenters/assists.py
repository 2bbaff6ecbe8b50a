"""A player's Assist panel: the Assists their characters ask for or would give (PM-08).

The panel is one person's (the helper's player answers for the helper), so it is never
pushed: an event about an Assist makes the page fetch it again (live_sync.html,
views/regions.momenta_assists). The GM's queue is presenters.momenta.assist_queue_context.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tables.models import AssistRequest, Campaign, Membership


def open_assists_of(campaign: Campaign) -> list[AssistRequest]:
    """The campaign's Assists still open (asked for, or accepted and not yet used)."""
    return list(
        AssistRequest.objects.filter(
            campaign=campaign,
            state__in=[AssistRequest.State.REQUESTED, AssistRequest.State.ACCEPTED],
        ).select_related("roller", "helper")
    )


def player_actions(assist: AssistRequest, helps: bool) -> list[tuple[str, str]]:
    """What a player may answer: for their own helper, agree or decline until they
    have agreed (PM-08), then withdraw; nothing for someone else's."""
    if not helps:
        return []
    if not assist.helper_agreed:
        return [("agree", gettext("Accept")), ("refuse", gettext("Decline"))]
    return [("decline", gettext("Withdraw"))]


def player_assists(
    campaign: Campaign, membership: Membership, mine
) -> list[tuple[AssistRequest, list[tuple[str, str]]]]:
    """A player's open Assists (their characters roll or help), each with their answers.
    GMs answer in the queue instead: none here. `mine`: the characters they control."""
    if membership.is_gm:
        return []
    ids = {c.pk for c in mine}
    return [
        (a, player_actions(a, a.helper_id in ids))
        for a in open_assists_of(campaign)
        if a.roller_id in ids or a.helper_id in ids
    ]
