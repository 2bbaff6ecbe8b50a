"""Extended tasks (SC-03): each linked roll's effect toward the task, as its line defines.

- STA 1st edition ("Extended Tasks", Core Rulebook; Modiphius, STA Dev Blog 005): the
  task is a Stress track with injuries. Its Work track is the Stress track, its
  Magnitude the Breakthroughs needed (and the tests' Difficulty), its Resistance the
  armour. A successful test deals its Challenge dice total minus Resistance as Work; a
  Breakthrough is scored by 5+ Work in one roll, and by a roll that fills the Work track
  or adds Work to a full one (the injury rule, rules.harm FIVE_OR_EMPTY; ruling SC-R1:
  both from one roll count twice). The task is complete at Magnitude Breakthroughs.
- STA 2nd edition (Modiphius, "Goodbye Challenge Dice"): a successful test marks Impact
  on the progress track: the department used (+ Momentum spent on it), minus
  Resistance, at least 1. Breakthroughs are points on the track set by the GM; each one
  passed counts. The task is complete when the track is full.

- Dune: Adventures in the Imperium ("Extended Tasks", core rulebook p. 159; "Use an
  Asset", p. 166): the GM sets the requirement; each passed test scores 2 points, plus
  the Quality of the asset used (1 or more), plus 1 per Momentum spent to raise it; the
  task is complete when the points reach the requirement. No breakthroughs. (Points a
  complication takes away are the GM's to record: not modelled.)
- Conan (ruling SC-R7): its core rulebook gives no extended-task track of its own beyond
  the 2d20 model STA 1st edition prints; a Conan task is read as STA 1e's, with Combat
  dice for the Work and Wounds' rule for the Breakthroughs (5+ in one roll, or the track
  filled).

- Achtung! Cthulhu (ruling SC-R16): no extended-task rule of its own in what the table
  could read; as Conan's, it is read as STA 1e's (its Challenge dice for the Work, its
  Injuries' rule for the Breakthroughs), without STA 1e's Magnitude-as-Difficulty (SC-07
  is STA's dev blog).
- The seeds' 2d20 (ruling SC-R17): the seeds print no extended task and no Challenge
  dice, so a task is read as Dune's (2 points a passed test, plus the Quality of the
  asset used), which needs only what the seeds have.

The borrowed rules (SC-R7, SC-R16, SC-R17) are a campaign setting (`borrowed` below);
with it off, and always for Fallout, `rule_of` refuses, so no task is created with a
rule the GM did not choose.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.errors import gettext_noop

from .errors import RulesError
from .harm import FIVE_OR_EMPTY, MAX_TRACK, challenge_hit

STA1 = "sta1"
STA2 = "sta2"
CONAN = "conan"
DUNE = "dune"
ACHTUNG = "achtung"
SEEDS = "seeds"
RULES = (STA1, STA2, CONAN, DUNE, ACHTUNG, SEEDS)
# Lines whose tasks borrow a sibling line's rule (SC-R7, SC-R16, SC-R17): a setting.
BORROWED = (CONAN, ACHTUNG, SEEDS)
# Rules whose Work is a damage track with Breakthroughs as injuries (STA 1e; Conan, SC-R7;
# Achtung! Cthulhu, SC-R16).
WORK_AND_MAGNITUDE = (STA1, CONAN, ACHTUNG)
# Rules scoring points toward a requirement (Dune; the seeds, SC-R17).
POINTS = (DUNE, SEEDS)
DUNE_POINTS = 2  # Dune: a passed test's points before the asset's Quality and Momentum


class InvalidTask(RulesError):
    """An extended task or a roll toward it described with impossible values."""


# SC-07: lines whose tasks' Magnitude is also the Difficulty of the tests that feed them
# (STA 1e; Modiphius, STA Dev Blog 005: "the Magnitude … is also the Difficulty").
MAGNITUDE_IS_DIFFICULTY = (STA1,)


def tests_difficulty(rule: str, magnitude: int, difficulty: int) -> int:
    """SC-07: the Difficulty a test needs to feed a task. STA 1e: the Magnitude (a GM's
    other Difficulty is refused, not silently changed); other lines: the GM's, 0 for any."""
    if rule not in MAGNITUDE_IS_DIFFICULTY:
        return difficulty
    if difficulty not in (0, magnitude):
        raise InvalidTask(
            gettext_noop(
                "This task's tests are at its Magnitude: leave the Difficulty at 0 or set "
                "it to %(magnitude)s."
            ),
            magnitude=magnitude,
        )
    return magnitude


def refuse_easier_test(task_difficulty: int, test_difficulty: int) -> None:
    """SC-07: a test below the task's Difficulty does not feed it."""
    if test_difficulty < task_difficulty:
        raise InvalidTask(
            gettext_noop(
                "Only a test at Difficulty %(needed)s or more feeds this task (this one "
                "was at %(was)s)."
            ),
            needed=task_difficulty,
            was=test_difficulty,
        )


