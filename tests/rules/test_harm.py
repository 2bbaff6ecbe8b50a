"""Harm tracks (SC-02) and extended tasks (SC-03), as rules/harm.py and rules/extended.py
implement them; each test names the clause and the line's rule it follows."""

import pytest

from rules import extended, harm
from rules.extended import InvalidTask, Task, advance
from rules.harm import InvalidHarm, challenge_hit, hit_damage, move


def test_sc_02_harm_never_goes_below_zero_or_past_the_track():
    assert move(8, 10, 5) == harm.Step(before=8, delta=2, after=10, lost=3)
    assert move(2, 10, -5) == harm.Step(before=2, delta=-2, after=0, lost=3)
    assert move(3, 10, 4) == harm.Step(before=3, delta=4, after=7, lost=0)


@pytest.mark.parametrize("args", [(11, 10, 1), (-1, 10, 1), (0, 0, 1), (0, 10, 1.5), (0, 10, True)])
def test_sc_02_impossible_tracks_are_refused(args):
    with pytest.raises(InvalidHarm):
        move(*args)


def test_sc_02_2d20_damage_is_dice_plus_bonus_minus_soak_never_negative():
    assert hit_damage(4, 2, 1) == 5
    assert hit_damage(1, 0, 3) == 0


def test_sc_02_sta1_conan_harm_at_five_in_one_hit_or_when_the_track_empties():
    """STA 1e Core Rulebook / Conan "Damage": 5+ after soak is a harm; emptying the track
    (or any damage on an empty one) is a harm; ruling SC-R1: both at once are two."""
    rule = harm.HARM_RULE["sta1"]
    assert challenge_hit(rule, 0, 10, 4).harms == 0
    assert challenge_hit(rule, 0, 10, 5).harms == 1
    assert challenge_hit(rule, 7, 10, 3).harms == 1  # emptied the track
    assert challenge_hit(rule, 10, 10, 1).harms == 1  # on an empty track
    assert challenge_hit(rule, 6, 10, 6).harms == 2  # SC-R1
    assert challenge_hit(rule, 10, 10, 0).harms == 0  # nothing dealt, nothing suffered


def test_sc_06_sta2e_stress_avoids_the_injury_partly_absorbed_is_a_complication():
    """SC-06, STA 2e core pp. 290 and 292 and the line developer's clarification."""
    rule = harm.HARM_RULE["sta2"]
    assert challenge_hit(rule, 0, 10, 7).harms == 0
    hit = challenge_hit(rule, 8, 10, 4)
    assert (hit.step.after, hit.harms, hit.complication) == (10, 0, True)
    assert challenge_hit(rule, 10, 10, 2).harms == 1  # a full track absorbs nothing


def test_sc_06_fallout_injury_at_zero_hp_five_plus_and_damage_while_at_zero():
    """SC-06, Fallout core, Damage and Injury."""
    rule = harm.HARM_RULE["fallout"]
    assert challenge_hit(rule, 7, 10, 3).harms == 1  # falls to 0 HP
    assert challenge_hit(rule, 0, 10, 1).harms == 0
    assert challenge_hit(rule, 0, 10, 5).harms == 1
    assert challenge_hit(rule, 5, 10, 5).harms == 2  # 5+ that also drops to 0
    assert challenge_hit(rule, 10, 10, 1).harms == 1  # damage taken while at 0


def test_sc_02_every_line_names_its_tracks_and_harms_tracks_exist():
    for line, kinds in harm.LINE_TRACKS.items():
        keys = {k.key for k in kinds}
        assert line in harm.HARM_RULE
        assert all(k.harms in keys for k in kinds if k.harms), line


