"""Patterns: allocation, triggering and effects (PAT-01..PAT-09, PAT-R1)."""

import json

import pytest

from rules.d6 import IllegalRefund, RollSpec, apply_allocation, resolve_roll
from rules.errors import RulesError
from rules.patterns import (
    BUILTIN_PATTERNS,
    EFFORTLESS,
    EXTRA_SUCCESS,
    SOLID_HIT,
    DiceNotAvailable,
    IllegalAllocation,
    InvalidPattern,
    Pattern,
    PatternNotApplicable,
    UnknownPattern,
    allocations,
    pattern_label,
)
from rules.templates import RollTemplate

CLUB = RollTemplate(name="Club", damage=(1, 2, 3, 4))
TASER = RollTemplate(name="Taser", damage=(1, 1, 2, 2), harm="strain")


def narrative(faces, **spec):
    return resolve_roll(RollSpec(attribute=len(faces), **spec), faces=faces)


def attack(faces, template=CLUB, **spec):
    spec.setdefault("play", "structured")
    return resolve_roll(
        RollSpec(attribute=len(faces), kind="attack", template=template, **spec), faces=faces
    )


# --- PAT-01 / PAT-02 / PAT-03 allocations ------------------------------------------------


def test_pat_01_patterns_are_doubles_triples_quads_of_equal_faces():
    """PAT-01: Double (2), Triple (3), Quad (4) equal faces, written 'Double N'."""
    assert pattern_label("double", 5) == "Double 5"
    assert pattern_label("triple", 1) == "Triple 1"
    assert pattern_label("quad", 6) == "Quad 6"
    assert allocations([4, 4, 4, 4]) == [
        (),
        (("double", 4),),
        (("double", 4), ("double", 4)),
        (("quad", 4),),
        (("triple", 4),),
    ]


def test_pat_01_unequal_faces_hold_no_pattern():
    """PAT-01: only equal faces make a pattern."""
    assert allocations([1, 2, 3, 4, 5, 6]) == [()]


def test_pat_02_seed_example_double_or_triple_never_both():
    """PAT-02: 2,3,5,5,5 gives a Double 5 or a Triple 5, never both (a die serves once)."""
    found = allocations([2, 3, 5, 5, 5])
    assert sorted(found) == [(), (("double", 5),), (("triple", 5),)]
    result = narrative([2, 3, 5, 5, 5], resolve_spent=(("Ash", 1),))
    with pytest.raises(DiceNotAvailable, match="each die may serve only one pattern"):
        apply_allocation(result, [("Extra Success", 5), ("Effortless", 5)])


def test_pat_02_roller_may_allocate_none():
    """PAT-02: the empty allocation is always legal."""
    result = narrative([5, 5, 1])
    assert () in result.allocations
    applied = apply_allocation(result, [])
    assert applied.triggered == () and applied.outcome == "Success"


def test_pat_02_allocations_have_no_duplicates_and_are_sorted():
    """PAT-02: every allocation listed once, each a sorted tuple of (kind, face)."""
    found = allocations([1, 1, 1, 1, 2, 2, 6, 6, 6])
    assert len(found) == len(set(found))
    assert all(list(a) == sorted(a) for a in found)
    # 1s: {}, D, DD, T, Q (5); 2s: {}, D (2); 6s: {}, D, T (3)
    assert len(found) == 5 * 2 * 3


def test_pat_02_face_not_rolled_is_refused():
    """PAT-02: a pattern on a face no die shows is refused with a readable message."""
    result = narrative([5, 5, 1])
    with pytest.raises(DiceNotAvailable, match="no die shows 3"):
        apply_allocation(result, [("Extra Success", 3)])
    with pytest.raises(DiceNotAvailable, match="only 2 dice show 5"):
        apply_allocation(result, [("Extra Success", 5), ("Extra Success", 5)])
    with pytest.raises(IllegalAllocation, match="not a face"):
        apply_allocation(result, [("Extra Success", 7)])


