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
from tables.models import Campaign, Character, Conflict, Participant
from tables.services.conflicts import paid


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
        return context
    acting = next((p for p in people if p.acting), None)
    waiting = {rules.PLAYERS: 0, rules.GM: 0}
    for p in people:
        if not p.acted:
            waiting[p.side] += 1
    sides = conflict.mode == Conflict.Mode.SIDES
    mode = conflict.mode
    if sides:
        side = rules.side_to_act(conflict.last_side, waiting)
    elif mode == Conflict.Mode.FIRST:
        side = rules.players_first_side(waiting)  # SC-04, Conan
    elif mode == Conflict.Mode.INITIATIVE:
        side = next((p.side for p in people if not p.acted), None)  # SC-04, Fallout
    else:
        side = None
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
        turn_keep_price=_("%(cost)d %(pool)s") % {"cost": paid.keep_cost(campaign), "pool": pool},
        turn_outside=[c for c in rows.characters if c.pk not in taking_part],
        turn_mode_words=conflict.get_mode_display(),
    )
    return context


def _choosable(mode, acting, people, side) -> list:
    """Who may be chosen now without paying (SC-04): the side to act's characters, or by
    Initiative the next in order; no one while someone acts or in the GM's order."""
    if acting is not None or mode == Conflict.Mode.ORDERED:
        return []
    if mode == Conflict.Mode.INITIATIVE:
        return [p for p in people if not p.acted][:1]
    return [p for p in people if not p.acted and p.side == side]
