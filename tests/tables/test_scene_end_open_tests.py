"""A 2d20 test left open across a scene's end (MO-04, MO-06, MO-07): the scene's end
closes it as "Done" would, before the scene's loss, so neither the loss nor the cap is
escaped by leaving a test unspent."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from tables import events
from tables.models import Campaign, Contest, D20Test, TableEvent
from tables.services import d20 as services_d20
from tables.services import sessions
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db


def _roll(campaign, who, character, faces, **kw):
    return services_d20.roll_d20_test(
        campaign.pk,
        who,
        character.pk,
        services_d20.D20TestRequest(attribute="Power", skill="Communicate", difficulty=1, **kw),
        rng=FixedDice(faces),
    )


def test_mo_04_mo_07_an_open_test_is_saved_up_to_the_cap_before_the_scene_loses_1(
    d20_campaign, gm, player, kara
):
    """MO-04, MO-06, MO-07: pool 5, a test with 3 unspent Momentum left open. The scene's
    end saves 1 (the pool is full at 6), loses 2 to the cap, then takes the scene's 1:
    the pool ends at 5, not at 4 with 3 still to save into it later."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(group_momentum=5)
    sessions.start_scene(d20_campaign.pk, gm, "The docks")
    record = _roll(d20_campaign, player, kara, [1, 1])  # 4 successes, Difficulty 1
    assert record.result["momentum"] == 3

    ended = sessions.end_scene(d20_campaign.pk, gm)

    d20_campaign.refresh_from_db()
    record.refresh_from_db()
    assert d20_campaign.group_momentum == 5
    assert record.state == D20Test.State.RESOLVED
    resolution = record.ledger["resolution"]
    assert (resolution["saved"], resolution["lost_overflow"]) == (1, 2)
    closed = TableEvent.objects.get(kind=events.D20_RESOLVED)
    assert closed.seq < ended.seq  # saved first, then the scene's loss
    assert closed.payload["summary"].startswith("The scene ends: Kara's open Momentum")
    assert [c["delta"] for c in ended.payload["changes"]] == [-1]
    with pytest.raises(ServiceError, match="already been resolved"):
        services_d20.resolve_test(d20_campaign.pk, player, record.pk)


def test_mo_07_a_test_already_done_is_left_alone(d20_campaign, gm, player, kara):
    """Only open tests are closed: one resolved by its player stays as it was."""
    record = _roll(d20_campaign, player, kara, [1, 5])  # 3 successes: 2 Momentum
    services_d20.resolve_test(d20_campaign.pk, player, record.pk)
    sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    assert d20_campaign.group_momentum == 1  # 2 saved, 1 lost at the scene's end
    assert TableEvent.objects.filter(kind=events.D20_RESOLVED).count() == 1


def test_mo_r1_a_secret_test_still_hidden_loses_what_the_players_would_see_saved(
    d20_campaign, gm, kara
):
    """MO-R1 (ruling), TB-03: a hidden test's Momentum cannot be saved to the group pool
    unseen, so at the scene's end it is lost; the closing is the GM's to read only."""
    sessions.start_scene(d20_campaign.pk, gm, "The vault")
    record = _roll(d20_campaign, gm, kara, [1, 1], secret=True)  # 3 Momentum
    sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    record.refresh_from_db()
    assert d20_campaign.group_momentum == 0 and record.state == D20Test.State.RESOLVED
    resolution = record.ledger["resolution"]
    assert (resolution["saved"], resolution["lost_unsaved"]) == (0, 3)
    closed = TableEvent.objects.get(kind=events.D20_RESOLVED)
    assert closed.audience == TableEvent.Audience.GM and not closed.changes.exists()


def test_mo_r1_a_hidden_npc_test_still_saves_into_hidden_threat(d20_campaign, gm, marcus):
    """MO-R1, CT-R1: Threat the players do not see may take a hidden test's Momentum."""
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    record = _roll(d20_campaign, gm, marcus, [1, 5], secret=True)  # 2 Momentum
    sessions.end_scene(d20_campaign.pk, gm)
    d20_campaign.refresh_from_db()
    record.refresh_from_db()
    assert not d20_campaign.threat_visible
    assert d20_campaign.threat == 2 and record.ledger["resolution"]["saved"] == 2


