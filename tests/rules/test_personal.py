"""Personal Momentum: PM-01 … PM-13."""

import pytest

from rules.errors import RulesError
from rules.ledger import MOMENTUM, NotEnoughInPool
from rules.personal import (
    AdvantageSource,
    AssistOffer,
    AssistRefused,
    PersonalMomentum,
    PersonalMomentumError,
    advantage_cost,
    gain_momentum,
    settle_roll_momentum,
    start_session,
    suffer_trauma,
)

CHAR = AdvantageSource.CHARACTERISTIC
BOON = AdvantageSource.BOON
EDGE = AdvantageSource.SITUATIONAL


def ash(value):
    return PersonalMomentum(value, "Ash")


def bo(value):
    return PersonalMomentum(value, "Bo")


def assist(value=3, **kw):
    """Bo's Assist, accepted by the GM and agreed to by Bo's player (PM-08)."""
    return AssistOffer(bo(value), **{"gm_accepted": True, "helper_agreed": True, **kw})


# --- PM-01 … PM-04 ------------------------------------------------------------


def test_pm_01_session_starts_at_three():
    for before in (0, 2, 6):
        pool, entries = start_session(ash(before))
        assert pool.value == 3
        assert sum(e.delta for e in entries) == 3 - before
    assert "PM-01" in start_session(ash(6))[1][0].reason
    assert start_session(ash(3)) == (ash(3), ())


def test_pm_02_disadvantage_gains_one_after_the_roll():
    out = settle_roll_momentum(ash(2), disadvantage=True)
    assert out.disadvantage and not out.advantage
    assert out.gain_after_roll == 1
    assert out.roller.value == 3
    assert out.payment_entries == ()
    (entry,) = out.gain_entries
    assert (entry.pool, entry.holder, entry.delta) == (MOMENTUM, "Ash", 1)
    assert "PM-02" in entry.reason


def test_pm_03_trauma_gains_one_per_point():
    pool, entries = suffer_trauma(ash(1), 3)
    assert pool.value == 4
    assert entries[0].delta == 3 and "3 trauma points" in entries[0].reason
    assert suffer_trauma(ash(1), 0) == (ash(1), ())
    with pytest.raises(PersonalMomentumError):
        suffer_trauma(ash(1), -1)


def test_pm_04_momentum_caps_at_six_and_the_loss_is_logged():
    pool, entries = suffer_trauma(ash(5), 3)
    assert pool.value == 6
    (entry,) = entries
    assert (entry.delta, entry.lost) == (1, 2)
    assert "2 lost" in entry.reason and "PM-04" in entry.reason
    out = settle_roll_momentum(ash(6), disadvantage=True)
    assert out.roller.value == 6 and out.gain_entries[0].lost == 1
    with pytest.raises(RulesError, match="at most 6"):
        ash(7)


# --- PM-05 … PM-07 ------------------------------------------------------------


@pytest.mark.parametrize(("source", "cost"), [(CHAR, 2), (BOON, 1), (EDGE, 1)])
def test_pm_05_advantage_costs_by_source(source, cost):
    out = settle_roll_momentum(ash(3), advantage_sources=[source])
    assert out.advantage
    assert (out.paid, out.paid_by) == (cost, "Ash")
    assert out.roller.value == 3 - cost
    assert out.payment_entries[0].delta == -cost
    assert "PM-05" in out.payment_entries[0].reason


def test_pm_06_several_sources_give_one_advantage_at_the_cheapest_cost():
    assert advantage_cost([CHAR, BOON]) == (BOON, 1)
    assert advantage_cost(["characteristic"]) == (CHAR, 2)
    assert advantage_cost([]) == (None, 0)
    out = settle_roll_momentum(ash(3), advantage_sources=[CHAR, BOON, EDGE])
    assert out.advantage and out.paid == 1
    with pytest.raises(PersonalMomentumError, match="Unknown source"):
        advantage_cost(["luck"])


def test_pm_07_without_enough_momentum_the_roll_is_normal():
    out = settle_roll_momentum(ash(1), advantage_sources=[CHAR])
    assert not out.advantage and not out.disadvantage
    assert out.paid == 0 and out.entries == ()
    assert out.roller.value == 1
    assert "PM-07" in out.advantage_refused and "costs 2" in out.advantage_refused


# --- PM-08 … PM-10 ------------------------------------------------------------


def test_pm_08_assist_helper_pays_one_roller_pays_nothing():
    out = settle_roll_momentum(ash(0), assists=[assist(2)])
    assert out.advantage and out.assisted
    assert (out.paid, out.paid_by) == (1, "Bo")
    assert out.roller.value == 0
    assert out.helper.value == 1
    (entry,) = out.entries
    assert (entry.holder, entry.delta) == ("Bo", -1)
    assert "PM-08" in entry.reason


def test_pm_08_assist_funds_a_source_the_roller_cannot_afford():
    out = settle_roll_momentum(ash(1), advantage_sources=[CHAR], assists=[assist(1)])
    assert out.advantage and out.paid_by == "Bo" and out.roller.value == 1


def test_pm_08_assist_needs_gm_acceptance():
    with pytest.raises(AssistRefused, match="GM has to accept"):
        settle_roll_momentum(ash(0), assists=[AssistOffer(bo(3))])


def test_pm_08_one_assist_per_roll():
    with pytest.raises(AssistRefused, match="one Assist per roll"):
        settle_roll_momentum(ash(0), assists=[assist(), AssistOffer(PersonalMomentum(3, "Cy"))])