def test_pat_03_every_allocated_pattern_triggers_repeats_included():
    """PAT-03: 1,1,4,5,5 gives Double 1 and Double 5, and both trigger."""
    assert (("double", 1), ("double", 5)) in allocations([1, 1, 4, 5, 5])
    result = attack([1, 1, 4, 5, 5])
    applied = apply_allocation(result, [("Solid Hit", 1), ("Solid Hit", 5)])
    assert [t.label for t in applied.triggered] == ["Double 1", "Double 5"]
    assert applied.damage_bonus == 1 + 5


def test_pat_03_same_pattern_twice_on_one_face_triggers_twice():
    """PAT-03: four 6s allocated as two Double 6 both trigger."""
    applied = apply_allocation(attack([6, 6, 6, 6]), [("Solid Hit", 6), ("Solid Hit", 6)])
    assert applied.damage_bonus == 12


# --- PAT-04 / PAT-05 requirements -------------------------------------------------------


def test_pat_04_graze_triggers_no_pattern():
    """PAT-04: by default a pattern needs at least 1 effective success."""
    result = attack([2, 2, 3])
    assert result.graze
    assert result.allocations == ((),) and result.default_allocation == ()
    with pytest.raises(PatternNotApplicable, match="at least 1 effective success"):
        apply_allocation(result, [("Solid Hit", 2)])


def test_pat_04_opposition_can_turn_off_patterns():
    """PAT-04: the requirement reads effective successes, after opposition."""
    result = attack([6, 6, 1], opposition_successes=2)
    assert result.successes == 2 and result.effective_successes == 0
    with pytest.raises(PatternNotApplicable):
        apply_allocation(result, [("double", 6)])


def test_pat_04_pattern_may_override_the_success_requirement():
    """PAT-04: a pattern may say it triggers on a graze (or need more successes)."""
    rally = Pattern("Rally", "double", "text", min_effective_successes=0, description="Rally!")
    result = narrative([2, 2, 1], patterns=(*BUILTIN_PATTERNS, rally))
    assert result.graze
    applied = apply_allocation(result, [("Rally", 2)])
    assert applied.texts == ("Rally!",)
    strict = Pattern("Finesse", "double", "outcome_upgrade", min_effective_successes=2)
    result = narrative([5, 1, 1], patterns=(strict,))
    with pytest.raises(PatternNotApplicable, match="at least 2 effective successes"):
        apply_allocation(result, [("Finesse", 1)])


def test_pat_05_patterns_never_apply_to_zero_dice_rolls():
    """PAT-05: a zero-dice roll refuses every allocation, even with a success."""
    result = resolve_roll(RollSpec(attribute=0), faces=[6, 6])
    assert result.successes == 1
    with pytest.raises(PatternNotApplicable, match="zero dice"):
        apply_allocation(result, [("Extra Success", 6)])
    override = Pattern("Anything", "double", "text", min_effective_successes=0)
    result = resolve_roll(RollSpec(attribute=0, patterns=(override,)), faces=[6, 6])
    with pytest.raises(PatternNotApplicable, match="zero dice"):
        apply_allocation(result, [("Anything", 6)])


# --- PAT-06 Solid Hit -------------------------------------------------------------------


def test_pat_06_solid_hit_adds_n_damage_per_double_n():
    """PAT-06: attacks that deal damage get +N damage per Solid Hit (Double N)."""
    result = attack([6, 6, 3, 3, 5])
    assert result.band == 3 and result.damage == 4
    applied = apply_allocation(result, [("Solid Hit", 6), ("Solid Hit", 3)])
    assert applied.damage_bonus == 9 and applied.damage == 4 + 9


def test_pat_06_solid_hit_applies_in_narrative_play_too():
    """PAT-06: Solid Hit applies to every attack roll, narrative or structured."""
    applied = apply_allocation(attack([4, 4, 5], play="narrative"), [("Solid Hit", 4)])
    assert applied.damage == 2 + 4


def test_pat_06_solid_hit_does_not_apply_to_strain_attacks():
    """PAT-06: attacks that deal Strain are not affected."""
    result = attack([6, 6, 5], template=TASER)
    assert result.patterns == () and result.default_allocation == ()
    with pytest.raises(PatternNotApplicable, match="not Strain"):
        apply_allocation(result, [("Solid Hit", 6)])