def test_sc_03_sta1_work_is_challenge_dice_minus_resistance_breakthroughs_at_five_or_full():
    """STA 1e "Extended Tasks" (Dev Blog 005): Work = Challenge dice total - Resistance;
    a Breakthrough at 5+ in one roll and when the Work track fills; complete at Magnitude."""
    task = Task(extended.STA1, work=8, magnitude=2, resistance=1)
    first = advance(task, True, 6)  # 5 Work: a Breakthrough
    assert (first.amount, first.breakthroughs, first.task.progress) == (5, 1, 5)
    assert not first.task.complete
    failed = advance(first.task, False, 6)
    assert failed.task == first.task and failed.amount == 0
    second = advance(first.task, True, 4)  # 3 Work fills the track: a Breakthrough
    assert (second.amount, second.breakthroughs, second.task.progress) == (3, 1, 8)
    assert second.task.breakthroughs == 2 and second.task.complete
    with pytest.raises(InvalidTask, match="already complete"):
        advance(second.task, True, 3)


def test_sc_03_sta2_impact_minus_resistance_at_least_one_breakthrough_points_complete_full():
    """STA 2e ("Goodbye Challenge Dice"): Impact = department (+ Momentum) - Resistance, at
    least 1; each breakthrough point passed counts; complete when the track is full."""
    task = Task(extended.STA2, work=6, resistance=2, breakthrough_at=(3, 6))
    first = advance(task, True, 2)  # 2 - 2 -> at least 1
    assert (first.amount, first.breakthroughs, first.task.progress) == (1, 0, 1)
    second = advance(first.task, True, 5)  # 3 Impact: to 4, past the point at 3
    assert (second.amount, second.breakthroughs, second.task.progress) == (3, 1, 4)
    third = advance(second.task, True, 6)  # 4 Impact, 2 fit: full, the point at 6
    assert (third.amount, third.breakthroughs, third.task.progress) == (2, 1, 6)
    assert third.task.complete and third.task.breakthroughs == 2


def test_sc_03_dune_two_points_a_pass_plus_extra_points_complete_at_the_requirement():
    """Dune "Extended Tasks" (core p. 159, p. 166): 2 points a passed test, + the asset's
    Quality and Momentum (the value), no breakthroughs; what does not fit is not scored."""
    task = Task(extended.DUNE, work=6)
    first = advance(task, True, 1)
    assert (first.amount, first.breakthroughs, first.task.progress) == (3, 0, 3)
    assert advance(first.task, False, 4).amount == 0
    last = advance(first.task, True, 4)
    assert (last.amount, last.task.progress, last.task.complete) == (3, 6, True)


def test_sc_03_r7_conan_needs_a_magnitude_and_scores_as_sta1():
    with pytest.raises(InvalidTask, match="Magnitude"):
        Task(extended.CONAN, work=5)
    step = advance(Task(extended.CONAN, work=5, magnitude=1), True, 5)
    assert (step.amount, step.breakthroughs, step.task.complete) == (5, 2, True)  # SC-R1


def test_sc_03_lines_without_an_implemented_rule_are_refused():
    with pytest.raises(InvalidTask, match="not supported"):
        Task("fallout", work=5, magnitude=1)


@pytest.mark.parametrize("line", ["conan", "achtung", "seeds"])
def test_sc_08_borrowed_task_rules_are_refused_with_the_setting_off(line):
    """SC-R7, SC-R16, SC-R17: a borrowed rule only while the campaign's setting allows it."""
    assert extended.rule_of(line) == line
    with pytest.raises(InvalidTask, match="not supported"):
        extended.rule_of(line, borrowed=False)


def test_sc_r16_achtung_scores_as_sta1_and_sc_r17_seeds_as_dune():
    step = advance(Task(extended.ACHTUNG, work=5, magnitude=1), True, 5)
    assert (step.amount, step.breakthroughs, step.task.complete) == (5, 2, True)
    step = advance(Task(extended.SEEDS, work=5), True, 1)
    assert (step.amount, step.breakthroughs) == (3, 0)


def test_sc_r1_off_a_hit_of_five_that_fills_the_track_inflicts_one_harm():
    """SC-R1 as a campaign setting: on (the default) two harms, off one."""
    assert harm.challenge_hit(harm.FIVE_OR_EMPTY, 3, 8, 5).harms == 2
    assert harm.challenge_hit(harm.FIVE_OR_EMPTY, 3, 8, 5, both=False).harms == 1
    assert harm.challenge_hit(harm.FIVE_OR_EMPTY, 6, 8, 2, both=False).harms == 1  # fills only
    task = Task(extended.STA1, work=5, magnitude=3)
    assert advance(task, True, 5, both=False).breakthroughs == 1


