"""Group Momentum and Threat: MO-02 … MO-14."""

import pytest

from rules.d20 import SkillTest, score_test
from rules.errors import RulesError
from rules.ledger import GM, GROUP_MOMENTUM, PLAYER, THREAT, NotEnoughInPool, UnknownRole
from rules.momentum import (
    CREATE_ASSET,
    CREATE_TRAIT,
    MAKE_ASSET_PERMANENT,
    OBTAIN_INFORMATION,
    STANDARD_SPENDS,
    GroupPool,
    MomentumSpendLedger,
    SpendRefused,
    Threat,
    ThreatIsTheGMs,
    TooManyDice,
    buy_d20s,
    custom_spend,
    d20_purchase_cost,
    end_scene,
    spend_catalogue,
)
from rules.personal import PersonalMomentum


def ledger_for(momentum=0, bonus=0, restricted=None, **kw):
    return MomentumSpendLedger(
        roll_momentum=momentum, bonus_momentum=bonus, bonus_restricted_to=restricted, **kw
    )


# --- MO-02: one use at a time, from the roll or the group pool ---------------


def test_kara_obtain_information_spends_her_one_point():
    """MO-01, MO-02, MO-11, seed 000: 4 successes vs Difficulty 3 pays for one question."""
    result = score_test(SkillTest(target=11, difficulty=3, focus=2), (1, 2))
    ledger = MomentumSpendLedger.for_result(result, holder="Kara")
    assert ledger.roll_momentum == 1
    pool = GroupPool(0)
    out = ledger.spend(OBTAIN_INFORMATION, pool, note="Is he here to kill someone?")
    assert out.spend.from_roll == 1
    assert out.ledger.roll_momentum == 0
    assert out.pool == pool and out.entries == ()
    # "If only she had another point of Momentum to ask another question..."
    with pytest.raises(NotEnoughInPool, match="holds 0"):
        out.ledger.spend(OBTAIN_INFORMATION, out.pool, note="Who is the target?")
    # She could still create a trait, were there 2 Momentum in the group pool.
    trait = out.ledger.spend(CREATE_TRAIT, GroupPool(2), note="Inquisitive")
    assert trait.pool.value == 0


def test_mo_02_spends_are_one_use_at_a_time():
    ledger = ledger_for(3)
    first = ledger.spend(OBTAIN_INFORMATION)
    second = first.ledger.spend(OBTAIN_INFORMATION)
    assert [s.points for s in second.ledger.spends] == [1, 1]
    assert second.ledger.roll_momentum == 1
    assert ledger.roll_momentum == 3  # nothing mutated


def test_mo_02_group_pool_pays_in_addition_to_the_roll():
    out = ledger_for(1).spend(CREATE_TRAIT, GroupPool(4))
    assert (out.spend.from_roll, out.spend.from_pool) == (1, 1)
    assert out.pool.value == 3
    (entry,) = out.entries
    assert (entry.pool, entry.delta, entry.after) == (GROUP_MOMENTUM, -1, 3)


def test_mo_02_group_pool_may_pay_instead_of_the_roll():
    out = ledger_for(3).spend(CREATE_TRAIT, GroupPool(4), from_pool=2)
    assert (out.spend.from_roll, out.spend.from_pool) == (0, 2)
    assert out.ledger.roll_momentum == 3
    assert out.pool.value == 2


def test_mo_02_cannot_overpay_or_underpay_from_the_pool():
    with pytest.raises(SpendRefused, match="no more"):
        ledger_for(3).spend(CREATE_TRAIT, GroupPool(4), from_pool=3)
    with pytest.raises(SpendRefused, match="only 0"):
        ledger_for(0).spend(CREATE_TRAIT, GroupPool(4), from_pool=1)


def test_mo_02_not_enough_momentum_is_refused_and_changes_nothing():
    ledger = ledger_for(1)
    with pytest.raises(SpendRefused, match="only 1"):
        ledger.spend(CREATE_TRAIT)
    with pytest.raises(NotEnoughInPool):
        ledger.spend(CREATE_TRAIT, GroupPool(0))
    assert ledger.roll_momentum == 1 and ledger.spends == ()


def test_mo_02_a_failed_test_has_nothing_to_improve():
    result = score_test(SkillTest(target=5, difficulty=2), (15, 16))
    ledger = MomentumSpendLedger.for_result(result)
    with pytest.raises(SpendRefused, match="failed"):
        ledger.spend(OBTAIN_INFORMATION, GroupPool(6))