def test_pat_06_solid_hit_does_not_apply_to_non_attacks():
    """PAT-06: Solid Hit is for attack rolls only."""
    with pytest.raises(PatternNotApplicable, match="Solid Hit applies only to attack"):
        apply_allocation(narrative([6, 6, 5]), [("Solid Hit", 6)])


# --- PAT-07 / PAT-R1 Extra Success -------------------------------------------------------


def test_pat_07_extra_success_turns_success_into_success_with_a_bonus():
    """PAT-07: Success -> Success with a Bonus."""
    result = narrative([5, 5, 1])
    assert result.outcome == "Success"
    applied = apply_allocation(result, [("Extra Success", 5)])
    assert applied.outcome == "Success with a Bonus" and applied.band == 3


def test_pat_07_extra_success_turns_success_at_a_cost_into_success():
    """PAT-07: Success at a Cost -> Success."""
    result = narrative([5, 2, 2, 1])
    assert result.outcome == "Success at a Cost"
    applied = apply_allocation(result, [("Extra Success", 2)])
    assert applied.outcome == "Success" and applied.upgrade_steps == 1


def test_pat_07_extra_success_applies_to_narrative_luck_rolls():
    """PAT-07: action and luck rolls in narrative play."""
    result = narrative([5, 3, 3], kind="luck")
    applied = apply_allocation(result, [("double", 3)])
    assert applied.outcome == "Success"


def test_pat_07_extra_success_not_in_structured_play_or_on_attacks():
    """PAT-07: narrative play only; attacks have Solid Hit instead."""
    with pytest.raises(PatternNotApplicable, match="only in narrative play"):
        apply_allocation(narrative([5, 3, 3], play="structured"), [("Extra Success", 3)])
    with pytest.raises(PatternNotApplicable, match="action or luck"):
        apply_allocation(attack([5, 3, 3], play="narrative"), [("Extra Success", 3)])


def test_pat_07_best_band_stays_best():
    """PAT-07: Success with a Bonus cannot rise further."""
    applied = apply_allocation(narrative([5, 5, 6, 2, 2]), [("Extra Success", 2)])
    assert applied.band == 3 and applied.upgrade_steps == 0


def test_pat_r1_repeated_extra_success_upgrades_one_step_each():
    """PAT-R1: two Extra Successes take Success at a Cost to Success with a Bonus."""
    result = narrative([5, 2, 2, 3, 3])
    applied = apply_allocation(result, [("Extra Success", 2), ("Extra Success", 3)])
    assert applied.outcome == "Success with a Bonus" and applied.upgrade_steps == 2


def test_pat_r1_upgrades_stop_at_success_with_a_bonus():
    """PAT-R1: up to Success with a Bonus, never beyond."""
    result = narrative([5, 2, 2, 3, 3, 4, 4])
    applied = apply_allocation(
        result, [("Extra Success", 2), ("Extra Success", 3), ("Extra Success", 4)]
    )
    assert applied.band == 3 and applied.upgrade_steps == 2


def test_pat_r1_ruling_off_allows_only_one_upgrade():
    """PAT-R1 as a campaign setting: off, repeats do not stack."""
    result = narrative([5, 2, 2, 3, 3], stack_extra_success=False)
    applied = apply_allocation(result, [("Extra Success", 2), ("Extra Success", 3)])
    assert applied.outcome == "Success" and applied.upgrade_steps == 1
    assert len(result.default_allocation) == 1  # the second double is worth nothing


# --- PAT-08 Effortless ------------------------------------------------------------------


def test_pat_08_effortless_recovers_one_spent_resolve():
    """PAT-08: a Triple on a narrative action roll with Resolve spent gives 1 back."""
    result = narrative([4, 4, 4, 5], resolve_spent=(("Ash", 2),))
    applied = apply_allocation(result, [("Effortless", 4)])
    assert applied.refunds == (("Ash", 1),)


def test_pat_08_roller_chooses_whose_resolve_an_allys_counts():
    """PAT-08: the roller chooses who recovers, an assisting ally included."""
    result = narrative([4, 4, 4, 5], resolve_spent=(("Ash", 1), ("Bo", 1)))
    assert apply_allocation(result, [("Effortless", 4)], refund_to=["Bo"]).refunds == (("Bo", 1),)
    assert apply_allocation(result, [("Effortless", 4)]).refunds == (("Ash", 1),)


