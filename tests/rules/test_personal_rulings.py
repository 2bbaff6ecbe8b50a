"""Issue 11's rulings in the rules engine: PM-08 consent, PM-10 with PM-11/PM-02, RS-01."""

import pytest

from rules.personal import AdvantageSource, AssistOffer, AssistRefused, PersonalMomentum
from rules.personal import settle_roll_momentum as settle

BOON = AdvantageSource.BOON


def ash(value):
    return PersonalMomentum(value, "Ash")


def bo_helps(value=3, **kw):
    """Bo's Assist, accepted by the GM and agreed to by Bo's player unless said otherwise."""
    return AssistOffer(PersonalMomentum(value, "Bo"), **{"gm_accepted": True,
                                                         "helper_agreed": True, **kw})  # fmt: skip


def test_pm_08_the_gms_acceptance_alone_spends_nothing_of_the_helpers():
    """The helper *may* pay: without their player's word the Assist is refused."""
    with pytest.raises(AssistRefused, match="Bo has not agreed"):
        settle(ash(0), assists=[bo_helps(helper_agreed=False)])
    out = settle(ash(0), assists=[bo_helps()])
    assert out.assisted and out.helper.value == 2


def test_pm_10_pm_11_pm_02_failed_help_leaves_the_disadvantage_and_its_gain():
    """The GM called a test for the helper and it failed: the help never landed, so it is
    no Advantage: nothing cancels, the Disadvantage stands and the roller gains 1."""
    out = settle(ash(2), disadvantage=True, assists=[bo_helps(test_called=True, test_passed=False)])
    assert out.disadvantage and not out.advantage and not out.cancelled
    assert out.gain_after_roll == 1 and out.roller.value == 3
    assert out.assist_failed and not out.assist_landed
    assert out.helper.value == 3
    assert [(e.holder, e.delta) for e in out.entries] == [("Ash", 1)]
    # A passed test is an Advantage: it cancels the Disadvantage, nothing spent or gained.
    passed = settle(
        ash(2), disadvantage=True, assists=[bo_helps(test_called=True, test_passed=True)]
    )
    assert passed.cancelled and passed.entries == () and passed.assist_landed


def test_rs_01_help_beside_the_rollers_own_advantage_lands_without_a_point():
    """PM-08: no stacking, so Bo pays nothing; RS-01: Bo's help still counts on the roll."""
    out = settle(ash(3), advantage_sources=[BOON], assists=[bo_helps()])
    assert out.advantage and out.paid_by == "Ash" and not out.assisted
    assert out.assist_landed and out.helper.value == 3


def test_pm_09_the_roll_says_whether_the_assist_is_the_helpers_action():
    assert settle(ash(0), assists=[bo_helps(structured_time=True)]).assist_uses_action
    # Even help that did not land took the helper's action in structured time.
    failed = bo_helps(structured_time=True, test_called=True, test_passed=False)
    assert settle(ash(0), assists=[failed]).assist_uses_action
