"""2d20 game lines: what each published line calls its pools and how it plays them.

A campaign on the 2d20 preset picks one line (GL-01). Everything a line changes
is a row of this table, read by the services, presenters and templates; no view
branches on a line's name.

| key     | personal      | before the roll | after the roll | cap; refill          | d6 dice  |
|---------|---------------|-----------------|----------------|----------------------|----------|
| seeds   | Determination | —               | reroll (T-04)  | —                    | —        |
| sta1    | Determination | +d20 = 1        | reroll         | 3; 1 each session    | Challenge|
| sta2    | Determination | a d20 → 1       | reroll         | 3; 1 each mission    | —        |
| conan   | Fortune       | +d20 = 1        | —              | —; 3 each session    | Combat   |
| fallout | Luck          | LCK as attribute| one d20, free  | LCK; LCK each quest  | Combat   |
| dune    | Determination | a d20 → 1       | reroll, once   | 3; 1 each adventure  | —        |
| achtung | Fortune       | a d20 → 1       | —              | —; 3 each session (R)| Challenge|

Group and GM pools: Momentum and Threat, but Conan's Doom and Fallout's Action Points
and GM's AP (the rows below).

(seeds: the seeds' 2d20; sta1/sta2: Star Trek Adventures 1st/2nd edition;
conan: Robert E. Howard's Conan; dune: Dune, Adventures in the Imperium.)

Before the roll (GL-02): "+d20 = 1" adds a bonus d20 showing 1, one of MO-08's three
bonus dice (GL-03: 5d20 in all); "a d20 → 1" sets one of the pool's d20s to 1 instead;
the pool does not grow. After the roll: "reroll" is T-04's (chosen own dice, with the
GM's leave, which stands for the book's "a Value / drive applies"); "once": a die
rerolled keeps its second result. A refill sets the pool to the starting amount for
every player character, at the session start or at the GM's "new mission" (adventure,
quest). Conan's Fortune and Achtung!'s have no cap the sources state (the GM awards
more by hand); "(R)": Achtung!'s refill is GL-R1, a ruling, where its book could not be
checked (see `ACHTUNG_FORTUNE`). STA bounds the complication range at 5 (GL-05).
STA 2nd ed. lets one assistant in free; each after the first costs 1 Momentum or adds 1
Threat (GL-06, `free_assistants`); the other lines let assistants in free.
Every group pool holds at most 6 (MO-06): `group_cap` None means that default. Each
line's tests name the book they follow (tests/rules/test_game_lines.py,
tests/tables/test_game_lines.py).

A new behaviour is a new constant below and one rules function, never a branch in a
view.

Bonus Damage (SC-02): STA 1st ed. ("Combat Momentum Spends": Bonus Damage, 1,
repeatable, "each Momentum spent adds +1 damage"), STA 2nd ed., Conan and Achtung!
Cthulhu, which keep that spend; not the seeds (they name none: a GM adds it as a custom
spend, MO-14), not Fallout (its Bonus Damage buys Combat dice, at most 3: rolled with
the attack's dice, not counted here), not Dune (no damage track).

A line whose group pool holds more or less is one row with its `group_cap`:
rules.pools applies it (`own_cap`), and the database constraint on Campaign is
generated from this table (`caps()`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .d20 import FACES
from .pools import GROUP_POOL_MAX

# What spending one point of the personal pool does before the roll (`personal_spend`).
REROLL = "reroll"  # nothing before the roll: the pool is spent after it (T-04)
BONUS_ONE = "bonus_one"  # GL-02: add a d20 that shows 1, within MO-08's three bonus dice
SET_ONE = "set_one"  # GL-02: one of the pool's d20s shows 1 instead of being rolled
STACKED_DECK = "stacked_deck"  # Fallout: the target uses LCK instead of the test's attribute
PERSONAL_SPENDS = (REROLL, BONUS_ONE, SET_ONE, STACKED_DECK)

# What it does after the roll (`after_roll`): "" nothing.
CHOSEN_DICE = "reroll"  # T-04: with the GM's leave, reroll chosen dice of one's own pool
ONE_DIE = "one_die"  # Fallout's Miss Fortune: reroll one d20, no leave needed
AFTER_ROLL = ("", CHOSEN_DICE, ONE_DIE)

# Narrative spends of the personal pool (`narrative_spends`): what they do is told at the
# table, so only their cost is kept (Fallout's Luck of the Draw and Lucky Timing).
LUCK_OF_THE_DRAW = "luck_of_the_draw"  # a helpful fact; the GM may ask for more points
LUCKY_TIMING = "lucky_timing"  # act now, out of the initiative order (combat)
NARRATIVE_SPENDS = (LUCK_OF_THE_DRAW, LUCKY_TIMING)
# Those the GM may price at more than one point.
NARRATIVE_PRICED_BY_GM = frozenset({LUCK_OF_THE_DRAW})

# When the personal pool goes back to its starting amount (`refill_at`): "" never (the
# seeds say nothing), at each session start, or at the GM's "new mission" (the line's word).
SESSION = "session"
MISSION, ADVENTURE, QUEST = "mission", "adventure", "quest"
REFILLS = ("", SESSION, MISSION, ADVENTURE, QUEST)


@dataclass(frozen=True)
class GameLine:
    key: str
    title: str
    group_pool: str = "Momentum"
    group_cap: int | None = None  # None: the default cap, MO-06
    gm_pool: str = "Threat"
    personal_pool: str = "Determination"
    personal_spend: str = REROLL
    after_roll: str = CHOSEN_DICE
    # The 2d20 core's re-roll rule (Dune): a die rerolled once keeps its second result.
    reroll_once: bool = False
    # GL-02: the most the personal pool holds (None: no cap) and what it is set to at
    # `refill_at`; `personal_attribute` (Fallout: LCK) names the sheet attribute that is
    # both instead.
    personal_cap: int | None = None
    personal_start: int = 0
    refill_at: str = ""
    personal_attribute: tuple[str, ...] = ()
    narrative_spends: tuple[str, ...] = ()
    # The d6 damage/effect dice (GL-04): their name at this line's table, "" if it has none.
    challenge_dice: str = ""
    # GL-05: the widest complication range the line allows (5: faces 16–20).
    complication_max: int = FACES
    # GL-06: how many assistants join a test free (None: any number); each one more costs
    # 1 Momentum or adds 1 Threat (STA 2nd ed.: the first is free).
    free_assistants: int | None = None
    # SC-02: the book's Bonus Damage spend (1 point, repeatable, +1 damage each) is in
    # the spend catalogue (rules.momentum.BONUS_DAMAGE); False where the book has none.
    bonus_damage: bool = False
    # SC-03: Dune's extended tasks take Momentum for extra points, STA 2e's for Impact
    # (rules.momentum.TASK_POINTS).
    task_points: bool = False

    def __post_init__(self) -> None:
        if self.personal_spend not in PERSONAL_SPENDS:
            raise ValueError(f"{self.key}: unknown personal spend {self.personal_spend!r}")
        if self.refill_at not in REFILLS:
            raise ValueError(f"{self.key}: unknown refill {self.refill_at!r}")
        if self.personal_cap is not None and not 0 <= self.personal_start <= self.personal_cap:
            raise ValueError(f"{self.key}: the starting amount must fit the cap")
        if any(use not in NARRATIVE_SPENDS for use in self.narrative_spends):
            raise ValueError(f"{self.key}: unknown narrative spend in {self.narrative_spends!r}")
        if self.after_roll not in AFTER_ROLL:
            raise ValueError(f"{self.key}: unknown spend after the roll {self.after_roll!r}")
        if not 1 <= self.complication_max <= FACES:
            raise ValueError(f"{self.key}: the complication range is 1 to {FACES} faces")
        free = self.free_assistants
        if free is not None and (isinstance(free, bool) or not isinstance(free, int) or free < 0):
            raise ValueError(f"{self.key}: free assistants are a whole number from 0")
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
    def rerolls_after(self) -> bool:
        """The personal pool also buys a reroll after the roll (T-04, GL-02)."""
        return bool(self.after_roll)

    @property
    def reroll_needs_leave(self) -> bool:
        """T-04's reroll waits for the GM's leave; Fallout's Miss Fortune does not."""
        return self.after_roll == CHOSEN_DICE

    @property
    def reroll_most_dice(self) -> int | None:
        """How many dice one reroll may take (None: any of one's own)."""
        return 1 if self.after_roll == ONE_DIE else None

    @property
    def has_challenge_dice(self) -> bool:
        return bool(self.challenge_dice)

    @property
    def refills_between_sessions(self) -> bool:
        """The GM refills the personal pool by hand, at a new mission/adventure/quest."""
        return self.refill_at in (MISSION, ADVENTURE, QUEST)

    def personal_bounds(self, attribute_value: int | None = None) -> tuple[int | None, int | None]:
        """(cap, starting amount) of one character's personal pool (GL-02). A line that
        reads them from the sheet (`personal_attribute`) takes `attribute_value`; a sheet
        without that attribute has neither (no cap, and a refill leaves it alone)."""
        if self.personal_attribute:
            if attribute_value is None:
                return None, None
            return attribute_value, attribute_value
        return self.personal_cap, self.personal_start

    def narrative_cost(self, use: str, points: int = 1) -> int:
        """What a narrative spend costs (GL-02): 1, or what the GM asked for one priced by
        the GM (Luck of the Draw); ValueError for a use the line has not, or a price it
        does not allow."""
        if use not in self.narrative_spends:
            raise ValueError(f"{self.title} has no spend {use!r}")
        if isinstance(points, bool) or not isinstance(points, int) or points < 1:
            raise ValueError("A spend costs a whole number of points, at least 1")
        if points > 1 and use not in NARRATIVE_PRICED_BY_GM:
            raise ValueError("This spend costs 1 point")
        return points

    def assistance_cost(self, assistants: int) -> int:
        """GL-06: what `assistants` cost before the roll: 1 (Momentum, or Threat added) for
        each beyond the line's free ones; 0 on lines that let any number in free."""
        if isinstance(assistants, bool) or not isinstance(assistants, int) or assistants < 0:
            raise ValueError("The number of assistants is a whole number from 0")
        if self.free_assistants is None:
            return 0
        return max(0, assistants - self.free_assistants)

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
        if self.personal_spend == STACKED_DECK:
            return 0, 0  # the target changes, not the dice (services read the sheet's LCK)
        raise ValueError(f"{self.title}: {self.personal_pool} is spent after the roll (T-04)")


