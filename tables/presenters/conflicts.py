"""What the turn tracker shows (issue 24, SC-01), read once and drawn per audience.

`tracker_rows` reads the running conflict and its participants; `tracker_context` words
it for one audience. The tracker is the same for every player: the line that says "your
turn" is the page's own (the full page draws it for its viewer; static/tables/turns.js
shows it after a push, from the tracker's data-acting-owner).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules import turns as rules
from tables.models import Attribute, Campaign, Character, Conflict, Participant
from tables.policy.turns import keep_cost, may_buy, turn_rules


@dataclass(frozen=True)
class TrackerRows:
    conflict: Conflict | None
    participants: tuple[Participant, ...]
    characters: tuple[Character, ...]  # the campaign's, for the GM's start and insert forms


def tracker_rows(campaign: Campaign) -> TrackerRows:
    conflict = Conflict.objects.filter(campaign=campaign, ended_at__isnull=True).first()
    participants = ()
    if conflict is not None:
        found = conflict.participants.select_related("character__owner")
        participants = tuple(found.order_by("position", "pk"))
    characters = tuple(Character.objects.filter(campaign=campaign).order_by("is_npc", "name"))
    return TrackerRows(conflict, participants, characters)


def side_words(side: str) -> str:
    return _("The players' side") if side == rules.PLAYERS else _("The GM's side")


def tracker_context(campaign: Campaign, is_gm: bool, rows: TrackerRows | None = None) -> dict:
    rows = rows or tracker_rows(campaign)
    conflict, people = rows.conflict, rows.participants
    context = {"turn_conflict": conflict, "turn_characters": rows.characters}
    if conflict is None:
        if is_gm:
            by_initiative = turn_rules(campaign).order == rules.INITIATIVE
            context["turn_by_initiative"] = by_initiative
            context["turn_start"] = _start_rows(campaign, rows.characters, by_initiative)
        return context
    acting = next((p for p in people if p.acting), None)
    waiting = {rules.PLAYERS: 0, rules.GM: 0}
    for p in people:
        if not p.acted:
            waiting[p.side] += 1
    sides = conflict.mode == Conflict.Mode.SIDES
    mode = conflict.mode
    side = _side_to_act(conflict, people, waiting)
    last_kept = conflict.last_kept and campaign.keep_once_in_a_row  # SC-01a's setting
    keep = sides and acting is None and rules.may_keep(conflict.last_side, last_kept, waiting)
    line = campaign.line
    pool = line.gm_pool if conflict.last_side == rules.GM else line.group_pool
    taking_part = {p.character_id for p in people}
    context.update(
        turn_acting=acting,
        turn_to_act=[p for p in people if not p.acted and not p.acting],
        turn_acted=[p for p in people if p.acted],
        turn_sides=sides or mode in (Conflict.Mode.FIRST, Conflict.Mode.INITIATIVE),
        turn_side=side,
        turn_side_words=side_words(side) if side else "",
        # Who may be chosen now, without paying: the side to act's characters.
        turn_choosable=_choosable(mode, acting, people, side),
        turn_keep=keep,
        turn_keep_side=conflict.last_side,
        turn_keep_words=side_words(conflict.last_side) if keep else "",
        turn_keepers=[p for p in people if keep and not p.acted and p.side == conflict.last_side],
        turn_keep_price=_("%(cost)d %(pool)s") % {"cost": keep_cost(campaign), "pool": pool},
        turn_outside=[c for c in rows.characters if c.pk not in taking_part],
        turn_mode_words=conflict.get_mode_display(),
        turn_keep_add=_keep_by_adding(campaign, conflict.last_side) if keep else "",
    )
    if is_gm:  # only the GM buys an NPC's turn: the players' tracker has no such offer
        context["turn_buys"] = _gm_buys(campaign, conflict, people, waiting)
    return context


def _side_to_act(conflict: Conflict, people, waiting: dict) -> str | None:
    """The side that acts next without paying, by the conflict's order (SC-04)."""
    if conflict.mode == Conflict.Mode.SIDES:
        return rules.side_to_act(conflict.last_side, waiting)
    if conflict.mode == Conflict.Mode.FIRST:
        return rules.players_first_side(waiting)  # Conan
    if conflict.mode == Conflict.Mode.INITIATIVE:
        return next((p.side for p in people if not p.acted), None)  # Fallout
    return None


def _keep_by_adding(campaign: Campaign, side: str) -> str:
    """SC-05 (STA dev blog 006): "2 to Threat" where the players may keep the initiative
    by adding its cost to the GM's pool instead of spending Momentum; else ""."""
    if side != rules.PLAYERS or not turn_rules(campaign).keep_by_adding_threat:
        return ""
    return _("%(cost)d to %(pool)s") % {
        "cost": keep_cost(campaign),
        "pool": campaign.line.gm_pool,
    }


def _gm_buys(campaign: Campaign, conflict: Conflict, people, waiting: dict) -> list[dict]:
    """SC-04: the GM's paid turns on offer now (may_buy), one button per waiting NPC:
    {"action", "character_id", "words"}, worded in the line's pool name."""
    if any(p.acting for p in people):
        return []
    offers = may_buy(campaign, conflict, waiting)
    npcs = [p for p in people if p.side == rules.GM and not p.acted]
    buys = []
    for action, cost in offers.items():
        if action == "open_round":
            words = _("Spend %(price)s: %(who)s opens the round")
        elif conflict.mode == Conflict.Mode.FIRST:
            words = _("Pay %(price)s: %(who)s acts before the next player")
        else:
            words = _("Spend %(price)s: %(who)s acts now")
        cost_words = _("%(cost)d %(pool)s") % {"cost": cost, "pool": campaign.line.gm_pool}
        for p in npcs:
            who = {"price": cost_words, "who": p.character.name}
            buys.append({"action": action, "character_id": p.character_id, "words": words % who})
    return buys


def _start_rows(campaign: Campaign, characters, by_initiative: bool) -> list[tuple]:
    """The start form's rows: (character, its Initiative by the sheet or None): Fallout
    core, Combat, Perception + Agility; None where the sheet lacks them (the GM enters
    one, else the service's ruling SC-R15 applies) or the order is not by Initiative."""
    if not by_initiative:
        return [(c, None) for c in characters]
    sheets = {c.pk: {} for c in characters}
    for row in Attribute.objects.filter(character__campaign=campaign).values(
        "character_id", "name", "value"
    ):
        sheets.setdefault(row["character_id"], {})[row["name"]] = row["value"]
    return [(c, rules.initiative_from(sheets[c.pk])) for c in characters]


def _choosable(mode, acting, people, side) -> list:
    """Who may be chosen now without paying (SC-04): the side to act's characters, or by
    Initiative the next in order; no one while someone acts or in the GM's order."""
    if acting is not None or mode == Conflict.Mode.ORDERED:
        return []
    if mode == Conflict.Mode.INITIATIVE:
        return [p for p in people if not p.acted][:1]
    return [p for p in people if not p.acted and p.side == side]