def test_pat_08_each_triple_refunds_but_only_what_was_spent():
    """PAT-08: two Triples return 2, never more than was spent, nor more than one spent."""
    result = narrative([4, 4, 4, 2, 2, 2, 5], resolve_spent=(("Ash", 1), ("Bo", 1)))
    both = [("Effortless", 2), ("Effortless", 4)]
    assert apply_allocation(result, both, refund_to=["Bo", "Ash"]).refunds == (
        ("Bo", 1),
        ("Ash", 1),
    )
    with pytest.raises(IllegalRefund, match="Bo spent 1 Resolve and cannot get 2 back"):
        apply_allocation(result, both, refund_to=["Bo", "Bo"])
    with pytest.raises(
        IllegalRefund, match=r"gives back 2 Resolve: choose one recipient per point \(1 chosen\)"
    ):
        apply_allocation(result, both, refund_to=["Bo"])
    only_one = narrative([4, 4, 4, 2, 2, 2, 5], resolve_spent=(("Ash", 1),))
    assert apply_allocation(only_one, both).refunds == (("Ash", 1),)


def test_pat_08_effortless_needs_resolve_spent_and_narrative_action():
    """PAT-08: no Resolve spent, structured play, luck rolls and attacks: no Effortless."""
    with pytest.raises(PatternNotApplicable, match="Resolve was spent"):
        apply_allocation(narrative([4, 4, 4, 5]), [("Effortless", 4)])
    with pytest.raises(PatternNotApplicable, match="narrative"):
        apply_allocation(
            narrative([4, 4, 4, 5], play="structured", resolve_spent=(("Ash", 1),)),
            [("Effortless", 4)],
        )
    with pytest.raises(PatternNotApplicable, match="action rolls"):
        apply_allocation(
            narrative([4, 4, 4, 5], kind="luck", resolve_spent=(("Ash", 1),)),
            [("Effortless", 4)],
        )


# --- PAT-09 default allocation ----------------------------------------------------------


def test_pat_09_roller_is_offered_every_legal_allocation():
    """PAT-09: every allocation to this roll's applicable patterns is offered."""
    result = narrative([5, 5, 5, 1], resolve_spent=(("Ash", 1),))
    assert set(result.allocations) == {
        (),
        (("Extra Success", 5),),
        (("Effortless", 5),),
    }
    for allocation in result.allocations:
        apply_allocation(result, allocation)


def test_pat_09_default_is_the_best_outcome_upgrade():
    """PAT-09: a narrative roll pre-selects the allocation reaching the best band."""
    result = narrative([5, 2, 2, 3, 3, 1])
    assert result.default_allocation == (("Extra Success", 2), ("Extra Success", 3))
    assert apply_allocation(result).outcome == "Success with a Bonus"


def test_pat_09_default_prefers_upgrade_then_effortless_refund():
    """PAT-09: the best band first, then Effortless with the dice left over."""
    result = narrative([5, 5, 5, 2, 2, 1], resolve_spent=(("Ash", 1),))
    # Band 3 already: upgrading is worth nothing, the Triple 5 refunds.
    assert result.band == 3
    assert result.default_allocation == (("Effortless", 5),)
    result = narrative([5, 5, 3, 3, 3, 2, 2], resolve_spent=(("Ash", 1),))
    assert result.band == 2
    # A Double upgrades to the best band (the 5s: higher faces win ties), the Triple 3
    # refunds; spending the 3s on a Double instead would lose the refund.
    assert result.default_allocation == (("Effortless", 3), ("Extra Success", 5))
    applied = apply_allocation(result)
    assert applied.outcome == "Success with a Bonus" and applied.refunds == (("Ash", 1),)


def test_pat_09_default_upgrade_beats_refund():
    """PAT-09: when dice can upgrade or refund but not both, the better outcome wins."""
    result = narrative([5, 3, 3, 3], resolve_spent=(("Ash", 1),))
    assert result.default_allocation == (("Extra Success", 3),)


