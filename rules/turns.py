"""Turn order in a conflict (SC-01): which side acts next, and what keeping costs.

Pure values in, values out: the services read the conflict and ask here.
"""

from __future__ import annotations

PLAYERS, GM = "players", "gm"
KEEP_INITIATIVE_COST = 2  # SC-01: 2 group Momentum (players) or 2 Threat (the GM)


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


def may_keep(last_side: str, last_kept: bool, waiting: dict[str, int]) -> bool:
    """SC-01 (ruling SC-01a): the side that just acted may pay to act again, once in a row
    (a kept turn passes the initiative on), and only when that changes something: it has
    someone left to act and the other side would otherwise choose."""
    if not last_side or last_kept or not waiting.get(last_side, 0):
        return False
    return side_to_act(last_side, waiting) != last_side
