"""Challenge / Combat dice (GL-04, suggested clause): d6 faces 1, 2, 0, 0, Effect, Effect."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules import challenge
from rules.challenge import InvalidChallengeRoll, odds, roll, score


class FakeRandom:
    def __init__(self, faces):
        self.faces = list(faces)
        self.calls = []

    def randint(self, low, high):
        self.calls.append((low, high))
        return self.faces.pop(0)


# The faces as the books print them, written out here rather than read from the module.
PRINTED = {1: (1, 0), 2: (2, 0), 3: (0, 0), 4: (0, 0), 5: (1, 1), 6: (1, 1)}


def brute(dice):
    """(total, effects) of every one of the 6**dice face combinations, counted."""
    counts = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        counts[(sum(PRINTED[f][0] for f in faces), sum(PRINTED[f][1] for f in faces))] += 1
    return {key: Fraction(n, 6**dice) for key, n in counts.items()}


def test_gl_04_each_face_scores_as_printed():
    """GL-04: 1 → 1, 2 → 2, 3 and 4 → 0, 5 and 6 → 1 and an Effect."""
    for face, (value, effect) in PRINTED.items():
        result = score([face])
        assert (result.total, result.effects) == (value, effect)


def test_gl_04_a_roll_adds_its_faces():
    result = score([2, 5, 6, 3, 1])
    assert (result.total, result.effects, result.dice) == (5, 2, 5)


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, 6])
def test_gl_04_joint_odds_of_total_and_effects_equal_brute_force(dice):
    """GL-04: the exact joint chances match enumerating every face combination."""
    assert odds(dice).joint == brute(dice)


@pytest.mark.parametrize("dice", [1, 3, 5])
def test_gl_04_marginals_and_expectations_equal_brute_force(dice):
    exact = brute(dice)
    total, effects = Counter(), Counter()
    for (t, e), p in exact.items():
        total[t] += p
        effects[e] += p
    result = odds(dice)
    assert result.total == dict(sorted(total.items()))
    assert result.effects == dict(sorted(effects.items()))
    assert result.expected_total == sum(t * p for (t, _), p in exact.items())
    assert result.expected_effects == Fraction(dice, 3)  # 2 faces in 6 per die
    assert result.at_least(3) == sum(p for (t, _), p in exact.items() if t >= 3)
    assert sum(result.joint.values()) == 1


def test_gl_04_rolling_takes_injected_faces_one_d6_each():
    rng = FakeRandom([6, 4, 2])
    result = roll(3, rng)
    assert result.faces == (6, 4, 2)
    assert (result.total, result.effects) == (3, 1)
    assert rng.calls == [(1, 6)] * 3


@pytest.mark.parametrize("dice", [0, -1, challenge.MAX_DICE + 1, 2.0, True, "3"])
def test_a_roll_of_an_impossible_number_of_dice_is_refused(dice):
    with pytest.raises(InvalidChallengeRoll):
        roll(dice, FakeRandom([1] * 30))
    with pytest.raises(InvalidChallengeRoll):
        odds(dice)


@pytest.mark.parametrize("face", [0, 7, True, 2.5])
def test_a_face_a_d6_cannot_show_is_refused(face):
    with pytest.raises(InvalidChallengeRoll, match="1 to 6"):
        score([1, face])
