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

Conan and Dune: not implemented (their books' terms are not modelled yet): `rule_of`
refuses them, so no task of theirs is created with a made-up rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import gettext_noop

from .errors import RulesError
from .harm import FIVE_OR_EMPTY, MAX_TRACK, challenge_hit

STA1 = "sta1"
STA2 = "sta2"
RULES = (STA1, STA2)


class InvalidTask(RulesError):
    """An extended task or a roll toward it described with impossible values."""


def rule_of(line_key: str) -> str:
    if line_key not in RULES:
        raise InvalidTask(gettext_noop("This game line's extended tasks are not supported yet."))
    return line_key


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
        if self.rule == STA1:
            _count(self.magnitude, "Magnitude", 1)
        for point in self.breakthrough_at:
            _count(point, "A breakthrough's place on the track", 1, self.work)

    @property
    def complete(self) -> bool:
        if self.rule == STA1:
            return self.breakthroughs >= self.magnitude
        return self.progress >= self.work


@dataclass(frozen=True)
class Progress:
    """One roll's effect: Work/Impact marked, Breakthroughs scored, the task after it."""

    amount: int
    breakthroughs: int
    task: Task


def advance(task: Task, succeeded: bool, value: int) -> Progress:
    """SC-03: a linked roll's effect. `value` is the Challenge dice total (STA 1e) or the
    Impact before Resistance (STA 2e: department + Momentum). A failed test adds nothing;
    a complete task takes no more rolls."""
    _count(value, "The roll's value")
    if task.complete:
        raise InvalidTask(gettext_noop("The task is already complete."))
    if not succeeded:
        return Progress(0, 0, task)
    if task.rule == STA1:
        dealt = max(0, value - task.resistance)
        hit = challenge_hit(FIVE_OR_EMPTY, task.progress, task.work, dealt)
        amount, scored, after = hit.step.delta, hit.harms, hit.step.after
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