def test_sc_06_sta2e_the_target_chooses_the_injury_or_the_stress():
    """SC-06, STA 2e core pp. 290 and 292: taking the Injury puts no Stress on the track;
    avoiding it (ruling SC-R18, the default) takes the Stress; a full track injures."""
    took = harm.sta2_hit(3, 10, 4, take_injury=True)
    assert (took.marked, took.step.after, took.harms, took.took_injury) == (0, 3, 1, True)
    avoided = harm.sta2_hit(3, 10, 4)
    assert (avoided.marked, avoided.step.after, avoided.harms) == (4, 7, 0)
    assert harm.sta2_hit(3, 10, 0, take_injury=True).harms == 0  # no hit, no Injury
    with pytest.raises(harm.InvalidHarm):
        challenge_hit(harm.HARM_RULE["sta1"], 0, 10, 4, take_injury=True)


def test_sc_r19_sta1_injuries_are_counted_past_the_box_other_lines_keep_their_track():
    """SC-R19, STA 1e core rulebook, Injuries (pp. 176-177): two Injuries on a one-box
    track need two boxes; the seeds' 2d20 keeps its size (the clamp reports the rest)."""
    assert harm.harms_track_size("sta1", 0, 1, 2) == 2
    assert harm.harms_track_size("sta1", 1, 3, 1) == 3
    assert harm.harms_track_size("sta1", harm.MAX_TRACK, harm.MAX_TRACK, 1) == harm.MAX_TRACK
    assert harm.harms_track_size("seeds", 0, 1, 2) == 1


def _kind(line, key):
    return harm.track_kind(line, key)


def test_sc_02_sta1_stress_starts_at_fitness_plus_security():
    # STA 1st edition core rulebook, Combat, "Stress": Fitness + Security.
    sheet = {"Fitness": 9, "Security": 3, "Daring": 10}
    assert harm.starting_max("sta1", _kind("sta1", "stress"), sheet) == 12
    # The Injuries track has no formula: the line's one box.
    assert harm.starting_max("sta1", _kind("sta1", "injuries"), sheet) == 1


def test_sc_02_conan_vigor_and_resolve_start_from_attribute_plus_expertise():
    # Conan core rulebook, Damage, "Stress": Vigor = Brawn + Resistance, Resolve =
    # Willpower + Discipline; Wounds and Trauma stay the book's five.
    sheet = {"brawn": 11, "resistance": 2, "WILLPOWER": 8, "Discipline": 1}
    assert harm.starting_max("conan", _kind("conan", "vigor"), sheet) == 13
    assert harm.starting_max("conan", _kind("conan", "resolve"), sheet) == 9
    assert harm.starting_max("conan", _kind("conan", "wounds"), sheet) == 5


def test_sc_02_fallout_hp_starts_at_endurance_plus_luck_by_either_name():
    # Fallout core rulebook, Character creation, "Derived statistics": END + LCK.
    assert harm.starting_max("fallout", _kind("fallout", "hp"), {"END": 6, "LCK": 5}) == 11
    assert harm.starting_max("fallout", _kind("fallout", "hp"), {"Endurance": 7, "Luck": 4}) == 11


def test_sc_r21_a_sheet_missing_a_statistic_or_a_line_without_a_formula_starts_at_the_default():
    assert harm.starting_max("sta1", _kind("sta1", "stress"), {"Fitness": 9}) == 10
    assert harm.starting_max("sta2", _kind("sta2", "stress"), {"Fitness": 9, "Security": 3}) == 10
    assert harm.starting_max("momenta", _kind("momenta", "harm"), {"GRIT": 3}) == 10


def test_sc_02_a_formula_stays_within_a_track_s_bounds():
    stress = _kind("sta1", "stress")
    assert harm.starting_max("sta1", stress, {"Fitness": 0, "Security": 0}) == 1
    assert harm.starting_max("sta1", stress, {"Fitness": 90, "Security": 90}) == harm.MAX_TRACK