def test_ct_04_mo_07_a_contest_answered_and_left_open_ends_with_the_scene(
    d20_campaign, gm, player, kara, marcus
):
    """CT-03, MO-04, MO-07: closing the active test at the scene's end ends its contest,
    as "Done" would; the opposer's own roll (no Momentum) is not touched."""
    from tables.models import Contest

    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=6)
    contest = services_d20.contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([5, 20]),
    )  # fmt: skip
    assert contest.difficulty == 1
    answer = services_d20.roll_d20_test(
        d20_campaign.pk,
        player,
        kara.pk,
        services_d20.D20TestRequest("Power", "Communicate", contest_id=contest.pk),
        rng=FixedDice([1, 5]),
    )  # 3 successes against 1: 2 Momentum
    sessions.end_scene(d20_campaign.pk, gm)
    contest.refresh_from_db()
    answer.refresh_from_db()
    d20_campaign.refresh_from_db()
    assert contest.state == Contest.State.RESOLVED and contest.active_won
    assert answer.state == D20Test.State.RESOLVED
    assert d20_campaign.group_momentum == 1  # 2 saved, then the scene's 1
    assert TableEvent.objects.filter(kind=events.CONTEST_RESOLVED).count() == 1


def _contest(campaign, gm, marcus, kara):
    marcus.attributes.create(name="Power", value=7)
    marcus.skills.create(name="Communicate", value=5)
    return services_d20.contest_opposer_roll(
        campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate",
        rng=FixedDice([1, 2]),
    )  # fmt: skip


def test_ct_r2_a_contest_still_waiting_for_its_roll_is_called_off_with_the_scene(
    d20_campaign, gm, player, kara, marcus
):
    """CT-R2 (ruling, docs/rules.md): the scene it was played in is over, so the
    contest Kara never answered does not wait into the next one."""
    sessions.start_scene(d20_campaign.pk, gm, "The docks")
    contest = _contest(d20_campaign, gm, marcus, kara)

    ended = sessions.end_scene(d20_campaign.pk, gm)

    contest.refresh_from_db()
    assert contest.state == Contest.State.CANCELLED
    called_off = TableEvent.objects.get(kind=events.CONTEST_CANCELLED)
    assert called_off.seq < ended.seq
    assert called_off.payload["summary"] == (
        "The scene ends: the contest between Marcus and Kara is called off (CT-R2)."
    )
    with pytest.raises(ServiceError):
        _roll(d20_campaign, player, kara, [1, 2], contest_id=contest.pk)


def test_ct_r2_setting_a_contest_still_waiting_is_won_by_the_opposer_with_the_scene(
    d20_campaign, gm, player, kara, marcus
):
    """CT-R2 (ruling, setting `contest_at_scene_end`, docs/rules.md): set to "the opposer
    wins", the contest Kara never answered ends as one she did not win (CT-01: the
    active character must beat the opposer), in the log before the scene's end."""
    Campaign.objects.filter(pk=d20_campaign.pk).update(
        contest_at_scene_end=Campaign.ContestAtSceneEnd.OPPOSER_WINS
    )
    sessions.start_scene(d20_campaign.pk, gm, "The docks")
    contest = _contest(d20_campaign, gm, marcus, kara)

    ended = sessions.end_scene(d20_campaign.pk, gm)

    contest.refresh_from_db()
    assert (contest.state, contest.active_won) == (Contest.State.RESOLVED, False)
    won = TableEvent.objects.get(kind=events.CONTEST_FORFEITED)
    assert won.seq < ended.seq
    assert won.payload["summary"] == (
        "The scene ends before Kara answers: Marcus wins the contest (CT-R2)."
    )
    assert not TableEvent.objects.filter(kind=events.CONTEST_CANCELLED).exists()
    with pytest.raises(ServiceError):
        _roll(d20_campaign, player, kara, [1, 2], contest_id=contest.pk)


def test_ct_r2_a_contest_whose_active_character_rolled_ends_with_that_test(
    d20_campaign, gm, player, kara, marcus
):
    """CT-R2 with MO-04: Kara answered, so the scene's end closes her test and the
    contest with it; nothing is called off."""
    contest = _contest(d20_campaign, gm, marcus, kara)
    _roll(d20_campaign, player, kara, [1, 1], contest_id=contest.pk)

    sessions.end_scene(d20_campaign.pk, gm)

    contest.refresh_from_db()
    assert contest.state == Contest.State.RESOLVED
    assert not TableEvent.objects.filter(kind=events.CONTEST_CANCELLED).exists()
