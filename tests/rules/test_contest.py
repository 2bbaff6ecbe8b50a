"""Contests: CT-01 … CT-05, CT-R1, with the seed's Kara versus Marcus."""

import pytest

from rules.contest import active_test, contest_difficulty, opposing_test, resolve_contest
from rules.d20 import Assistant, InvalidTest, RerollRefused, determination_reroll, score_test
from rules.ledger import GM, PLAYER, THREAT
from rules.momentum import (
    CREATE_ASSET,
    CREATE_TRAIT,
    OBTAIN_INFORMATION,
    GroupPool,
    SpendRefused,
    Threat,
    buy_d20s,
)


def marcus_roll(faces=(1, 7, 10)):
    """Marcus (target 12, focus 2) with one die bought with Threat: 2 + 1 + 1 = 4."""
    return score_test(opposing_test(12, focus=2, bought_dice=len(faces) - 2), faces)


def test_kara_versus_marcus():
    """CT-01, CT-02, CT-03, CT-05, T-03, T-04, MO-08, seed 003."""
    threat = Threat(4)
    # The GM spends some Threat on Marcus's dice, and he scores 4 successes.
    npc = buy_d20s(1, actor=GM, threat=threat)
    threat = npc.threat
    marcus = marcus_roll()
    assert marcus.successes == 4
    assert contest_difficulty(marcus) == 4  # CT-01
    # A hostile environment raises Kara's Difficulty to 5 (CT-02, active factor).
    # She gives the GM enough Threat to buy 2 dice (MO-08): Threat +3.
    bought = buy_d20s(2, actor=PLAYER, threat=threat)
    assert bought.to_threat == 3 and bought.threat.value == threat.value + 3
    test = active_test(
        marcus,
        target=11,
        focus=2,
        factors=(1,),
        bought_dice=2,
        assistants=(Assistant("Anna", 9),),
    )
    assert test.final_difficulty == 5
    assert test.dice == 4
    # A pool of 4 scoring 2; Anna's single die fails.
    first = score_test(test, (5, 18, 9, 14), [(15,)])
    assert (first.own_successes, first.assistance_successes) == (2, 0)
    assert not first.passed
    # Anna's die is not part of Kara's pool: Determination cannot reroll it (T-04).
    with pytest.raises(RerollRefused, match="Assistance dice"):
        determination_reroll(
            first, [4], determination=1, holder="Kara", gm_permits=True, faces=(1,)
        )
    # She rerolls the two dice without successes; one shows a 1: 2 + 3 = 5.
    spent = determination_reroll(
        first, [1, 3], determination=1, holder="Kara", gm_permits=True, faces=(1, 8)
    )
    second = spent.result
    assert second.faces == (5, 1, 9, 8)
    assert second.assistance_faces == ((15,),)
    assert second.successes == 5
    outcome = resolve_contest(marcus, second, opposer_name="Marcus", active_name="Kara")
    assert outcome.active_won
    assert outcome.difficulty == 5
    assert outcome.active_momentum == 0
    assert outcome.opposer_momentum == 0
    assert outcome.opposer_ledger is None
    assert outcome.active_ledger.roll_momentum == 0


def test_ct_01_opposer_successes_become_the_difficulty():
    marcus = marcus_roll((1, 2, 3))  # focus 2: 2 + 2 + 1
    assert contest_difficulty(marcus) == 5
    test = active_test(marcus, target=10)
    assert test.difficulty == 5 and test.opposed


def test_ct_01_contest_difficulty_may_exceed_five():
    marcus = score_test(opposing_test(12, focus=4, bought_dice=2), (1, 2, 3, 4))
    assert marcus.successes == 8
    assert active_test(marcus, target=10).final_difficulty == 8


def test_ct_02_hindering_factors_lower_the_difficulty_not_below_zero():
    marcus = marcus_roll()
    assert contest_difficulty(marcus, hindrances=1) == 3
    assert contest_difficulty(marcus, hindrances=9) == 0
    with pytest.raises(InvalidTest):
        contest_difficulty(marcus, hindrances=-1)


def test_ct_02_active_factors_move_the_final_difficulty():
    marcus = marcus_roll()
    assert active_test(marcus, target=10, hindrances=1, factors=(1, 1)).final_difficulty == 5
    assert active_test(marcus, target=10, factors=(-1,)).final_difficulty == 3


