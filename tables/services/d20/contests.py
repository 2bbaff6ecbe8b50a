"""2d20 contests (CT-01, CT-02, CT-05): the GM opens one with the opposer's roll, the
active character answers it with roll_d20_test(contest_id=…), or the GM calls it off.
Closing the active test (spends.resolve_test) ends it."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from rules.contest import contest_difficulty
from rules.d20 import roll_test
from tables import events
from tables.errors import refused_by_rules
from tables.models import Campaign, Character, Contest, D20Test, TableEvent
from tables.policy.d20_records import result_json
from tables.services.core import (
    Change,
    ServiceError,
    append_event,
    character_in,
    lock_campaign,
    require_gm,
)
from tables.services.d20.checks import require_d20
from tables.services.d20.pools import buy_dice
from tables.services.d20.sheet import D20TestRequest, build_spec
from tables.words.said import said, successes


def contest_opposer_roll(
    campaign_id: int,
    actor,
    opposer_id: int,
    active_id: int,
    *,
    attribute: str,
    skill: str,
    focus: str = "",
    bought_dice: int = 0,
    buy_from_momentum: int = 0,
    expected_momentum: int | None = None,
    assistants: Sequence = (),
    hindrances: int = 0,
    rng=None,
) -> Contest:
    """The GM opens a contest: the opposer rolls first (CT-01); their successes, less
    one per factor hindering them (not below 0), are the active character's
    Difficulty (CT-02). The opposer may buy dice (an NPC's with Threat, MO-08) and
    be assisted (CT-05). The active character then rolls with roll_d20_test(contest_id=…).
    """
    request = D20TestRequest(
        attribute, skill, focus, bought_dice=bought_dice, assistants=assistants
    )
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        membership = require_gm(campaign, actor)
        require_d20(campaign)
        opposer, active = _contest_sides(campaign, opposer_id, active_id, hindrances)
        # CT-01, CT-05: bought dice and assistants, no Difficulty.
        spec, test = build_spec(
            campaign, opposer, request, opposer=True, sees_hidden=membership.is_gm
        )
        pay = (bought_dice, buy_from_momentum, expected_momentum, len(spec["assistants"]))
        spec["paid"], changes = buy_dice(campaign, opposer, membership, *pay)  # MO-08, GL-06
        with refused_by_rules():
            result = roll_test(test, rng)
            difficulty = contest_difficulty(result, hindrances)  # CT-02
        contest = Contest.objects.create(
            campaign=campaign,
            opposer=opposer,
            active=active,
            actor=actor,
            hindrances=hindrances,
            difficulty=difficulty,
        )
        record = _opposer_record(contest, spec, result)
        record.event = _announce_contest(campaign, actor, contest, record, changes)
        record.save(update_fields=["event"])
    return contest


def _opposer_record(contest: Contest, spec: dict, result) -> D20Test:
    """The opposer's test, resolved as it is rolled (CT-01)."""
    return D20Test.objects.create(
        campaign=contest.campaign,
        character=contest.opposer,
        actor=contest.actor,
        role=D20Test.Role.OPPOSER,
        contest=contest,
        spec=spec,
        result=result_json(result, spec),
        state=D20Test.State.RESOLVED,
    )


def _contest_sides(
    campaign: Campaign, opposer_id, active_id, hindrances
) -> tuple[Character, Character]:
    """The opposer and the active character of a new contest, or why there can be none."""
    opposer = character_in(campaign, opposer_id)
    active = character_in(campaign, active_id)
    if opposer.pk == active.pk:
        raise ServiceError(gettext("A character cannot oppose themselves."))
    waiting = Contest.objects.filter(
        campaign=campaign, active=active, state=Contest.State.AWAITING
    ).first()
    if waiting is not None:
        raise ServiceError(
            gettext(
                "%(active)s already faces %(opposer)s in a contest; finish or call it off first."
            )
            % {"active": active.name, "opposer": waiting.opposer.name}
        )
    if isinstance(hindrances, bool) or not isinstance(hindrances, int) or hindrances < 0:
        raise ServiceError(gettext("Factors hindering the opposer must be 0 or more."))
    return opposer, active


def _announce_contest(
    campaign: Campaign, actor, contest: Contest, record: D20Test, changes: list[Change]
) -> TableEvent:
    """The event that opens the contest: the opposer's roll and the Difficulty it sets."""
    opposer, active, hindrances = contest.opposer, contest.active, contest.hindrances
    hindered = (
        gettext(", less %(n)s for factors against %(opposer)s")
        % {"n": hindrances, "opposer": opposer.name}
        if hindrances
        else ""
    )
    return append_event(
        campaign,
        events.CONTEST_OPENED,
        actor,
        {
            "test_id": record.pk,
            "character_id": opposer.pk,
            "character": opposer.name,
            "contest": contest_view(contest),
            "spec": record.spec,
            "result": record.result,
            **said(
                gettext_noop(
                    "%(opposer)s opposes %(active)s: %(successes)s%(hindered)s. %(active)s needs "
                    "Difficulty %(difficulty)s."
                ),
                opposer=opposer.name,
                active=active.name,
                successes=successes(record.result["successes"]),
                hindered=hindered,
                difficulty=contest.difficulty,
            ),
        },
        changes=changes,
    )


def cancel_contest(campaign_id: int, actor, contest_id: int) -> TableEvent:
    """The GM calls off a contest nobody has answered yet (no roll is undone)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign_id)
        require_gm(campaign, actor)
        contest = open_contest(campaign, contest_id)
        if contest.state != Contest.State.AWAITING:
            raise ServiceError(
                gettext("%(active)s has rolled: close their test instead.")
                % {"active": contest.active.name}
            )
        contest.state = Contest.State.CANCELLED
        contest.save(update_fields=["state"])
        return append_event(
            campaign,
            events.CONTEST_CANCELLED,
            actor,
            {
                "contest": contest_view(contest),
                **said(
                    gettext_noop("The contest between %(opposer)s and %(active)s is called off."),
                    opposer=contest.opposer.name,
                    active=contest.active.name,
                ),
            },
        )


def close_with_scene(campaign: Campaign, actor) -> list[TableEvent]:
    """CT-R2 (ruling): the scene ends, so a contest still waiting for the active
    character's roll ends too, one event each: called off, or won by the opposer, as the
    campaign's setting `contest_at_scene_end` says. One whose active character rolled
    ends with that test (closed with the scene, MO-04). `campaign` is locked by the
    caller (sessions.end_scene)."""
    waiting = campaign.contests.filter(state=Contest.State.AWAITING)
    settle = campaign.contest_at_scene_end == Campaign.ContestAtSceneEnd.OPPOSER_WINS
    ended = []
    for contest in waiting.select_related("opposer", "active").order_by("pk"):
        kind, summary = _opposer_wins(contest) if settle else _called_off(contest)
        payload = {"contest": contest_view(contest), **summary}
        ended.append(append_event(campaign, kind, actor, payload))
    return ended


def _called_off(contest: Contest) -> tuple[str, dict]:
    contest.state = Contest.State.CANCELLED
    contest.save(update_fields=["state"])
    return events.CONTEST_CANCELLED, said(
        gettext_noop(
            "The scene ends: the contest between %(opposer)s and %(active)s is called off (CT-R2)."
        ),
        opposer=contest.opposer.name,
        active=contest.active.name,
    )


def _opposer_wins(contest: Contest) -> tuple[str, dict]:
    """The active character never answered: they did not beat the opposer (CT-01)."""
    contest.state = Contest.State.RESOLVED
    contest.active_won = False
    contest.save(update_fields=["state", "active_won"])
    return events.CONTEST_FORFEITED, said(
        gettext_noop(
            "The scene ends before %(active)s answers: %(opposer)s wins the contest (CT-R2)."
        ),
        opposer=contest.opposer.name,
        active=contest.active.name,
    )


def open_contest(campaign: Campaign, contest_id) -> Contest:
    """A contest of this campaign still being played, else a ServiceError."""
    contest = (
        Contest.objects.select_related("opposer", "active")
        .filter(campaign=campaign, pk=contest_id)
        .first()
    )
    if contest is None:
        raise ServiceError(gettext("There is no such contest at this table."))
    if not contest.is_open:
        raise ServiceError(gettext("That contest is over."))
    return contest


def contest_view(contest: Contest) -> dict:
    """A contest as events carry it: both sides, the hindrances and the Difficulty."""
    return {
        "id": contest.pk,
        "opposer": contest.opposer.name,
        "opposer_id": contest.opposer_id,
        "active": contest.active.name,
        "active_id": contest.active_id,
        "hindrances": contest.hindrances,
        "difficulty": contest.difficulty,
        "state": contest.state,
    }
