"""Session and adventure starts per game line (GL-07): what the group and GM pools are
set to when a session or an adventure begins. Pure values in, values out.

- Conan (a Modiphius forum answer on the Conan rules, "Each Session starting tokens"):
  at the session start group Momentum goes to 0 and Doom starts at the sum of the player
  characters' Fortune (read after GL-02's refill sets each to 3).
- STA 1st and 2nd editions (STA core rulebook, the Gamemaster chapter, Threat): an
  adventure (a mission) starts with 2 Threat per player character. Ruling GL-R2: the
  GM's "New mission" starts one, and Threat is set to that amount (the book says the GM
  "begins" with it), not added to what the last mission left.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# GL-07: lines whose session start empties Momentum and sets Doom from Fortune.
DOOM_FROM_FORTUNE = frozenset({"conan"})
# GL-07: Threat per player character at an adventure's start, by line.
ADVENTURE_THREAT_PER_CHARACTER = {"sta1": 2, "sta2": 2}


@dataclass(frozen=True)
class PoolStart:
    """The pools a start sets: None leaves that pool alone."""

    group_momentum: int | None = None
    gm_pool: int | None = None


def session_start(line_key: str, fortunes: Iterable[int]) -> PoolStart:
    """GL-07: the pools at a session start, from the player characters' Fortune (Conan);
    nothing on the other lines."""
    if line_key not in DOOM_FROM_FORTUNE:
        return PoolStart()
    values = list(fortunes)
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise ValueError("Fortune is a whole number from 0")
    return PoolStart(group_momentum=0, gm_pool=sum(values))


def adventure_start(line_key: str, player_characters: int) -> PoolStart:
    """GL-07: the pools at an adventure's start: STA's 2 Threat per player character."""
    per = ADVENTURE_THREAT_PER_CHARACTER.get(line_key)
    if per is None:
        return PoolStart()
    if isinstance(player_characters, bool) or not isinstance(player_characters, int):
        raise ValueError("the number of player characters is a whole number")
    if player_characters < 0:
        raise ValueError("the number of player characters is a whole number")
    return PoolStart(gm_pool=per * player_characters)


def starts_adventures(line_key: str) -> bool:
    """Whether the line's adventure start sets a pool (the GM's "New mission" does it)."""
    return line_key in ADVENTURE_THREAT_PER_CHARACTER