def rule_of(line_key: str, *, borrowed: bool = True) -> str:
    """The extended-task rule a line's tasks follow; `borrowed` off (the campaign's
    setting) refuses the lines whose rule is borrowed (SC-R7, SC-R16, SC-R17)."""
    if line_key not in RULES or (line_key in BORROWED and not borrowed):
        raise InvalidTask(gettext_noop("This game line's extended tasks are not supported yet."))
    return line_key


def offered(line_key: str, *, borrowed: bool = True) -> bool:
    """Whether the GM is offered a new extended task on this line (the same test)."""
    return line_key in RULES and (borrowed or line_key not in BORROWED)


def _count(value, what: str, low: int = 0, high: int = MAX_TRACK) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidTask(
            gettext_noop("%(what)s must be a whole number from %(low)s to %(high)s."),
            what=what,
            low=low,
            high=high,
        )
    return value


@dataclass(frozen=True)
class Task:
    """A task's shape and where it stands. `breakthrough_at` (STA 2e): track positions."""

    rule: str
    work: int
    magnitude: int = 0
    resistance: int = 0
    progress: int = 0
    breakthroughs: int = 0
    breakthrough_at: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        rule_of(self.rule)
        _count(self.work, "Work", 1)
        _count(self.resistance, "Resistance")
        _count(self.progress, "Progress", 0, self.work)
        _count(self.breakthroughs, "Breakthroughs")
        if self.rule in WORK_AND_MAGNITUDE:
            _count(self.magnitude, "Magnitude", 1)
        for point in self.breakthrough_at:
            _count(point, "A breakthrough's place on the track", 1, self.work)

    @property
    def complete(self) -> bool:
        if self.rule in WORK_AND_MAGNITUDE:
            return self.breakthroughs >= self.magnitude
        return self.progress >= self.work


@dataclass(frozen=True)
class Progress:
    """One roll's effect: Work/Impact marked, Breakthroughs scored, the task after it."""

    amount: int
    breakthroughs: int
    task: Task


def advance(task: Task, succeeded: bool, value: int, *, both: bool = True) -> Progress:
    """SC-03: a linked roll's effect. `value` is the Challenge (Combat) dice total (STA 1e,
    Conan), the Impact before Resistance (STA 2e: department + Momentum), or the extra
    points (Dune: the asset's Quality + Momentum spent, over the 2 every pass scores). A
    failed test adds nothing; a complete task takes no more rolls. `both`: ruling SC-R1
    (a roll of 5+ that fills the track scores two Breakthroughs)."""
    _count(value, "The roll's value")
    if task.complete:
        raise InvalidTask(gettext_noop("The task is already complete."))
    if not succeeded:
        return Progress(0, 0, task)
    if task.rule in WORK_AND_MAGNITUDE:
        dealt = max(0, value - task.resistance)
        hit = challenge_hit(FIVE_OR_EMPTY, task.progress, task.work, dealt, both=both)
        amount, scored, after = hit.step.delta, hit.harms, hit.step.after
    elif task.rule in POINTS:
        after = min(task.work, task.progress + DUNE_POINTS + value)
        amount, scored = after - task.progress, 0
    else:
        impact = max(1, value - task.resistance)
        after = min(task.work, task.progress + impact)
        amount = after - task.progress
        scored = sum(1 for point in task.breakthrough_at if task.progress < point <= after)
    moved = Task(
        task.rule,
        task.work,
        task.magnitude,
        task.resistance,
        after,
        task.breakthroughs + scored,
        task.breakthrough_at,
    )
    return Progress(amount, scored, moved)


MAX_LOOKAHEAD = 10  # the card's row of chances: within 1 … this many more tests


def finish_chances(
    task: Task,
    pass_chance: Fraction,
    values: dict[int, Fraction],
    tests: int,
    *,
    both: bool = True,
) -> tuple[Fraction, ...]:
    """SC-03: the exact chance that `task` is complete within 1, 2 … `tests` more tests,
    each passing with `pass_chance` and, when it passes, bringing each value of `values`
    (advance's `value`: a Challenge dice total, an Impact, Dune's extra points) with its
    chance. Every path of tests is `advance` itself, so the chances follow the rules."""
    _count(tests, "The number of tests", 1, MAX_LOOKAHEAD)
    if task.complete:
        return (Fraction(1),) * tests
    standing: dict[Task, Fraction] = {task: Fraction(1)}
    done, chances = Fraction(0), []
    for _ in range(tests):
        after: dict[Task, Fraction] = {}
        for state, p in standing.items():
            after[state] = after.get(state, Fraction(0)) + p * (1 - pass_chance)
            for value, q in values.items():
                moved = advance(state, True, value, both=both).task
                if moved.complete:
                    done += p * pass_chance * q
                else:
                    after[moved] = after.get(moved, Fraction(0)) + p * pass_chance * q
        standing = {state: p for state, p in after.items() if p}
        chances.append(done)
    return tuple(chances)
