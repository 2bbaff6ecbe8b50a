"""What a conflict's turn order stands at, read only (issue 24, SC-01..SC-05): who acts
next without paying, what the GM may buy, what keeping the initiative costs.

The turn commands (tables/services/conflicts/) decide from these, and the tracker
(tables/presenters/conflicts.py) shows the same answers without reaching a writer.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from rules import turns as rules
from tables.models import Campaign, Character, Conflict, Participant

PLAYERS, GM = Conflict.Side.PLAYERS.value, Conflict.Side.GM.value


def running_conflict(campaign: Campaign) -> Conflict | None:
    return Conflict.objects.filter(campaign=campaign, ended_at__isnull=True).first()


def with_turn(characters: QuerySet, campaign_id: int) -> QuerySet:
    """The characters, each with the campaign's turn as it stands (issue 37):
    `turn_running`, whether a conflict runs, and `turn_acting_id`, the acting
    participant's character (None while no one acts). Two subqueries that do not
    depend on the row, in the characters' own statement: a roll reads its roller so
    under the campaign lock and pays no statement for its turn mark. Not in the lock's
    own statement: on PostgreSQL a SELECT that waited for the lock reads its subqueries
    as they stood before the wait, so the turn a command just committed would be missed."""
    running = Conflict.objects.filter(campaign_id=campaign_id, ended_at__isnull=True)
    acting = Participant.objects.filter(conflict__in=running, acting=True)
    return characters.annotate(
        turn_running=Exists(running),
        turn_acting_id=Subquery(acting.values("character_id")[:1]),
    )


def out_of_turn(character: Character) -> dict:
    """{"out_of_turn": True} for a roll while a conflict runs by a character who is not
    the one acting (no one acting, or not taking part, counts), else {}: the key stays
    out of the roll's payload (issue 37). A roller not read through with_turn costs one
    small query."""
    if hasattr(character, "turn_running"):
        running, acting_id = character.turn_running, character.turn_acting_id
    else:
        acting = Participant.objects.filter(conflict=OuterRef("pk"), acting=True)
        found = (
            Conflict.objects.filter(campaign_id=character.campaign_id, ended_at__isnull=True)
            .values_list(Subquery(acting.values("character_id")[:1]))
            .first()
        )
        running, acting_id = found is not None, found and found[0]
    return {"out_of_turn": True} if running and acting_id != character.pk else {}


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
