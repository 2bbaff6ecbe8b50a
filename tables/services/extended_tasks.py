"""Extended tasks in the running scene (SC-03): the GM creates one, rollers link their
passed 2d20 tests to it, and each adds its effect as the line defines (rules.extended);
the task closes when complete. Every change is an ordered TableEvent that redraws the
scene board, where the task's card is.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules import extended
from rules.errors import RulesError
from rules.momentum import TASK_POINTS
from tables import events
from tables.models import (
    Asset,
    Campaign,
    D20Test,
    ExtendedTask,
    ExtendedTaskRoll,
    Skill,
    TableEvent,
)
from tables.policy.access import require_control
from tables.policy.challenge_rolls import challenge_roll_after
from tables.policy.play import current_scene
from tables.services.core import (
    ServiceError,
    append_event,
    lock_campaign,
    require_gm,
    require_playing,
)
from tables.words.said import said

NAME_MAX = 100


def _rules_task(task: ExtendedTask) -> extended.Task:
    return extended.Task(
        task.rule,
        task.work,
        task.magnitude,
        task.resistance,
        task.progress,
        task.breakthroughs,
        tuple(task.breakthrough_at),
    )


def _payload(task: ExtendedTask, summary: dict, **extra) -> dict:
    """`summary`: said()'s pair, worded again for each reader."""
    return {
        "task_id": task.pk,
        "name": task.name,
        "rule": task.rule,
        "work": task.work,
        "progress": task.progress,
        "magnitude": task.magnitude,
        "breakthroughs": task.breakthroughs,
        "closed": not task.is_open,
        **extra,
        **summary,
    }


def create_task(
    campaign_id: int,
    actor,
    name: str,
    *,
    work: int,
    magnitude: int = 0,
    resistance: int = 0,
    difficulty: int = 0,
    breakthrough_at=(),
) -> TableEvent:
    """The GM opens an extended task in the running scene, with its line's terms
    (STA 1e: Work, Magnitude, Resistance; STA 2e: progress track, Resistance and the
    track's breakthrough points). `difficulty`: what a test needs to feed it (SC-07:
    STA 1e's is its Magnitude)."""
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name or len(name) > NAME_MAX:
        raise ServiceError(_("Name the task (at most %(n)d characters).") % {"n": NAME_MAX})
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        if campaign.dice_system != Campaign.DiceSystem.D20:
            raise ServiceError(_("Extended tasks are for 2d20 campaigns."))
        scene = current_scene(campaign)
        if scene is None:
            raise ServiceError(_("Start a scene first: an extended task belongs to one."))
        shape, difficulty = _terms(
            campaign, work, magnitude, resistance, difficulty, breakthrough_at
        )
        task = ExtendedTask.objects.create(
            campaign=campaign,
            scene=scene,
            name=name,
            rule=shape.rule,
            work=shape.work,
            magnitude=shape.magnitude,
            resistance=shape.resistance,
            difficulty=difficulty,
            breakthrough_at=list(shape.breakthrough_at),
            created_by=actor,
        )
        return append_event(
            campaign,
            events.EXTENDED_TASK,
            actor,
            _payload(task, said(gettext_noop("Extended task: %(name)s."), name=name)),
        )


def _terms(campaign, work, magnitude, resistance, difficulty, breakthrough_at):
    """The task's shape under the line's rule (or the one the campaign borrows), and the
    Difficulty its tests need (SC-07); the rules refuse terms that make no sense."""
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty < 0:
        raise ServiceError(_("Difficulty is a whole number of 0 or more."))
    try:
        shape = extended.Task(
            extended.rule_of(campaign.game_line, borrowed=campaign.borrowed_extended_tasks),
            work,
            magnitude,
            resistance,
            breakthrough_at=tuple(sorted(set(breakthrough_at))),
        )
        return shape, extended.tests_difficulty(shape.rule, shape.magnitude, difficulty)
    except (RulesError, TypeError) as error:
        raise ServiceError(str(error)) from None


def _value(campaign: Campaign, task: ExtendedTask, test: D20Test, challenge_seq, asset) -> int:
    """What the roll brings: STA 1e and Conan, the total of the roller's Challenge (Combat)
    dice roll (an event of the log); STA 2e, the department rolled (the skill on the
    sheet) + the Momentum spent on Impact; Dune, the Quality of the roller's asset used
    and the Momentum spent on points."""
    if task.rule in extended.WORK_AND_MAGNITUDE:
        event = TableEvent.objects.filter(
            campaign=campaign, seq=challenge_seq, kind=events.CHALLENGE_ROLL.name
        ).first()
        if event is None or event.payload.get("roller_id") != test.character_id:
            raise ServiceError(_("Name the roller's own Challenge dice roll for the Work."))
        return event.payload["total"]
    if task.rule in extended.POINTS:  # Dune; the seeds (SC-R17)
        return _asset_quality(test, asset) + _task_points(test)
    skill = Skill.objects.filter(character=test.character, name=test.spec.get("skill")).first()
    return (skill.value if skill is not None else 0) + _task_points(test)  # SC-R6


def _asset_quality(test: D20Test, asset: str) -> int:
    """Dune: the roller's asset used, by its name on the sheet, adds its Quality (none: 0)."""
    asset = " ".join((asset or "").split()) if isinstance(asset, str) else ""
    if not asset:
        return 0
    asset = Asset.objects.filter(character=test.character, name__iexact=asset).first()
    if asset is None:
        raise ServiceError(_("That asset is not on %(who)s's sheet.") % {"who": test.character})
    return asset.quality