def test_ct_02_active_test_must_match_the_opposer():
    marcus = marcus_roll()
    wrong = score_test(active_test(marcus, target=10, hindrances=1), (1, 1))
    with pytest.raises(InvalidTest, match="Difficulty 4"):
        resolve_contest(marcus, wrong)  # hindrance forgotten at resolution


def test_ct_03_success_generates_momentum_as_normal():
    marcus = marcus_roll((1, 14, 15))  # 2 successes
    kara = score_test(active_test(marcus, target=11, focus=2), (1, 2))  # 4 successes
    outcome = resolve_contest(marcus, kara, active_name="Kara")
    assert outcome.active_won and outcome.active_momentum == 2
    spent = outcome.active_ledger.spend(OBTAIN_INFORMATION)
    res = spent.ledger.resolve(GroupPool(0))
    assert res.pool.value == 1


def test_ct_04_failed_contest_gives_the_opposer_momentum_per_success_short():
    """CT-04, seed 003: Difficulty 4, two successes: the opposer gets 2 Momentum."""
    marcus = marcus_roll()
    kara = score_test(active_test(marcus, target=11), (5, 9))
    outcome = resolve_contest(marcus, kara, opposer_name="Marcus")
    assert not outcome.active_won
    assert outcome.opposer_momentum == 2
    assert outcome.active_ledger is None
    # ... and may spend it at once, as if they had succeeded.
    ledger = outcome.opposer_ledger
    assert ledger.passed and ledger.roll_momentum == 2 and ledger.holder == "Marcus"
    spent = ledger.spend(CREATE_TRAIT, note="Kara is rattled")
    assert spent.ledger.roll_momentum == 0


def test_ct_05_either_side_may_be_assisted_and_complications_are_reported_for_both():
    marcus_test = opposing_test(12, assistants=(Assistant("Guard", 10),))
    marcus = score_test(marcus_test, (5, 20), [(3,)])
    assert marcus.successes == 2 and marcus.complications == 1
    kara_test = active_test(marcus, target=11, assistants=(Assistant("Anna", 9),))
    kara = score_test(kara_test, (20, 1), [(20,)])
    outcome = resolve_contest(marcus, kara)
    assert outcome.active_won
    assert outcome.opposer_complications == 1
    assert outcome.active_complications == 2


def test_ct_r1_gm_characters_unspent_momentum_goes_to_threat():
    marcus = marcus_roll()
    kara = score_test(active_test(marcus, target=11), (15, 16))
    outcome = resolve_contest(marcus, kara, opposer_name="Marcus")
    assert outcome.opposer_momentum == 4
    spent = outcome.opposer_ledger.spend(OBTAIN_INFORMATION)
    res = spent.ledger.resolve(threat=Threat(2))
    assert res.threat.value == 5
    assert res.saved == 3
    (entry,) = res.entries
    assert entry.pool == THREAT and "CT-R1" in entry.reason


def test_ct_r1_ruling_off_loses_a_gm_characters_momentum():
    marcus = marcus_roll()
    kara = score_test(active_test(marcus, target=11), (15, 16))
    ledger = resolve_contest(marcus, kara).opposer_ledger
    res = ledger.resolve(threat=Threat(2), gm_momentum_to_threat=False)
    assert res.threat.value == 2
    assert res.lost_unsaved == 4 and res.entries == ()


def test_ct_r1_gm_character_cannot_use_the_players_pool():
    marcus = marcus_roll()
    kara = score_test(active_test(marcus, target=11), (9, 16))
    ledger = resolve_contest(marcus, kara).opposer_ledger
    assert ledger.roll_momentum == 3
    ledger = ledger.spend(CREATE_TRAIT).ledger
    with pytest.raises(SpendRefused, match="only 1"):
        ledger.spend(CREATE_ASSET, GroupPool(6))


def test_ct_04_a_player_character_opposer_saves_to_the_group_pool():
    marcus = marcus_roll()
    kara = score_test(active_test(marcus, target=11), (9, 16))
    outcome = resolve_contest(marcus, kara, opposer_is_gm_character=False)
    res = outcome.opposer_ledger.resolve(GroupPool(1))
    assert res.pool.value == 4