DEFAULT = "seeds"

# GL-R1 (ruling): Achtung! Cthulhu's Fortune refill, which no source we could read states,
# is played as its sibling pulp line's (Conan): each player character's Fortune is set to
# 3 at each session start; the GM moves it by hand for anything else.
ACHTUNG_FORTUNE = 3

LINES: dict[str, GameLine] = {
    line.key: line
    for line in (
        GameLine("seeds", "2d20 (core rules)"),
        GameLine(
            "sta1",
            "Star Trek Adventures, 1st edition",
            bonus_damage=True,
            personal_spend=BONUS_ONE,
            challenge_dice="Challenge dice",
            complication_max=5,
            personal_cap=3,
            personal_start=1,
            refill_at=SESSION,
        ),
        GameLine(
            "sta2",
            "Star Trek Adventures, 2nd edition",
            bonus_damage=True,
            personal_spend=SET_ONE,
            complication_max=5,  # no Challenge dice: the 2nd edition's damage is fixed
            personal_cap=3,
            personal_start=1,
            refill_at=MISSION,
            free_assistants=1,  # GL-06: core p. 255
            # SC-03, ruling SC-R6: Momentum raises a test's Impact on an extended task
            # ("Goodbye Challenge Dice"), 1 a point as Dune's points (no price found).
            task_points=True,
        ),
        GameLine(
            "conan",
            "Robert E. Howard's Conan",
            bonus_damage=True,
            gm_pool="Doom",
            personal_pool="Fortune",
            personal_spend=BONUS_ONE,
            after_roll="",
            challenge_dice="Combat dice",
            # Each player character's Fortune resets to 3 at the session start (GL-02).
            personal_start=3,
            refill_at=SESSION,
        ),
        GameLine(
            "fallout",
            "Fallout",
            group_pool="Action Points",
            gm_pool="GM's AP",
            personal_pool="Luck",
            personal_spend=STACKED_DECK,
            after_roll=ONE_DIE,
            personal_attribute=("Luck", "LCK"),
            refill_at=QUEST,
            narrative_spends=(LUCK_OF_THE_DRAW, LUCKY_TIMING),
            challenge_dice="Combat dice",
        ),
        GameLine(
            "dune",
            "Dune: Adventures in the Imperium",
            personal_spend=SET_ONE,
            reroll_once=True,
            task_points=True,
            personal_cap=3,
            personal_start=1,
            refill_at=ADVENTURE,
        ),
        GameLine(
            "achtung",
            "Achtung! Cthulhu",
            bonus_damage=True,
            personal_pool="Fortune",
            personal_spend=SET_ONE,
            after_roll="",
            challenge_dice="Challenge dice",
            personal_start=ACHTUNG_FORTUNE,  # GL-R1
            refill_at=SESSION,
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
