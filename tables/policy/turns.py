"""What a conflict's turn order stands at, read only (issue 24, SC-01..SC-05): who acts
next without paying, what the GM may buy, what keeping the initiative costs.

The turn commands (tables/services/conflicts/) decide from these, and the tracker
(tables/presenters/conflicts.py) shows the same answers without reaching a writer.
"""

from __future__ import annotations

from rules import turns as rules
from tables.models import Campaign, Conflict, Participant

PLAYERS, GM = Conflict.Side.PLAYERS.value, Conflict.Side.GM.value


def running_conflict(campaign: Campaign) -> Conflict | None:
    return Conflict.objects.filter(campaign=campaign, ended_at__isnull=True).first()


def waiting(conflict: Conflict) -> dict[str, int]:
    """{side: how many have not acted this round}."""
    counts = {PLAYERS: 0, GM: 0}
    for side in conflict.participants.filter(acted=False).values_list("side", flat=True):
        counts[side] += 1
    return counts


def ordered_next(conflict: Conflict) -> Participant | None:
    return conflict.participants.filter(acted=False).select_related("character").first()


def turn_rules(campaign: Campaign) -> rules.TurnRules:
    return rules.rules_for(campaign.game_line, uses_d6=campaign.uses_d6)


def next_side(campaign: Campaign, conflict: Conflict) -> str | None:
    """SC-04: the side that acts next without paying, by the conflict's order."""
    counts = waiting(conflict)
    if conflict.mode == Conflict.Mode.SIDES:
        return rules.side_to_act(conflict.last_side, counts)
    if conflict.mode == Conflict.Mode.FIRST:
        return rules.players_first_side(counts)
    following = ordered_next(conflict)
    return following.side if following is not None else None


def keep_cost(campaign: Campaign) -> int:
    """SC-05: the campaign's price for keeping the initiative, else its line's."""
    if campaign.keep_initiative_cost is not None:
        return campaign.keep_initiative_cost
    return turn_rules(campaign).keep_cost


def may_buy(campaign, conflict: Conflict, counts: dict[str, int] | None = None) -> dict[str, int]:
    """What the GM may buy now, for the tracker: {"interrupt" or "open_round": price}."""
    line_rules = turn_rules(campaign)
    counts = waiting(conflict) if counts is None else counts
    npc_waits = bool(counts.get(GM))
    side = next_side(campaign, conflict)
    offers = {}
    if conflict.mode in (Conflict.Mode.FIRST, Conflict.Mode.INITIATIVE):
        if rules.may_interrupt(line_rules, side, npc_waits):
            offers["interrupt"] = line_rules.interrupt_cost
    elif conflict.mode == Conflict.Mode.SIDES:
        fresh = not conflict.participants.filter(acted=True).exists()
        if rules.may_open_round(line_rules, fresh, side, npc_waits, conflict.last_side):
            offers["open_round"] = line_rules.open_round_cost
    return offers