def test_pat_09_default_for_attacks_is_the_most_damage():
    """PAT-09: attacks pre-select the Solid Hits worth most damage."""
    result = attack([6, 6, 6, 6, 1, 1, 5])
    assert result.default_allocation == (
        ("Solid Hit", 1),
        ("Solid Hit", 6),
        ("Solid Hit", 6),
    )
    assert apply_allocation(result).damage == 4 + 6 + 6 + 1


def test_pat_09_default_ties_prefer_fewer_dice_then_higher_faces():
    """PAT-09: with equal worth, use fewer dice, then higher faces."""
    result = narrative([5, 5, 2, 2, 3, 3, 1])  # band 2: one double suffices
    assert result.default_allocation == (("Extra Success", 5),)
    assert narrative([6, 5, 6, 1]).default_allocation == ()  # already the best band


def test_pat_09_kind_names_are_accepted_when_unambiguous():
    """PAT-09: a caller may allocate by kind when one applicable pattern has that kind."""
    result = narrative([5, 2, 2, 1], resolve_spent=(("Ash", 1),))
    assert apply_allocation(result, [("double", 2)]).allocation == (("Extra Success", 2),)
    second = Pattern("Flourish", "double", "text", roll_kinds=("action",))
    result = narrative([5, 2, 2, 1], patterns=(*BUILTIN_PATTERNS, second))
    with pytest.raises(UnknownPattern, match="could trigger Extra Success or Flourish"):
        apply_allocation(result, [("double", 2)])
    with pytest.raises(UnknownPattern, match="no pattern called 'Nope'"):
        apply_allocation(result, [("Nope", 2)])
    with pytest.raises(PatternNotApplicable, match="No pattern for a Quad 2"):
        apply_allocation(result, [("quad", 2)])


# --- patterns as data ------------------------------------------------------------------


def test_builtin_patterns_are_data_and_round_trip_through_json():
    """PAT-06..PAT-08: the built-ins are plain Pattern instances that store as JSON."""
    for pattern in (SOLID_HIT, EXTRA_SUCCESS, EFFORTLESS):
        data = json.loads(json.dumps(pattern.to_dict()))
        assert Pattern.from_dict(data) == pattern


def test_custom_pattern_from_gm_data():
    """PAT-04 / PAT-06: a GM-defined Quad that adds flat damage to attacks."""
    crushing = Pattern.from_dict(
        {
            "name": "Crushing Blow",
            "kind": "quad",
            "effect": "damage",
            "amount": 5,
            "roll_kinds": ["attack"],
            "description": "Bones break.",
        }
    )
    patterns = (*BUILTIN_PATTERNS, crushing)
    result = attack([6, 6, 6, 6, 5], patterns=patterns)
    # Two Solid Hit 6 give +12, the Quad gives +5: the default takes the most damage.
    assert result.default_allocation == (("Solid Hit", 6), ("Solid Hit", 6))
    applied = apply_allocation(result, [("Crushing Blow", 6)])
    assert applied.damage_bonus == 5 and applied.triggered[0].label == "Quad 6"


def test_bad_pattern_definitions_are_refused():
    """Pattern data from a GM is checked, with readable messages."""
    with pytest.raises(InvalidPattern, match="kind must be double, triple or quad"):
        Pattern("X", "pair", "text")
    with pytest.raises(InvalidPattern, match="effect must be one of"):
        Pattern("X", "double", "explode")
    with pytest.raises(InvalidPattern, match="roll_kinds must list"):
        Pattern("X", "double", "text", roll_kinds=("dance",))
    with pytest.raises(InvalidPattern, match="needs kind"):
        Pattern.from_dict({"name": "X", "effect": "text"})
    with pytest.raises(InvalidPattern, match="Unknown pattern fields"):
        Pattern.from_dict({"name": "X", "kind": "double", "effect": "text", "power": 9})
    with pytest.raises(InvalidPattern, match="malformed"):
        Pattern.from_dict({"name": "X", "kind": "double", "effect": "text", "roll_kinds": 5})
    with pytest.raises(InvalidPattern, match="names a kind"):
        Pattern("Double", "double", "text")
    assert issubclass(IllegalAllocation, RulesError)
