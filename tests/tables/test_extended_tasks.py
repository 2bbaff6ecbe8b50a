"""Extended tasks in the running scene (SC-03): created by the GM, fed by linked 2d20
tests with fixed dice, closed when complete; every refusal changes nothing."""

import pytest
from django.core.exceptions import PermissionDenied

from rules.dice import FixedDice
from tables.models import ExtendedTask, ExtendedTaskRoll, TableEvent
from tables.services import d20 as services_d20
from tables.services import extended_tasks, sessions
from tables.services import game_lines as services_lines
from tables.services.core import ServiceError

pytestmark = pytest.mark.django_db


def snapshot(campaign):
    return (
        list(TableEvent.objects.filter(campaign=campaign).values_list("seq", "kind")),
        list(ExtendedTask.objects.values_list("progress", "breakthroughs", "closed_at")),
        ExtendedTaskRoll.objects.count(),
    )


def line(campaign, key, gm):
    campaign.game_line = key
    campaign.save(update_fields=["game_line"])
    sessions.start_scene(campaign.pk, gm, "Engineering")
    return campaign


def test_roll(campaign, actor, character, faces, difficulty=1):
    request = services_d20.D20TestRequest(
        attribute="Power", skill="Communicate", difficulty=difficulty
    )
    return services_d20.roll_d20_test(
        campaign.pk, actor, character.pk, request, rng=FixedDice(faces)
    )


test_roll.__test__ = False  # a helper, not a test


def challenge(campaign, actor, character, faces):
    return services_lines.roll_challenge_dice(
        campaign.pk, actor, len(faces), character_id=character.pk, rng=FixedDice(faces)
    )


def task_of(event):
    return ExtendedTask.objects.get(pk=event.payload["task_id"])


def test_sc_03_sta1_work_and_breakthroughs_from_challenge_dice_close_the_task(
    d20_campaign, gm, player, kara
):
    """STA 1e "Extended Tasks": Work = Challenge dice total - Resistance; a Breakthrough at
    5+ in one roll and when the Work track fills; complete at Magnitude Breakthroughs."""
    c = line(d20_campaign, "sta1", gm)
    made = extended_tasks.create_task(c.pk, gm, "Realign the deflector", work=7, magnitude=2)
    task = task_of(made)
    assert made.kind == "extended_task" and made.payload["progress"] == 0
    # Faces 2, 2, 1, Effect (1) = 6 Work, no Resistance: 5+, a Breakthrough.
    first = test_roll(c, player, kara, [3, 4], difficulty=2)  # SC-07: at the Magnitude
    dice = challenge(c, player, kara, [2, 2, 1, 5])
    event = extended_tasks.link_roll(c.pk, player, task.pk, first.pk, challenge_seq=dice.seq)
    assert (event.payload["amount"], event.payload["scored"]) == (6, 1)
    assert "complete" not in event.payload["summary"]
    task.refresh_from_db()
    assert (task.progress, task.breakthroughs, task.is_open) == (6, 1, True)
    # A failed test adds nothing, but counts as linked.
    failed = test_roll(c, player, kara, [19, 20], difficulty=2)
    event = extended_tasks.link_roll(c.pk, player, task.pk, failed.pk)
    assert (event.payload["amount"], event.payload["scored"]) == (0, 0)
    # 2 Work fills the 7 track (1 fits): the second Breakthrough completes the task.
    second = test_roll(c, player, kara, [2, 9], difficulty=2)
    dice = challenge(c, player, kara, [2, 3])
    event = extended_tasks.link_roll(c.pk, player, task.pk, second.pk, challenge_seq=dice.seq)
    assert (event.payload["amount"], event.payload["scored"]) == (1, 1)
    assert event.payload["closed"] is True
    # The log says the task is done, in the line's one entry for it.
    assert event.payload["summary"].endswith(" The task is complete.")
    task.refresh_from_db()
    assert (task.progress, task.breakthroughs, task.is_open) == (7, 2, False)
    third = test_roll(c, player, kara, [2, 9])
    before = snapshot(c)
    with pytest.raises(ServiceError, match="complete"):
        extended_tasks.link_roll(c.pk, player, task.pk, third.pk, challenge_seq=dice.seq)
    assert snapshot(c) == before