# --- MO-03 ------------------------------------------------------------------


def test_mo_03_each_spend_once_per_test_unless_repeatable():
    ledger = ledger_for(6).spend(CREATE_TRAIT).ledger
    with pytest.raises(SpendRefused, match="only once per test"):
        ledger.spend(CREATE_TRAIT)
    assert not ledger.can_use(CREATE_TRAIT)
    assert ledger.can_use(OBTAIN_INFORMATION)
    for _ in range(3):
        ledger = ledger.spend(OBTAIN_INFORMATION).ledger
    assert ledger.roll_momentum == 1


# --- MO-04, MO-05 -----------------------------------------------------------


def test_mo_04_unspent_momentum_saves_to_the_group_pool():
    res = ledger_for(3, holder="Kara").resolve(GroupPool(2))
    assert res.pool.value == 5
    assert (res.saved, res.lost) == (3, 0)
    assert res.ledger.resolved and res.ledger.roll_momentum == 0
    (entry,) = res.entries
    assert (entry.pool, entry.delta, entry.lost) == (GROUP_MOMENTUM, 3, 0)
    assert "MO-04" in entry.reason


def test_mo_04_what_does_not_fit_is_lost_and_reported():
    res = ledger_for(4).resolve(GroupPool(4))
    assert res.pool.value == 6
    assert (res.saved, res.lost_overflow) == (2, 2)
    assert res.entries[0].lost == 2
    assert "2 lost (pool full)" in res.summary()


def test_mo_r1_a_resolution_that_may_not_save_loses_it_all():
    """MO-R1 (ruling): a secret test still hidden at its scene's end saves nothing where the
    players would see it; the ledger writes no line and the summary says it was lost."""
    res = ledger_for(3).resolve(GroupPool(2), save=False)
    assert res.pool.value == 2 and res.entries == ()
    assert (res.saved, res.lost_unsaved) == (0, 3) and res.ledger.resolved
    assert res.summary() == "3 lost"


def test_mo_04_a_resolved_test_cannot_spend_or_resolve_again():
    res = ledger_for(2).resolve(GroupPool(0))
    with pytest.raises(SpendRefused, match="resolved"):
        res.ledger.spend(OBTAIN_INFORMATION, res.pool)
    with pytest.raises(SpendRefused, match="resolved"):
        res.ledger.resolve(res.pool)


def test_mo_05_bonus_momentum_pays_first_and_is_never_saved():
    ledger = ledger_for(2, bonus=2)
    out = ledger.spend(OBTAIN_INFORMATION)
    assert (out.spend.from_bonus, out.spend.from_roll) == (1, 0)
    res = out.ledger.resolve(GroupPool(0))
    assert res.pool.value == 2
    assert (res.saved, res.lost_bonus) == (2, 1)
    assert "1 bonus Momentum lost" in res.summary()


def test_mo_05_restricted_bonus_momentum_only_pays_its_spends():
    ledger = ledger_for(1, bonus=2, restricted={OBTAIN_INFORMATION.key})
    assert ledger.available(CREATE_TRAIT) == 1
    with pytest.raises(SpendRefused, match="only 1"):
        ledger.spend(CREATE_TRAIT)
    out = ledger.spend(OBTAIN_INFORMATION)
    assert out.spend.from_bonus == 1


# --- MO-06, MO-07 -----------------------------------------------------------


def test_mo_06_group_pool_never_holds_more_than_six():
    with pytest.raises(RulesError, match="at most 6"):
        GroupPool(7)
    with pytest.raises(RulesError, match="below 0"):
        GroupPool(-1)
    pool, entry = GroupPool(5).gain(3, "saved")
    assert pool.value == 6
    assert (entry.delta, entry.lost) == (1, 2)


def test_mo_07_scene_end_takes_one():
    pool, entries = end_scene(GroupPool(4))
    assert pool.value == 3
    assert [e.delta for e in entries] == [-1]
    assert "Scene end" in entries[0].reason


def test_mo_07_scene_end_never_goes_below_zero():
    pool, entries = end_scene(GroupPool(0))
    assert pool.value == 0
    assert entries == ()


# --- MO-08 ------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "cost"), [(0, 0), (1, 1), (2, 3), (3, 6)])
def test_mo_08_purchase_cost_rises_one_per_die(dice, cost):
    assert d20_purchase_cost(dice) == cost


@pytest.mark.parametrize("dice", [4, -1])
def test_mo_08_at_most_three_dice(dice):
    with pytest.raises(TooManyDice):
        d20_purchase_cost(dice)


