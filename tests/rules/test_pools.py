"""rules.pools: every cap and floor, and the one computation of a pool change.

MO-06 group Momentum 0–6, PM-04 personal Momentum 0–6, MO-13 Threat uncapped,
RS-01 Resolve capped by the sheet, T-04 Determination uncapped, PM-01 the
session start value; MO-04 and PM-04: a gain past the cap is lost and reported.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import pools
from rules.ledger import LedgerEntry
from rules.momentum import GroupPool, Threat
from rules.personal import PersonalMomentum, start_session
from rules.pools import (
    CAPS,
    DETERMINATION,
    GROUP_MOMENTUM,
    GROUP_POOL_MAX,
    MOMENTUM,
    PERSONAL_MOMENTUM_MAX,
    RESOLVE,
    SESSION_START_MOMENTUM,
    THREAT,
    NotEnoughInPool,
    PoolOutOfBounds,
    cap_of,
    change,
)


def test_mo_06_group_momentum_fills_to_6_and_the_rest_is_lost():
    """MO-06, MO-04: 5 + 3 → 6, 1 applied, 2 lost to the cap."""
    step = change(GROUP_MOMENTUM, 5, 3)
    assert (step.before, step.after, step.delta, step.lost) == (5, 6, 1, 2)
    assert GROUP_POOL_MAX == 6


def test_pm_04_personal_momentum_caps_at_6():
    """PM-04: a character's Momentum never holds more than 6; the excess is reported."""
    step = change(MOMENTUM, 6, 2)
    assert (step.after, step.delta, step.lost) == (6, 0, 2)
    assert PERSONAL_MOMENTUM_MAX == 6


def test_pm_01_session_start_momentum_is_3():
    """PM-01: every character starts a session with 3."""
    assert SESSION_START_MOMENTUM == 3
    assert start_session(PersonalMomentum(6, "Ash"))[0].value == 3


def test_mo_13_threat_has_no_cap():
    """MO-13: Threat is the GM's pool; it grows without limit."""
    step = change(THREAT, 40, 100)
    assert (step.after, step.lost, step.cap) == (140, 0, None)


def test_rs_01_resolve_caps_at_the_characters_own_maximum():
    """RS-01: Resolve's cap is the sheet's resolve_max, so it must be given."""
    assert change(RESOLVE, 2, 5, own_cap=3).after == 3
    assert change(RESOLVE, 2, 5, own_cap=3).lost == 4
    with pytest.raises(ValueError, match="character's"):
        change(RESOLVE, 2, 1)


def test_t_04_determination_has_no_cap_but_cannot_go_below_0():
    """T-04: RULES.md caps Determination nowhere; a spend still needs a point."""
    assert change(DETERMINATION, 9, 3).after == 12
    with pytest.raises(NotEnoughInPool):
        change(DETERMINATION, 0, -1)


def test_a_spend_below_0_is_refused_and_says_how_much_was_there():
    with pytest.raises(NotEnoughInPool, match="holds 2; this needs 3") as refused:
        change(GROUP_MOMENTUM, 2, -3)
    assert (refused.value.available, refused.value.needed) == (2, 3)


def test_mo_07_a_loss_stops_at_0_instead_of_being_refused():
    """MO-07: the scene's end takes 1, not below 0; a loss, not a spend."""
    step = change(GROUP_MOMENTUM, 1, -3, stop_at_floor=True)
    assert (step.after, step.delta, step.lost) == (0, -1, 0)


def test_a_value_outside_the_bounds_is_refused():
    with pytest.raises(PoolOutOfBounds, match="at most 6"):
        pools.check_value(GROUP_MOMENTUM, GROUP_POOL_MAX + 1)
    with pytest.raises(PoolOutOfBounds, match="below 0"):
        pools.check_value(THREAT, -1)
    with pytest.raises(PoolOutOfBounds):
        change(MOMENTUM, 7, 0)


def test_an_unknown_pool_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown pool"):
        cap_of("luck")


@given(
    st.sampled_from(sorted(CAPS)),
    st.integers(0, 12),
    st.integers(-15, 15),
    st.integers(0, 12),
)
def test_mo_06_pm_04_every_change_stays_in_bounds_and_accounts_for_what_it_lost(
    pool, current, delta, own_cap
):
    """MO-06, PM-04, RS-01, MO-13: applied + lost = asked; the result is in bounds."""
    cap = cap_of(pool, own_cap)
    if cap is not None and current > cap:
        with pytest.raises(PoolOutOfBounds):
            change(pool, current, delta, own_cap=own_cap)
        return
    if current + delta < 0:
        with pytest.raises(NotEnoughInPool):
            change(pool, current, delta, own_cap=own_cap)
        return
    step = change(pool, current, delta, own_cap=own_cap)
    assert step.after == step.before + step.delta
    assert step.delta + step.lost == delta
    assert 0 <= step.after and (cap is None or step.after <= cap)
    assert step.lost >= 0 and (step.lost == 0 or step.after == cap)


def test_the_rules_pools_take_their_caps_from_rules_pools():
    """The Pool classes clamp where rules.pools says (MO-06, PM-04, MO-13)."""
    assert GroupPool().cap == GROUP_POOL_MAX
    assert PersonalMomentum().cap == PERSONAL_MOMENTUM_MAX
    assert Threat().cap is None
    pool, entry = GroupPool(GROUP_POOL_MAX - 1).gain(3, "saved")
    assert (pool.value, entry) == (
        GROUP_POOL_MAX,
        LedgerEntry(GROUP_MOMENTUM, None, 1, "saved", 2, GROUP_POOL_MAX),
    )
    assert entry.requested == 3
