"""PAT-04 in the odds: the chance a pattern can trigger, exact, against brute force."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules.odds import pattern_chances, pattern_trigger_chance

SIZES = {"double": 2, "triple": 3, "quad": 4}


def successes(faces) -> int:
    return sum(1 for f in faces if f >= 5)


def brute_force(pool: int, kind: str, min_effective: int, opposition: list[int]) -> Fraction:
    """Every face sequence of the pool against every opposition count (each equally
    likely): a set of the kind's size and max(0, s - o) >= min_effective (D6-10)."""
    hits = total = 0
    for faces in itertools.product(range(1, 7), repeat=pool):
        has_set = max(Counter(faces).values()) >= SIZES[kind]
        for o in opposition:
            total += 1
            hits += has_set and max(0, successes(faces) - o) >= min_effective
    return Fraction(hits, total)


def opposition_counts(dice: int) -> list[int]:
    """The opposition successes of each face sequence of an opposition roll;
    0 or fewer dice roll 2d6 and keep the lowest (D6-07)."""
    if dice <= 0:
        return [successes((min(pair),)) for pair in itertools.product(range(1, 7), repeat=2)]
    return [successes(faces) for faces in itertools.product(range(1, 7), repeat=dice)]


def test_pat_04_two_dice_hold_a_double_one_time_in_six_but_can_trigger_one_in_eighteen():
    """PAT-04: 2d6 show a Double 6/36 of the time; it triggers only as 5,5 or 6,6
    (at least one success), 2/36."""
    assert pattern_chances(2)["double"] == Fraction(1, 6)  # 16.7 %
    assert pattern_trigger_chance(2, "double") == Fraction(1, 18)  # 5.6 %


@pytest.mark.parametrize("pool", range(1, 7))
@pytest.mark.parametrize("kind", SIZES)
@pytest.mark.parametrize("min_effective", [0, 1, 2])
def test_pat_04_trigger_chance_equals_brute_force(pool, kind, min_effective):
    """PAT-04: faces hold the set and the roll has the pattern's effective successes."""
    expected = brute_force(pool, kind, min_effective, [0])
    assert pattern_trigger_chance(pool, kind, min_effective) == expected


@pytest.mark.parametrize("pool,opposition", [(3, 1), (4, 2), (5, 1), (2, 3)])
def test_pat_04_trigger_chance_against_known_opposition_successes(pool, opposition):
    """PAT-04 with D6-10: the successes that count are those left after the opposition's."""
    for kind in SIZES:
        expected = brute_force(pool, kind, 1, [opposition])
        got = pattern_trigger_chance(pool, kind, opposition_successes=opposition)
        assert got == expected


@pytest.mark.parametrize("pool,opposition_pool", [(3, 2), (4, 1), (5, 0), (2, -1), (4, 3)])
def test_pat_04_trigger_chance_against_an_opposition_roll(pool, opposition_pool):
    """PAT-04 with D6-10 and D6-07: an opposition roll subtracts its successes."""
    counts = opposition_counts(opposition_pool)
    for kind in ("double", "triple"):
        expected = brute_force(pool, kind, 1, counts)
        got = pattern_trigger_chance(pool, kind, opposition_pool=opposition_pool)
        assert got == expected


def test_pat_04_a_pattern_that_triggers_on_a_graze_has_the_plain_pattern_chance():
    """PAT-04: a pattern that needs 0 effective successes triggers whenever the set is
    there, whatever opposes it."""
    for pool in (1, 2, 5, 9, 30):
        for kind in SIZES:
            plain = pattern_chances(pool)[kind]
            assert pattern_trigger_chance(pool, kind, 0) == plain
            assert pattern_trigger_chance(pool, kind, 0, opposition_pool=12) == plain


def test_pat_04_pat_05_zero_dice_can_trigger_nothing():
    """PAT-05: a zero-dice roll has no patterns, so none can trigger."""
    for pool in (0, -2):
        assert pattern_trigger_chance(pool, "double", 0) == 0


def test_pat_04_large_pools_are_exact_and_never_above_the_plain_chance():
    """PAT-04: the trigger chance is a part of the plain one, computed for 30 dice too."""
    for pool in (7, 13, 19, 30):
        for kind in SIZES:
            trigger = pattern_trigger_chance(pool, kind)
            assert 0 < trigger <= pattern_chances(pool)[kind]
    # 7+ dice always hold a Double: it can trigger unless no die shows 5 or 6.
    assert pattern_trigger_chance(7, "double") == 1 - Fraction(4**7, 6**7)