def test_mo_08_buy_dice_with_a_mix_of_momentum_and_threat():
    bought = buy_d20s(2, actor=PLAYER, threat=Threat(2), momentum=GroupPool(5), from_momentum=1)
    assert (bought.cost, bought.from_momentum, bought.to_threat) == (3, 1, 2)
    assert bought.momentum.value == 4
    assert bought.threat.value == 4
    assert {(e.pool, e.delta) for e in bought.entries} == {(GROUP_MOMENTUM, -1), (THREAT, 2)}


def test_mo_08_buy_dice_from_personal_momentum():
    bought = buy_d20s(
        1, actor=PLAYER, threat=Threat(0), momentum=PersonalMomentum(3, "Ash"), from_momentum=1
    )
    assert bought.momentum == PersonalMomentum(2, "Ash")
    assert bought.entries[0].holder == "Ash"


def test_mo_08_buying_refuses_what_cannot_be_paid():
    with pytest.raises(NotEnoughInPool):
        buy_d20s(3, actor=PLAYER, threat=Threat(0), momentum=GroupPool(1), from_momentum=2)
    with pytest.raises(SpendRefused, match="between 0 and 1"):
        buy_d20s(1, actor=PLAYER, threat=Threat(0), momentum=GroupPool(5), from_momentum=2)
    with pytest.raises(SpendRefused, match="which Momentum pool"):
        buy_d20s(1, actor=PLAYER, threat=Threat(0), from_momentum=1)


def test_mo_08_gm_buys_npc_dice_by_spending_threat():
    bought = buy_d20s(1, actor=GM, threat=Threat(3))
    assert (bought.threat.value, bought.threat_spent) == (2, 1)
    with pytest.raises(NotEnoughInPool):
        buy_d20s(3, actor=GM, threat=Threat(5))


# --- MO-09, MO-10, MO-11, MO-12 ---------------------------------------------


def test_mo_09_create_trait_costs_two():
    assert (CREATE_TRAIT.cost, CREATE_TRAIT.repeatable) == (2, False)
    out = ledger_for(2).spend(CREATE_TRAIT, note="Inquisitive")
    assert out.spend.points == 2 and out.spend.note == "Inquisitive"


def test_mo_10_create_asset_costs_two_and_two_more_makes_it_permanent():
    assert CREATE_ASSET.cost == 2 and MAKE_ASSET_PERMANENT.cost == 2
    out = ledger_for(2).spend(CREATE_ASSET, GroupPool(2))
    out = out.ledger.spend(MAKE_ASSET_PERMANENT, out.pool)
    assert out.pool.value == 0
    assert [s.kind.key for s in out.ledger.spends] == ["create_asset", "make_asset_permanent"]


def test_mo_11_obtain_information_one_per_question_repeatable():
    assert (OBTAIN_INFORMATION.cost, OBTAIN_INFORMATION.repeatable) == (1, True)


def test_mo_11_you_dont_know_refunds_the_point():
    out = ledger_for(1).spend(OBTAIN_INFORMATION, GroupPool(3), from_pool=1)
    refunded = out.ledger.refund_dont_know(0, out.pool, actor=GM)
    assert refunded.pool.value == 3
    assert refunded.spend.refunded
    assert "you don't know" in refunded.entries[0].reason
    out = ledger_for(1).spend(OBTAIN_INFORMATION)
    assert out.ledger.refund_dont_know(0, actor=GM).ledger.roll_momentum == 1


def test_mo_11_only_questions_are_refunded_that_way():
    out = ledger_for(2).spend(CREATE_TRAIT)
    with pytest.raises(SpendRefused, match="Obtain Information"):
        out.ledger.refund_dont_know(0, actor=GM)


def test_mo_12_gm_veto_refunds_the_spend():
    out = ledger_for(1, bonus=1).spend(CREATE_TRAIT, GroupPool(2), from_pool=0)
    out = out.ledger.spend(CREATE_ASSET, GroupPool(2), from_pool=2)
    vetoed = out.ledger.veto(0, out.pool, actor=GM, reason="makes no sense here")
    assert (vetoed.ledger.roll_momentum, vetoed.ledger.bonus_momentum) == (1, 1)
    assert vetoed.ledger.can_use(CREATE_TRAIT)  # a vetoed spend does not count as used
    assert vetoed.entries == ()
    vetoed = vetoed.ledger.veto(1, vetoed.pool, actor=GM)
    assert vetoed.pool.value == 2
    assert "MO-12" in vetoed.entries[0].reason
    with pytest.raises(SpendRefused, match="already refunded"):
        vetoed.ledger.veto(1, vetoed.pool, actor=GM)