def _task_points(test: D20Test) -> int:
    """Dune's points, STA 2e's Impact: the test's Momentum spent on them (TASK_POINTS),
    not vetoed."""
    spends = (test.ledger or {}).get("spends") or ()
    return sum(
        s.get("points", 0)
        for s in spends
        if s.get("key") == TASK_POINTS.key and not s.get("refunded")
    )


def _open_task(campaign, task_id: int) -> ExtendedTask:
    task = ExtendedTask.objects.filter(campaign=campaign, pk=task_id).first()
    if task is None:
        raise ServiceError(_("That task is not in this campaign."))
    if not task.is_open:
        raise ServiceError(_("That task is complete."))
    return task


def _linkable_test(campaign, membership, test_id: int) -> D20Test:
    """A test of this campaign, the member's to link, shown to all, not yet linked."""
    test = D20Test.objects.select_related("character").filter(campaign=campaign, pk=test_id).first()
    if test is None:
        raise ServiceError(_("That test is not in this campaign."))
    require_control(membership, test.character, _("Only the roller links their test."))
    if test.hidden:
        raise ServiceError(_("Reveal the test before it counts toward a task."))
    if ExtendedTaskRoll.objects.filter(test=test).exists():
        raise ServiceError(_("That test already counts toward a task."))
    return test


def _advance(campaign, task: ExtendedTask, test: D20Test, challenge_seq, asset):
    """What the test brings (nothing if it failed) and the task's step forward; a test
    easier than the task asks is refused."""
    passed = bool((test.result or {}).get("passed"))
    try:
        extended.refuse_easier_test(task.difficulty, (test.result or {}).get("difficulty", 0))
        value = _value(campaign, task, test, challenge_seq, asset) if passed else 0
        step = extended.advance(_rules_task(task), passed, value, both=campaign.double_harm)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    return value, step


def _link_summary(task: ExtendedTask, test: D20Test, step) -> dict:
    values = {"who": test.character.name, "n": step.amount, "task": task.name}
    values["b"] = step.breakthroughs
    if task.is_open:
        return said(gettext_noop("%(who)s adds %(n)d to %(task)s (%(b)d breakthroughs)."), **values)
    sentence = gettext_noop(
        "%(who)s adds %(n)d to %(task)s (%(b)d breakthroughs). The task is complete."
    )
    return said(sentence, **values)


def link_roll(
    campaign_id: int,
    actor,
    task_id: int,
    test_id: int,
    *,
    challenge_seq: int | None = None,
    asset: str = "",
) -> TableEvent:
    """SC-03: the roller (or the GM) links a resolved test to an open task in the running
    scene; a passed one adds its effect (rules.extended.advance), a failed one nothing. A
    test feeds one task, once; the task closes when complete."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        task = _open_task(campaign, task_id)
        test = _linkable_test(campaign, membership, test_id)
        value, step = _advance(campaign, task, test, challenge_seq, asset)
        task.progress, task.breakthroughs = step.task.progress, step.task.breakthroughs
        if step.task.complete:
            task.closed_at = timezone.now()
        task.save(update_fields=["progress", "breakthroughs", "closed_at"])
        event = append_event(
            campaign,
            events.EXTENDED_TASK,
            actor,
            _payload(
                task,
                _link_summary(task, test, step),
                linked_test_id=test.pk,
                amount=step.amount,
                scored=step.breakthroughs,
            ),
        )
        ExtendedTaskRoll.objects.create(
            campaign=campaign,
            task=task,
            test=test,
            event=event,
            value=value,
            amount=step.amount,
            breakthroughs=step.breakthroughs,
        )
        return event


def _last_test(campaign, membership, user) -> D20Test | None:
    """The member's most recent test (by the log's order) that link_roll would take:
    resolved, shown to all, not yet linked, of a character they control. A GM controls
    everyone's, so theirs are the tests they rolled themselves."""
    tests = D20Test.objects.filter(campaign=campaign, state=D20Test.State.RESOLVED).exclude(
        secret=True, revealed=False
    )
    tests = tests.exclude(pk__in=ExtendedTaskRoll.objects.filter(campaign=campaign).values("test"))
    if membership.is_gm:
        tests = tests.filter(actor=user)
    else:
        tests = tests.filter(character__owner=user)
    return tests.order_by("-event__seq", "-pk").select_related("character", "event").first()


def challenge_after(campaign, test: D20Test) -> int | None:
    """The log number of the roller's latest Challenge dice roll after `test`, if any
    (policy.challenge_rolls, which an attack's card reads too)."""
    event = challenge_roll_after(test)
    return event.seq if event is not None else None


def link_test(campaign_id: int, actor, task_id: int, test_id: int, *, asset: str = ""):
    """A test's card: link_roll with the roller's Challenge dice roll made after the
    test (STA 1e, Conan, Achtung), so nobody types its log number."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        test = D20Test.objects.filter(campaign=campaign, pk=test_id).select_related("event")
        test = test.first()
        seq = challenge_after(campaign, test) if test is not None else None
        return link_roll(campaign_id, actor, task_id, test_id, challenge_seq=seq, asset=asset)


def link_last(campaign_id: int, actor, task_id: int, *, asset: str = "") -> TableEvent:
    """ "Count my last test": link_roll with the actor's most recent linkable test and,
    where the rule uses them, the roller's Challenge dice roll made after it."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_playing(campaign, actor)
        test = _last_test(campaign, membership, actor)
        if test is None:
            raise ServiceError(_("You have no test to count yet."))
        seq = challenge_after(campaign, test)
        return link_roll(campaign_id, actor, task_id, test.pk, challenge_seq=seq, asset=asset)
