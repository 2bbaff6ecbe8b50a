"""2d20 game lines: what each published line calls its pools and how it plays them.

A campaign on the 2d20 preset picks one line (GL-01). Everything a line changes
is a row of this table, read by the services, presenters and templates; no view
branches on a line's name.

| key     | group pool    | GM pool | personal      | spending it | d6 dice (GL-04) |
|---------|---------------|---------|---------------|-------------|-----------------|
| seeds   | Momentum      | Threat  | Determination | reroll T-04 | —               |
| sta1    | Momentum      | Threat  | Determination | +d20 = 1    | Challenge dice  |
| sta2    | Momentum      | Threat  | Determination | a d20 → 1   | Challenge dice  |
| conan   | Momentum      | Doom    | Fortune       | reroll T-04 | Combat dice     |
| fallout | Action Points | GM's AP | Luck          | reroll T-04 | Combat dice     |
| dune    | Momentum      | Threat  | Determination | reroll T-04 | —               |
| achtung | Momentum      | Threat  | Fortune       | reroll T-04 | Challenge dice  |

(seeds: the seeds' 2d20; sta1/sta2: Star Trek Adventures 1st/2nd edition;
conan: Robert E. Howard's Conan; dune: Dune, Adventures in the Imperium.)

"+d20 = 1" (GL-02): before the roll, a bonus d20 showing 1 joins the pool
(beyond MO-08's three bought dice). "a d20 → 1" (GL-03): before the roll, one
of the pool's d20s is set to 1 instead; the pool does not grow. Every group
pool holds at most 6 (MO-06): `group_cap` None means that default.

`seeds` is the default: what the table played before lines existed (the seeds
describe Dune's rules, so `dune` plays the same with its own title). Lines
other than Star Trek keep the seeds' reroll (T-04) for their personal pool; a
new behaviour is a new constant below and one rules function, never a branch
in a view.

A line whose group pool holds more or less is one row with its `group_cap`:
rules.pools applies it (`own_cap`), and the database constraint on Campaign is
generated from this table (`caps()`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .d20 import FACES
from .pools import GROUP_POOL_MAX

# What spending one point of the personal pool does.
REROLL = "reroll"  # T-04: after the roll, with the GM's leave, reroll chosen own dice
BONUS_ONE = "bonus_one"  # GL-02: before the roll, add a d20 that shows 1 (beyond MO-08's 3)
SET_ONE = "set_one"  # GL-03: before the roll, one of the pool's d20s shows 1 instead
PERSONAL_SPENDS = (REROLL, BONUS_ONE, SET_ONE)


@dataclass(frozen=True)
class GameLine:
    key: str
    title: str
    group_pool: str = "Momentum"
    group_cap: int | None = None  # None: the default cap, MO-06
    gm_pool: str = "Threat"
    personal_pool: str = "Determination"
    personal_spend: str = REROLL
    # The d6 damage/effect dice (GL-04): their name at this line's table, "" if it has none.
    challenge_dice: str = ""
    # GL-05: the widest complication range the line allows (5: faces 16–20).
    complication_max: int = FACES

    def __post_init__(self) -> None:
        if self.personal_spend not in PERSONAL_SPENDS:
            raise ValueError(f"{self.key}: unknown personal spend {self.personal_spend!r}")
        if not 1 <= self.complication_max <= FACES:
            raise ValueError(f"{self.key}: the complication range is 1 to {FACES} faces")
        cap = self.group_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise ValueError(f"{self.key}: the group cap must be a whole number from 1")

    @property
    def group_max(self) -> int:
        """The most the group pool holds at this line's table (MO-06, GL-01)."""
        return GROUP_POOL_MAX if self.group_cap is None else self.group_cap

    @property
    def spends_before_roll(self) -> bool:
        """The personal pool is spent in the composer (GL-02, GL-03), not after (T-04)."""
        return self.personal_spend != REROLL

    @property
    def has_challenge_dice(self) -> bool:
        return bool(self.challenge_dice)

    def roll_range(self, gm_range: int, own: int | None = None) -> int:
        """GL-05: the complication range a roll uses. The GM's range (the scene's, else the
        campaign's) is a floor a roll's own range may widen but never narrow, and the
        line's bound caps both (a campaign moved to a narrower line keeps its setting)."""
        wanted = gm_range if own is None else max(gm_range, own)
        return min(self.complication_max, wanted)

    def determination_dice(self, spent: bool) -> tuple[int, int]:
        """(ones, extra_dice) of rules.d20.SkillTest for a Determination spent before the
        roll: GL-02 adds a die showing 1, GL-03 sets one of the pool's to 1."""
        if not spent:
            return 0, 0
        if self.personal_spend == BONUS_ONE:
            return 1, 1
        if self.personal_spend == SET_ONE:
            return 1, 0
        raise ValueError(f"{self.title}: {self.personal_pool} is spent after the roll (T-04)")


DEFAULT = "seeds"

LINES: dict[str, GameLine] = {
    line.key: line
    for line in (
        GameLine("seeds", "2d20 (the seeds' rules)"),
        GameLine(
            "sta1",
            "Star Trek Adventures, 1st edition",
            personal_spend=BONUS_ONE,
            challenge_dice="Challenge dice",
            complication_max=5,
        ),
        GameLine(
            "sta2",
            "Star Trek Adventures, 2nd edition",
            personal_spend=SET_ONE,
            challenge_dice="Challenge dice",
            complication_max=5,
        ),
        GameLine(
            "conan",
            "Robert E. Howard's Conan",
            gm_pool="Doom",
            personal_pool="Fortune",
            challenge_dice="Combat dice",
        ),
        GameLine(
            "fallout",
            "Fallout",
            group_pool="Action Points",
            gm_pool="GM's AP",
            personal_pool="Luck",
            challenge_dice="Combat dice",
        ),
        GameLine("dune", "Dune: Adventures in the Imperium"),
        GameLine(
            "achtung",
            "Achtung! Cthulhu",
            personal_pool="Fortune",
            challenge_dice="Challenge dice",
        ),
    )
}


def line_of(key: str | None) -> GameLine:
    """The line stored under `key`; the default for an empty key, ValueError for an unknown one."""
    if not key:
        return LINES[DEFAULT]
    try:
        return LINES[key]
    except KeyError:
        raise ValueError(f"unknown game line {key!r}") from None


def choices() -> list[tuple[str, str]]:
    """(key, title) in table order, for a model field's choices."""
    return [(line.key, line.title) for line in LINES.values()]


def caps() -> dict[int, tuple[str, ...]]:
    """Each group cap and the lines that use it, for the database constraint."""
    out: dict[int, list[str]] = {}
    for line in LINES.values():
        out.setdefault(line.group_max, []).append(line.key)
    return {cap: tuple(keys) for cap, keys in sorted(out.items())}
