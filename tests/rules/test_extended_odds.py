"""SC-03 (issue 40): the exact chance an extended task is complete within 1, 2, 3 … more
tests (rules.extended.finish_chances), against a brute force over every way the tests
can fall: each d20 face of the test, each face of its Challenge dice.

STA 1e "Extended Tasks" (Core Rulebook): Work from the Challenge dice total less
Resistance, a Breakthrough at 5+ in one roll or when the track fills, complete at
Magnitude Breakthroughs. Dune ("Extended Tasks", core rulebook p. 159): 2 points a
passed test, complete at the requirement.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules import challenge, extended
from rules.d20 import SkillTest, score_test, skill_odds


def brute_pass_chance(test: SkillTest) -> Fraction:
    faces = list(product(range(1, 21), repeat=test.dice))
    return Fraction(sum(score_test(test, f).passed for f in faces), len(faces))


def brute_finish(task, test: SkillTest, dice: int, tests: int, both=True) -> list[Fraction]:
    """Every path of `tests` tests: a failure, or a pass with each Challenge dice face
    tuple (equally likely); the chance the task is complete after 1, 2 … of them."""
    passed = brute_pass_chance(test)
    faces = list(product(range(1, 7), repeat=dice)) if dice else [()]
    outcomes = [(None, 1 - passed)] + [(f, passed / len(faces)) for f in faces]
    found = []
    for n in range(1, tests + 1):
        done = Fraction(0)
        for path in product(outcomes, repeat=n):
            state, weight = task, Fraction(1)
            for rolled, p in path:
                weight *= p
                if state.complete:
                    continue
                if rolled is not None:
                    value = challenge.score(rolled).total if dice else 0
                    state = extended.advance(state, True, value, both=both).task
            done += weight if state.complete else 0
        found.append(done)
    return found


def test_sc_03_sta1_finish_chances_equal_the_brute_force():
    task = extended.Task(extended.STA1, work=3, magnitude=2, resistance=1)
    test = SkillTest(target=11, difficulty=2)
    got = extended.finish_chances(task, skill_odds(test).pass_chance, challenge.odds(2).total, 3)
    assert list(got) == brute_finish(task, test, dice=2, tests=3)
    # At most 3 Work a roll: no 5+, so the two Breakthroughs take two rolls at least.
    assert got[0] == 0 and 0 < got[1] < got[2] < 1


def test_sc_r1_off_one_breakthrough_a_roll_takes_longer():
    task = extended.Task(extended.STA1, work=3, magnitude=2)
    test = SkillTest(target=12, difficulty=1)
    on = extended.finish_chances(task, skill_odds(test).pass_chance, challenge.odds(3).total, 2)
    off = extended.finish_chances(
        task, skill_odds(test).pass_chance, challenge.odds(3).total, 2, both=False
    )
    assert list(off) == brute_finish(task, test, dice=3, tests=2, both=False)
    assert on[0] > 0 == off[0]  # 5+ that fills the track scores both at once (SC-R1)


def test_sc_03_dune_finish_chances_equal_the_brute_force():
    task = extended.Task(extended.DUNE, work=5, progress=1)
    test = SkillTest(target=10, difficulty=2)
    got = extended.finish_chances(task, skill_odds(test).pass_chance, {0: Fraction(1)}, 4)
    assert list(got) == brute_finish(task, test, dice=0, tests=4)
    p = skill_odds(test).pass_chance  # 4 points to go: two passes
    assert got[1] == p * p and got[0] == 0


def test_a_complete_task_is_certain_and_the_lookahead_is_bounded():
    done = extended.Task(extended.DUNE, work=2, progress=2)
    assert extended.finish_chances(done, Fraction(1, 2), {0: Fraction(1)}, 3) == (1, 1, 1)
    with pytest.raises(extended.InvalidTask):
        extended.finish_chances(done, Fraction(1, 2), {0: Fraction(1)}, 0)