def test_sc_07_sta1_magnitude_is_the_tests_difficulty(d20_campaign, gm, player, kara):
    """SC-07, STA Dev Blog 005 (STA 1e "Extended Tasks"): the Magnitude is also the
    Difficulty of the tests; a Magnitude 2 task stores Difficulty 2 and a test passed at
    Difficulty 1 does not feed it (refused, nothing changes); one at 2 does."""
    c = line(d20_campaign, "sta1", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Scan", work=7, magnitude=2))
    assert task.difficulty == 2
    easy = test_roll(c, player, kara, [3, 4], difficulty=1)
    dice = challenge(c, player, kara, [2, 2, 1, 5])
    before = snapshot(c)
    with pytest.raises(ServiceError, match="Difficulty 2 or more"):
        extended_tasks.link_roll(c.pk, player, task.pk, easy.pk, challenge_seq=dice.seq)
    assert snapshot(c) == before
    hard = test_roll(c, player, kara, [3, 4], difficulty=2)
    event = extended_tasks.link_roll(c.pk, player, task.pk, hard.pk, challenge_seq=dice.seq)
    assert event.payload["amount"] == 6


def test_sc_07_sta1_a_difficulty_other_than_the_magnitude_is_refused(d20_campaign, gm):
    """SC-07, STA Dev Blog 005: the GM may leave the Difficulty at 0 (it becomes the
    Magnitude) or set it to the Magnitude; another is refused and nothing changes."""
    c = line(d20_campaign, "sta1", gm)
    before = snapshot(c)
    with pytest.raises(ServiceError, match="at its Magnitude"):
        extended_tasks.create_task(c.pk, gm, "Scan", work=7, magnitude=2, difficulty=1)
    assert snapshot(c) == before
    made = extended_tasks.create_task(c.pk, gm, "Scan", work=7, magnitude=3, difficulty=3)
    assert task_of(made).difficulty == 3


def test_sc_07_other_lines_keep_the_gms_difficulty(d20_campaign, gm, player, kara):
    """SC-07 is STA 1e's (STA Dev Blog 005); an STA 2e task keeps the GM's Difficulty (0:
    any test), and a set one refuses an easier test just the same."""
    c = line(d20_campaign, "sta2", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Scan", work=6, difficulty=2))
    assert task.difficulty == 2
    easy = test_roll(c, player, kara, [3, 4], difficulty=1)
    with pytest.raises(ServiceError, match="Difficulty 2 or more"):
        extended_tasks.link_roll(c.pk, player, task.pk, easy.pk)


def test_sc_03_sta2_impact_is_the_department_minus_resistance_and_closes_when_full(
    d20_campaign, gm, player, kara
):
    """STA 2e ("Goodbye Challenge Dice"): Impact = the department (Communicate 6) -
    Resistance 2 = 4 a success; the breakthrough point at 4 counts; full at 8: complete."""
    c = line(d20_campaign, "sta2", gm)
    made = extended_tasks.create_task(
        c.pk, gm, "Negotiate", work=8, resistance=2, breakthrough_at=[4]
    )
    task = task_of(made)
    first = extended_tasks.link_roll(c.pk, player, task.pk, test_roll(c, player, kara, [3, 4]).pk)
    assert (first.payload["amount"], first.payload["scored"], first.payload["closed"]) == (
        4,
        1,
        False,
    )
    second = extended_tasks.link_roll(c.pk, player, task.pk, test_roll(c, player, kara, [5, 6]).pk)
    assert (second.payload["progress"], second.payload["closed"]) == (8, True)


def test_sc_r6_sta2_momentum_spent_on_the_test_raises_its_impact(d20_campaign, gm, player, kara):
    """SC-03, ruling SC-R6 (STA 2e, "Goodbye Challenge Dice": Impact is the department
    plus the Momentum spent on it; 1 a point): Communicate 6 + 2 Momentum - Resistance 2
    = 6; a vetoed point adds nothing (MO-12)."""
    c = line(d20_campaign, "sta2", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Negotiate", work=10, resistance=2))
    test = test_roll(c, player, kara, [1, 1])  # 4 successes: 3 Momentum
    for _ in range(3):
        services_d20.spend_momentum(c.pk, player, test.pk, "task_points", from_pool=0)
    services_d20.veto_spend(c.pk, gm, test.pk, 2, "Not that way")
    linked = extended_tasks.link_roll(c.pk, player, task.pk, test.pk)
    assert (linked.payload["amount"], linked.payload["progress"]) == (6, 6)


def test_sc_03_refusals_change_nothing(d20_campaign, gm, player, player2, observer, kara, marcus):
    c = line(d20_campaign, "sta1", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Scan", work=5, magnitude=1))
    test = test_roll(c, player, kara, [3, 4])
    dice = challenge(c, player, kara, [2])
    before = snapshot(c)
    with pytest.raises(PermissionDenied):
        extended_tasks.link_roll(c.pk, player2, task.pk, test.pk, challenge_seq=dice.seq)
    with pytest.raises(PermissionDenied):
        extended_tasks.link_roll(c.pk, observer, task.pk, test.pk, challenge_seq=dice.seq)
    with pytest.raises(PermissionDenied):
        extended_tasks.create_task(c.pk, player, "Mine", work=5, magnitude=1)
    with pytest.raises(ServiceError, match="own Challenge dice"):
        extended_tasks.link_roll(c.pk, player, task.pk, test.pk, challenge_seq=999)
    with pytest.raises(ServiceError, match="Magnitude"):
        extended_tasks.create_task(c.pk, gm, "Bad", work=5, magnitude=0)
    with pytest.raises(ServiceError, match="not in this campaign"):
        extended_tasks.link_roll(c.pk, player, task.pk + 100, test.pk, challenge_seq=dice.seq)
    assert snapshot(c) == before
    extended_tasks.link_roll(c.pk, player, task.pk, test.pk, challenge_seq=dice.seq)
    before = snapshot(c)
    with pytest.raises(ServiceError, match="already counts"):
        extended_tasks.link_roll(c.pk, player, task.pk, test.pk, challenge_seq=dice.seq)
    assert snapshot(c) == before


@pytest.mark.parametrize("key", ["fallout"])
def test_sc_03_lines_without_a_modelled_rule_refuse_a_task(d20_campaign, gm, key):
    c = line(d20_campaign, key, gm)
    before = snapshot(c)
    with pytest.raises(ServiceError, match="not supported"):
        extended_tasks.create_task(c.pk, gm, "Climb the tower", work=5, magnitude=1)
    assert snapshot(c) == before


def test_sc_03_a_task_needs_a_running_scene(d20_campaign, gm):
    before = snapshot(d20_campaign)
    with pytest.raises(ServiceError, match="Start a scene"):
        extended_tasks.create_task(d20_campaign.pk, gm, "Scan", work=5, magnitude=1)
    assert snapshot(d20_campaign) == before


def test_sc_03_dune_two_points_a_pass_plus_the_assets_quality_and_momentum(
    d20_campaign, gm, player, kara
):
    """Dune: Adventures in the Imperium, "Extended Tasks" (core p. 159) and "Use an Asset"
    (p. 166): a passed test scores 2 points, plus the Quality of the asset used, plus 1 per
    Momentum spent on it; complete when the points reach the requirement (here 8)."""
    c = line(d20_campaign, "dune", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Outwit the Baron's agent", work=8))
    # Kara's Signet ring is Quality 1: 2 + 1 = 3.
    first = extended_tasks.link_roll(
        c.pk, player, task.pk, test_roll(c, player, kara, [3, 4]).pk, asset="signet RING"
    )
    assert (first.payload["amount"], first.payload["progress"]) == (3, 3)
    # A failed test scores nothing.
    failed = test_roll(c, player, kara, [19, 20], difficulty=2)
    assert extended_tasks.link_roll(c.pk, player, task.pk, failed.pk).payload["amount"] == 0
    # 2 + 2 Momentum (1 point each; a third vetoed, MO-12) = 4: 7 of 8.
    test = test_roll(c, player, kara, [1, 1])  # 4 successes: 3 Momentum
    for _ in range(3):
        services_d20.spend_momentum(c.pk, player, test.pk, "task_points", from_pool=0)
    services_d20.veto_spend(c.pk, gm, test.pk, 2, "Not that way")
    third = extended_tasks.link_roll(c.pk, player, task.pk, test.pk)
    assert (third.payload["amount"], third.payload["progress"], third.payload["closed"]) == (
        4,
        7,
        False,
    )
    # A plain pass's 2 points: 1 fits, and the task is complete.
    last = extended_tasks.link_roll(c.pk, player, task.pk, test_roll(c, player, kara, [3, 4]).pk)
    assert (last.payload["amount"], last.payload["closed"]) == (1, True)
    assert last.payload["breakthroughs"] == 0  # Dune counts no breakthroughs


def test_sc_03_dune_an_asset_not_on_the_rollers_sheet_is_refused(d20_campaign, gm, player, kara):
    c = line(d20_campaign, "dune", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Cross the Funeral Plain", work=6))
    test = test_roll(c, player, kara, [3, 4])
    before = snapshot(c)
    with pytest.raises(ServiceError, match="not on Kara's sheet"):
        extended_tasks.link_roll(c.pk, player, task.pk, test.pk, asset="Crysknife")
    assert snapshot(c) == before


def test_sc_03_r7_conan_reads_as_sta1_with_combat_dice(d20_campaign, gm, player, kara):
    """Ruling SC-R7: Conan's tasks follow the 2d20 model STA 1e prints (Work from the
    Combat dice less Resistance, a Breakthrough at 5+ in one roll or when the track fills,
    complete at Magnitude): Combat dice 2, 2, 1, Effect - Resistance 1 = 5 Work, a
    Breakthrough, Magnitude 1: complete."""
    c = line(d20_campaign, "conan", gm)
    task = task_of(
        extended_tasks.create_task(c.pk, gm, "Break the gate", work=10, magnitude=1, resistance=1)
    )
    test = test_roll(c, player, kara, [3, 4])
    dice = challenge(c, player, kara, [2, 2, 1, 6])
    event = extended_tasks.link_roll(c.pk, player, task.pk, test.pk, challenge_seq=dice.seq)
    assert (event.payload["amount"], event.payload["scored"], event.payload["closed"]) == (
        5,
        1,
        True,
    )


def resolved(campaign, actor, character, faces=(3, 4)):
    test = test_roll(campaign, actor, character, list(faces))
    services_d20.resolve_test(campaign.pk, actor, test.pk)
    test.refresh_from_db()
    return test


def other_pc(campaign, owner):
    from tables.models import Character

    zed = Character.objects.create(campaign=campaign, owner=owner, name="Zed")
    zed.attributes.create(name="Power", value=7)
    zed.skills.create(name="Communicate", value=6)
    return zed


def test_link_last_counts_the_latest_test_it_may_and_the_challenge_roll_after_it(
    d20_campaign, gm, player, player2, kara
):
    """ "Count my last test": the player's most recent resolved, shown, unlinked test,
    with Kara's latest Challenge dice roll logged after it; a newer open test, a hidden
    one, another player's and another roller's dice are passed over."""
    c = line(d20_campaign, "sta1", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Scan", work=30, magnitude=1))
    zed = other_pc(c, player2)
    older = resolved(c, player, kara)
    challenge(c, player, kara, [1])  # before the latest test: not its dice
    latest = resolved(c, player, kara)
    challenge(c, player, kara, [2])
    dice = challenge(c, player, kara, [2, 1])  # Kara's latest after it: 3 Work
    challenge(c, player2, zed, [2, 2, 2])
    resolved(c, player2, zed)  # another player's
    hidden = resolved(c, player, kara)
    type(hidden).objects.filter(pk=hidden.pk).update(secret=True)  # hidden from players
    test_roll(c, player, kara, [3, 4])  # still open
    event = extended_tasks.link_last(c.pk, player, task.pk)
    assert (event.payload["linked_test_id"], event.payload["amount"]) == (latest.pk, 3)
    assert ExtendedTaskRoll.objects.get(test=latest).value == dice.payload["total"]
    # That one is linked now: the next is the older test (its dice: the latest after it).
    event = extended_tasks.link_last(c.pk, player, task.pk)
    assert event.payload["linked_test_id"] == older.pk
    before = snapshot(c)
    with pytest.raises(ServiceError, match="You have no test to count yet."):
        extended_tasks.link_last(c.pk, player, task.pk)
    assert snapshot(c) == before
    resolved(c, player, kara)  # no Challenge dice after it: those before are not its
    before = snapshot(c)
    with pytest.raises(ServiceError, match="own Challenge dice"):
        extended_tasks.link_last(c.pk, player, task.pk)
    assert snapshot(c) == before


def test_link_last_refuses_with_no_test_and_for_watchers(
    d20_campaign, gm, player, player2, observer, kara
):
    """None of one's own to count: a clear message, nothing changes; a GM's last test is
    one they rolled (a player's is not theirs to pick); observers never link."""
    c = line(d20_campaign, "sta2", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Negotiate", work=20))
    resolved(c, player, kara)
    before = snapshot(c)
    for who in (player2, gm):
        with pytest.raises(ServiceError, match="You have no test to count yet."):
            extended_tasks.link_last(c.pk, who, task.pk)
    with pytest.raises(PermissionDenied):
        extended_tasks.link_last(c.pk, observer, task.pk)
    assert snapshot(c) == before
    with pytest.raises(ServiceError, match="not in this campaign"):
        extended_tasks.link_last(c.pk, player, task.pk + 100)
    assert snapshot(c) == before
    assert extended_tasks.link_last(c.pk, player, task.pk).payload["amount"] == 6


def test_link_test_finds_the_challenge_roll_and_only_the_roller_may(
    d20_campaign, gm, player, player2, kara
):
    """A test card's button: the roller's Challenge dice roll after the test counts
    without its number; another player is refused and nothing changes."""
    c = line(d20_campaign, "sta1", gm)
    task = task_of(extended_tasks.create_task(c.pk, gm, "Scan", work=30, magnitude=1))
    test = resolved(c, player, kara)
    challenge(c, player, kara, [2, 2])
    before = snapshot(c)
    with pytest.raises(PermissionDenied):
        extended_tasks.link_test(c.pk, player2, task.pk, test.pk)
    assert snapshot(c) == before
    assert extended_tasks.link_test(c.pk, player, task.pk, test.pk).payload["amount"] == 4