def test_pm_08_no_assist_on_top_of_advantage_the_roller_pays():
    """The Assist does not stack: one Advantage, paid by the roller; the helper pays
    nothing, yet helped (RS-01: may spend Resolve)."""
    out = settle_roll_momentum(ash(3), advantage_sources=[BOON], assists=[assist()])
    assert out.advantage and out.paid_by == "Ash" and out.paid == 1
    assert not out.assisted and out.assist_landed
    assert out.helper.value == 3 and [e.holder for e in out.entries] == ["Ash"]


def test_pm_06_an_accepted_assist_is_the_cheapest_source_beside_a_characteristic():
    """PM-06 with PM-08: a characteristic (2 for the roller) and an accepted Assist (1,
    from the helper) give one Advantage at the cheapest cost: the helper's 1; the roller
    pays nothing. (Seeds: "you pay only the cheapest cost among them".)"""
    out = settle_roll_momentum(ash(3), advantage_sources=[CHAR], assists=[assist()])
    assert out.advantage and out.assisted
    assert (out.paid, out.paid_by, out.advantage_cost) == (1, "Bo", 1)
    assert out.roller.value == 3 and out.helper.value == 2
    assert [e.holder for e in out.entries] == ["Bo"] and not out.advantage_refused


def test_pm_06_an_assist_that_does_not_land_leaves_the_characteristic_to_the_roller():
    """PM-10: help whose test failed is no source, so the roller pays the 2 (PM-05)."""
    failed = assist(test_called=True, test_passed=False)
    out = settle_roll_momentum(ash(3), advantage_sources=[CHAR], assists=[failed])
    assert out.advantage and not out.assisted and (out.paid, out.paid_by) == (2, "Ash")


def test_pm_08_helper_must_be_another_character_with_momentum():
    with pytest.raises(AssistRefused, match="another character"):
        settle_roll_momentum(ash(0), assists=[AssistOffer(ash(3), gm_accepted=True)])
    with pytest.raises(AssistRefused, match="no Momentum"):
        settle_roll_momentum(ash(0), assists=[assist(0)])


def test_pm_09_assist_in_structured_time_uses_the_helpers_action():
    calm = settle_roll_momentum(ash(0), assists=[assist()])
    fight = settle_roll_momentum(ash(0), assists=[assist(structured_time=True)])
    assert not calm.assist_uses_action
    assert fight.assist_uses_action


def test_pm_10_uncertain_help_spends_only_if_the_helpers_test_succeeds():
    failed = settle_roll_momentum(ash(0), assists=[assist(test_called=True, test_passed=False)])
    assert failed.assist_failed and not failed.advantage
    assert failed.entries == () and failed.helper.value == 3
    landed = settle_roll_momentum(ash(0), assists=[assist(test_called=True, test_passed=True)])
    assert landed.advantage and landed.helper.value == 2
    with pytest.raises(AssistRefused, match="roll it first"):
        settle_roll_momentum(ash(0), assists=[assist(test_called=True)])


# --- PM-11, PM-12 -------------------------------------------------------------


def test_pm_11_advantage_and_disadvantage_cancel_nothing_spent_nothing_gained():
    out = settle_roll_momentum(ash(3), advantage_sources=[CHAR], disadvantage=True)
    assert out.cancelled
    assert not out.advantage and not out.disadvantage
    assert out.entries == () and out.roller.value == 3
    # Cancellation comes before Momentum: even an unaffordable source cancels.
    broke = settle_roll_momentum(ash(0), advantage_sources=[CHAR], disadvantage=True)
    assert broke.cancelled and broke.entries == ()
    helped = settle_roll_momentum(ash(0), disadvantage=True, assists=[assist()])
    assert helped.cancelled and helped.helper.value == 3 and helped.entries == ()


def test_pm_12_character_creation_spends_and_gains_nothing():
    adv = settle_roll_momentum(ash(0), advantage_sources=[CHAR], creation=True)
    assert adv.advantage and adv.entries == () and adv.roller.value == 0
    dis = settle_roll_momentum(ash(3), disadvantage=True, creation=True)
    assert dis.disadvantage and dis.gain_after_roll == 0 and dis.entries == ()
    assert suffer_trauma(ash(3), 2, creation=True) == (ash(3), ())
    both = settle_roll_momentum(ash(3), advantage_sources=[BOON], disadvantage=True, creation=True)
    assert both.cancelled
    with pytest.raises(AssistRefused, match="character creation"):
        settle_roll_momentum(ash(0), assists=[assist()], creation=True)


# --- PM-13 -------------------------------------------------------------------


def test_pm_13_every_change_is_logged_with_its_reason():
    pool = ash(3)
    entries = []
    pool, e = start_session(ash(5))
    entries += e
    out = settle_roll_momentum(pool, advantage_sources=[CHAR])
    entries += out.entries
    pool, e = suffer_trauma(out.roller, 1)
    entries += e
    pool, e = gain_momentum(pool, 1, "GM award")
    entries += e
    assert all(e.reason and e.holder == "Ash" and e.pool == MOMENTUM for e in entries)
    assert sum(e.delta for e in entries) == pool.value - 5
    assert [e.after for e in entries] == [3, 1, 2, 3]


def test_pm_13_a_refused_spend_changes_nothing():
    pool = ash(1)
    with pytest.raises(NotEnoughInPool, match="Ash's Momentum holds 1"):
        pool.spend(2, "Advantage")
    assert pool.value == 1
