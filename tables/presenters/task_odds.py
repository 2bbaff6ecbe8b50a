"""An extended task's finishing odds (SC-03, issue 40): on its card, the exact chance it is
complete within 1, 2, 3 … more tests, if the acting character rolls their usual test.

The acting character: the one acting in the running conflict, else the last to link a
test to this task, else the last to roll in the campaign. Their usual test: the attribute
and skill they roll most (the latest such test's spec, at the task's Difficulty where the
GM set one). What a passed test brings is the line's (rules.extended.advance): STA 1e and
Conan, their usual Challenge (Combat) dice (the size of their latest roll of them); STA 2e,
the department's value on the sheet; Dune, the 2 points of a pass (no asset, no Momentum).

Only tests shown to everyone are read (never a secret one), so every audience is told the
same; rules.extended.finish_chances does the counting, exactly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from pydantic import ValidationError

from rules import challenge, extended
from rules.d20 import MAX_SET_DIFFICULTY, skill_odds
from rules.errors import RulesError
from tables import events
from tables.models import (
    Campaign,
    Character,
    D20Test,
    ExtendedTask,
    ExtendedTaskRoll,
    Participant,
    Skill,
    TableEvent,
)
from tables.policy.access import HIDDEN
from tables.policy.d20_records import SKILL_TEST

LOOKAHEAD = 5  # the card's row: within 1 … 5 more tests
USUAL_OF = 50  # the latest tests a character's usual one is read from


@dataclass(frozen=True)
class TaskOdds:
    character: str
    attribute: str
    skill: str
    chances: tuple[Fraction, ...]  # within 1, 2 … LOOKAHEAD more tests


def shape(task: ExtendedTask) -> extended.Task:
    return extended.Task(
        task.rule, task.work, task.magnitude, task.resistance, task.progress,
        task.breakthroughs, tuple(task.breakthrough_at),
    )  # fmt: skip


def task_odds(campaign: Campaign, tasks) -> dict[int, TaskOdds]:
    """{task id: its odds} for the open tasks whose acting character has a usual test."""
    found = {}
    for task in tasks:
        if not task.is_open:
            continue
        odds = _odds_of(campaign, task)
        if odds is not None:
            found[task.pk] = odds
    return found


def _odds_of(campaign: Campaign, task: ExtendedTask) -> TaskOdds | None:
    character = Character.objects.filter(pk=_acting(campaign, task)).first()
    usual = _usual(campaign, character, task) if character is not None else None
    values = _values(campaign, task, character, usual) if usual is not None else None
    if not values:
        return None
    test, spec = usual
    try:
        chances = extended.finish_chances(
            shape(task), skill_odds(test).pass_chance, values, LOOKAHEAD, both=campaign.double_harm
        )
    except RulesError:
        return None
    return TaskOdds(character.name, spec.get("attribute", ""), spec.get("skill", ""), chances)


def _acting(campaign: Campaign, task: ExtendedTask) -> int | None:
    acting = Participant.objects.filter(
        conflict__campaign=campaign, conflict__ended_at__isnull=True, acting=True
    ).values_list("character_id", flat=True)
    linked = ExtendedTaskRoll.objects.filter(task=task).order_by("-pk")
    rolled = D20Test.objects.filter(campaign=campaign).exclude(HIDDEN).order_by("-pk")
    for rows in (acting, linked.values_list("test__character_id", flat=True)):
        first = rows.first()
        if first is not None:
            return first
    return rolled.values_list("character_id", flat=True).first()


def _usual(campaign: Campaign, character: Character, task: ExtendedTask):
    """(SkillTest, spec) of the character's usual test, at the task's Difficulty."""
    specs = list(
        D20Test.objects.filter(campaign=campaign, character=character)
        .exclude(HIDDEN)
        .exclude(role=D20Test.Role.OPPOSER)
        .order_by("-pk")
        .values_list("spec", flat=True)[:USUAL_OF]
    )
    if not specs:
        return None
    pair = Counter((s.get("attribute"), s.get("skill")) for s in specs).most_common(1)[0][0]
    spec = next(s for s in specs if (s.get("attribute"), s.get("skill")) == pair)
    try:
        test = SKILL_TEST.validate_python(spec)
    except (ValidationError, ValueError):
        return None
    difficulty = task.difficulty or test.final_difficulty
    test = replace(
        test, difficulty=difficulty, factors=(), ones=0, extra_dice=0, bonus_momentum=0,
        opposed=difficulty > MAX_SET_DIFFICULTY,
    )  # fmt: skip
    return test, spec


def _values(campaign: Campaign, task: ExtendedTask, character, usual) -> dict[int, Fraction]:
    """What a passed test brings toward the task, by its chance (rules.extended.advance)."""
    if task.rule in extended.WORK_AND_MAGNITUDE:
        rolls = TableEvent.objects.filter(
            campaign=campaign,
            kind=events.CHALLENGE_ROLL.name,
            audience=TableEvent.Audience.ALL,
            payload__roller_id=character.pk,
        )
        last = rolls.order_by("-seq").values_list("payload", flat=True).first()
        return challenge.odds(last["dice"]).total if last else {}
    if task.rule in extended.POINTS:
        return {0: Fraction(1)}
    skill = Skill.objects.filter(character=character, name=usual[1].get("skill")).first()
    return {skill.value if skill is not None else 0: Fraction(1)}
