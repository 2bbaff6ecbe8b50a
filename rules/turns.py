"""Turn order in a conflict (SC-01, SC-04, SC-05): each line's policy as data, and which
side or character acts next, what keeping the initiative and interrupting cost.

Pure values in, values out: the services read the conflict and ask here.

The lines' orders (SC-04):
- SIDES: the sides alternate, the side that just acted may Keep the Initiative (STA 1e
  and 2e, STA dev blog 006; Achtung! Cthulhu, Dune and the seeds' 2d20, which follow the
  2d20 core's alternation). STA: the GM may spend Threat for an NPC to open a round
  (STA dev blog 006: "the gamemaster can spend Threat to have an NPC take the first turn").
- PLAYERS_FIRST: the player characters all act first, in any order; then the NPCs; the
  GM pays Doom for an NPC to act before a player (Conan quickstart).
- INITIATIVE: each character by its Initiative, highest first; the GM pays Action Points
  for an NPC to act out of order (Fallout core, Combat).
- ORDERED: Momenta's structured play, the GM's order (no side pays).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

PLAYERS, GM = "players", "gm"
KEEP_INITIATIVE_COST = 2  # SC-01: 2 group Momentum (players) or 2 Threat (the GM)

SIDES, PLAYERS_FIRST, INITIATIVE, ORDERED = "sides", "first", "init", "ordered"
ORDERS = (SIDES, PLAYERS_FIRST, INITIATIVE, ORDERED)
SPEND, ADD_THREAT = "spend", "add_threat"  # SC-05: how Keep the Initiative is paid

# Fallout core, Combat: Initiative = Perception + Agility (the sheet's names, either spelling).
INITIATIVE_ATTRIBUTES = (("PERCEPTION", "PER"), ("AGILITY", "AGI"))
INITIATIVE_MAX = 99  # a GM's entry above this is a typo, not a statistic


@dataclass(frozen=True)
class TurnRules:
    """One line's turn order (SC-04) and Keep the Initiative (SC-05)."""

    order: str = SIDES
    keep_cost: int = KEEP_INITIATIVE_COST  # SC-05; 0 where the order has no keeping
    # SC-05 (STA dev blog 006): the players may add the cost to Threat instead of paying it.
    keep_by_adding_threat: bool = False
    # SC-04: what the GM pays (their pool) for an NPC to act before its time; 0: no such spend.
    interrupt_cost: int = 0
    # SC-04 (STA): what the GM pays for an NPC to open a round the players would open.
    open_round_cost: int = 0

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise ValueError(f"unknown turn order {self.order!r}")
        for cost in (self.keep_cost, self.interrupt_cost, self.open_round_cost):
            if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
                raise ValueError("a turn's cost is a whole number from 0")

    @property
    def keeps(self) -> bool:
        """Only alternating sides keep the initiative: the other orders have nothing to keep."""
        return self.order == SIDES


# The seeds' 2d20 default, Achtung! and Dune alternate as STA does, without its Threat options.
# STA: dev blog 006 names no price for the GM's opening turn: ruling SC-R12, 2 Threat (what
# keeping the initiative costs the GM). Conan: ruling SC-R13, 1 Doom an NPC (the quickstart
# says the GM pays Doom, not how much). Fallout: ruling SC-R14, 2 AP (the price of the
# book's other out-of-turn action, an extra Major Action). docs/rules.md lists them.
_STA = TurnRules(keep_by_adding_threat=True, open_round_cost=2)
LINE_RULES: dict[str, TurnRules] = {
    "seeds": TurnRules(),
    "sta1": _STA,
    "sta2": _STA,
    "conan": TurnRules(PLAYERS_FIRST, keep_cost=0, interrupt_cost=1),
    "fallout": TurnRules(INITIATIVE, keep_cost=0, interrupt_cost=2),
    "dune": TurnRules(),
    "achtung": TurnRules(),
}
MOMENTA = TurnRules(ORDERED, keep_cost=0)