def test_mo_11_a_question_paid_from_a_pool_filled_meanwhile_comes_back_to_the_test():
    """MO-11: "you don't know" gives the point back; the group pool is full again, so
    the point goes to the test's Momentum, spent again, never lost to the cap."""
    out = ledger_for(0).spend(OBTAIN_INFORMATION, GroupPool(3), from_pool=1)
    refunded = out.ledger.refund_dont_know(0, GroupPool(6), actor=GM)
    assert refunded.pool.value == 6 and refunded.entries == ()
    assert refunded.ledger.roll_momentum == 1 and refunded.spend.back_to_test == 1
    again = refunded.ledger.spend(OBTAIN_INFORMATION, refunded.pool)
    assert again.ledger.roll_momentum == 0 and again.spend.from_roll == 1


def test_mo_12_a_veto_into_a_pool_with_room_for_part_splits_the_refund():
    """MO-12 as MO-11: what fits goes back to the pool, the rest to the test."""
    out = ledger_for(0).spend(CREATE_ASSET, GroupPool(3), from_pool=2)
    vetoed = out.ledger.veto(0, GroupPool(5), actor=GM)
    assert vetoed.pool.value == 6 and [e.delta for e in vetoed.entries] == [1]
    assert vetoed.entries[0].lost == 0
    assert (vetoed.ledger.roll_momentum, vetoed.spend.back_to_test) == (1, 1)


def test_mo_12_only_the_gm_vetoes():
    out = ledger_for(2).spend(CREATE_TRAIT)
    with pytest.raises(SpendRefused, match="Only the GM"):
        out.ledger.veto(0, actor=PLAYER)
    with pytest.raises(SpendRefused, match="Only the GM"):
        ledger_for(1).spend(OBTAIN_INFORMATION).ledger.refund_dont_know(0, actor=PLAYER)
    with pytest.raises(SpendRefused, match="no such spend"):
        out.ledger.veto(5, actor=GM)


# --- MO-13 ------------------------------------------------------------------


def test_mo_13_players_add_to_threat():
    threat, entry = Threat(1).add(2, "Paid in Threat")
    assert threat.value == 3 and entry.delta == 2


def test_mo_13_player_cannot_spend_threat():
    with pytest.raises(ThreatIsTheGMs, match="Only the GM"):
        Threat(5).spend(1, "NPC dice", actor=PLAYER)


def test_mo_13_gm_spends_threat():
    threat, entry = Threat(5).spend(2, "NPC dice", actor=GM)
    assert threat.value == 3 and entry.delta == -2
    with pytest.raises(NotEnoughInPool):
        Threat(1).spend(2, "NPC dice", actor=GM)
    with pytest.raises(UnknownRole):
        Threat(1).spend(1, "x", actor="observer")


def test_mo_13_a_spend_may_be_paid_by_adding_to_threat():
    out = ledger_for(1).spend(CREATE_TRAIT, to_threat=1, threat=Threat(0))
    assert (out.spend.from_roll, out.spend.to_threat) == (1, 1)
    assert out.threat.value == 1
    vetoed = out.ledger.veto(0, actor=GM, threat=out.threat)
    assert vetoed.threat.value == 0


# --- MO-14 ------------------------------------------------------------------


def test_mo_14_gm_defines_custom_spends():
    disarm = custom_spend("Disarm", 2)
    rumours = custom_spend("Extra rumour", 1, repeatable=True)
    catalogue = spend_catalogue([disarm, rumours])
    assert set(catalogue) >= {k.key for k in STANDARD_SPENDS} | {disarm.key, rumours.key}
    ledger = ledger_for(5).spend(disarm).ledger
    with pytest.raises(SpendRefused, match="only once"):
        ledger.spend(disarm)
    ledger = ledger.spend(rumours).ledger.spend(rumours).ledger
    assert ledger.roll_momentum == 1


def test_mo_14_custom_spend_needs_a_name_and_a_cost():
    with pytest.raises(SpendRefused, match="name"):
        custom_spend("  ", 1)
    with pytest.raises(SpendRefused, match="at least 1"):
        custom_spend("Free lunch", 0)
    with pytest.raises(SpendRefused, match="already"):
        spend_catalogue([custom_spend("Disarm", 1), custom_spend("disarm", 2)])