def rules_for(line_key: str | None, *, uses_d6: bool = False) -> TurnRules:
    """The turn rules of a campaign: Momenta's GM order, else its 2d20 line's."""
    if uses_d6:
        return MOMENTA
    return LINE_RULES.get(line_key or "seeds", LINE_RULES["seeds"])


def other(side: str) -> str:
    return GM if side == PLAYERS else PLAYERS


def side_to_act(last_side: str, waiting: dict[str, int]) -> str | None:
    """SC-01: the side that chooses who acts next, without paying. `waiting`: how many
    of each side have not acted this round. The sides alternate (the players open the
    first round); a side with no one left to act passes to the other."""
    first = other(last_side) if last_side else PLAYERS
    for side in (first, other(first)):
        if waiting.get(side, 0):
            return side
    return None


def players_first_side(waiting: dict[str, int]) -> str | None:
    """SC-04 (Conan quickstart): the players' side acts while any of it waits, then the GM's."""
    for side in (PLAYERS, GM):
        if waiting.get(side, 0):
            return side
    return None


def may_keep(last_side: str, last_kept: bool, waiting: dict[str, int]) -> bool:
    """SC-01 (ruling SC-01a): the side that just acted may pay to act again, once in a row
    (a kept turn passes the initiative on), and only when that changes something: it has
    someone left to act and the other side would otherwise choose."""
    if not last_side or last_kept or not waiting.get(last_side, 0):
        return False
    return side_to_act(last_side, waiting) != last_side


def keep_payments(rules: TurnRules, side: str, pool: int, cost: int) -> tuple[str, ...]:
    """SC-05: the ways `side` may pay `cost` to keep the initiative now: "spend" (the GM
    spends Threat, the players group Momentum; `pool` is the payer's points) and, for the
    players on STA, "add_threat": the cost added to Threat instead (STA dev blog 006),
    which needs no Momentum."""
    ways = []
    if pool >= cost:
        ways.append(SPEND)
    if side == PLAYERS and rules.keep_by_adding_threat:
        ways.append(ADD_THREAT)
    return tuple(ways)


def may_interrupt(rules: TurnRules, next_up: str | None, npc_waits: bool) -> bool:
    """SC-04: the GM may pay for a waiting NPC to act now when the line allows it and the
    one to act without paying is not the GM's (PLAYERS_FIRST: a player still waits;
    INITIATIVE: the next in order is not this NPC, `next_up` then names its side)."""
    return bool(rules.interrupt_cost) and npc_waits and next_up == PLAYERS


def may_open_round(
    rules: TurnRules, round_fresh: bool, next_side: str | None, npc_waits: bool, last_side: str
) -> bool:
    """SC-04 (STA dev blog 006): before anyone acts in a round the players would open, the
    GM may pay for an NPC to take the first turn. Not when the GM's side took the last
    turn (the previous round's): an NPC acting next is then Keeping the Initiative, which
    SC-01a allows once in a row; sold on top, it gave the GM two bought turns running."""
    if last_side == GM:
        return False
    return bool(rules.open_round_cost) and round_fresh and next_side == PLAYERS and npc_waits


def initiative_from(attributes: Mapping[str, int]) -> int | None:
    """Fallout core, Combat: Initiative = Perception + Agility; None when the sheet lacks
    either (the GM enters a value when starting the conflict)."""
    upper = {str(name).upper(): value for name, value in attributes.items()}
    total = 0
    for names in INITIATIVE_ATTRIBUTES:
        found = next((upper[n] for n in names if n in upper), None)
        if found is None:
            return None
        total += found
    return total


def by_initiative(entries: Iterable[tuple[int, int]]) -> list[int]:
    """SC-04 (Fallout core, Combat): ids by Initiative, highest first. `entries`: (id,
    initiative) in the GM's order; ties keep that order (the book lets the GM decide)."""
    ordered = list(entries)
    return [pk for pk, _ in sorted(ordered, key=lambda e: -e[1])]


def next_by_order(waiting_in_order: Iterable[tuple[int, str]]) -> tuple[int, str] | None:
    """INITIATIVE: the first (id, side) still to act in the order, None if no one is."""
    return next(iter(waiting_in_order), None)
