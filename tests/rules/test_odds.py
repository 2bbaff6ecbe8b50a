"""Exact odds (D6-12, PAT-10): the seed's table, brute force and icepool as oracles."""

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import icepool
import pytest

from rules.odds import (
    band_distribution,
    opposed_band_distribution,
    pattern_chances,
    success_distribution,
)

# The seed's reference table (002_*), "-" read as 0; the zero-dice row is 11% / 89%.
REFERENCE = {
    0: (89, 11, 0, 0),
    1: (67, 33, 0, 0),
    2: (44, 44, 11, 0),
    3: (30, 44, 22, 4),
    4: (20, 40, 30, 11),
    5: (13, 33, 33, 21),
    6: (9, 26, 33, 32),
    7: (6, 20, 31, 43),
    8: (4, 16, 27, 53),
}


def percent_half_up(chance: Fraction) -> int:
    return math.floor(chance * 100 + Fraction(1, 2))


@cache
def brute_force(pool: int) -> tuple[dict[int, Fraction], dict[int, Fraction], dict[str, Fraction]]:
    """Enumerate every face sequence: (successes, bands, pattern chances)."""
    if pool <= 0:
        sequences = [(min(pair),) for pair in itertools.product(range(1, 7), repeat=2)]
        no_patterns = True
    else:
        sequences = list(itertools.product(range(1, 7), repeat=pool))
        no_patterns = False
    total = len(sequences)
    successes: Counter[int] = Counter()
    largest: Counter[int] = Counter()
    for faces in sequences:
        successes[sum(1 for f in faces if f >= 5)] += 1
        largest[max(Counter(faces).values())] += 1
    succ = {k: Fraction(n, total) for k, n in successes.items()}
    bands = {b: sum((p for k, p in succ.items() if min(k, 3) == b), Fraction(0)) for b in range(4)}
    patterns = {
        kind: Fraction(0)
        if no_patterns
        else Fraction(sum(n for m, n in largest.items() if m >= size), total)
        for kind, size in (("double", 2), ("triple", 3), ("quad", 4))
    }
    return succ, bands, patterns


def test_d6_12_band_distribution_matches_seed_reference_table():
    """D6-12: 1d6-8d6 and the zero-dice row match the seed at integer percent.

    The table rounds to nearest (floor would give 66% for 1d6's 2/3). No entry
    is an exact half (x / 3**n * 100 is never k + 1/2), so half-up, half-even
    and Python's round() agree.
    """
    for pool, row in REFERENCE.items():
        dist = band_distribution(pool)
        assert tuple(percent_half_up(dist[b]) for b in range(4)) == row, pool
        assert tuple(round(float(dist[b]) * 100) for b in range(4)) == row, pool
    assert math.floor(band_distribution(1)[0] * 100) != REFERENCE[1][0]


def test_d6_12_band_distribution_is_exact_and_sums_to_one():
    """D6-12: exact Fractions, computed not simulated."""
    for pool in range(0, 40):
        dist = band_distribution(pool)
        assert set(dist) == {0, 1, 2, 3}
        assert all(isinstance(p, Fraction) for p in dist.values())
        assert sum(dist.values()) == 1
    assert band_distribution(3) == {
        0: Fraction(8, 27),
        1: Fraction(12, 27),
        2: Fraction(6, 27),
        3: Fraction(1, 27),
    }


@pytest.mark.parametrize("pool", range(0, 8))
def test_d6_12_band_distribution_equals_brute_force(pool):
    """D6-12: pools 0-7 equal enumeration of every face sequence."""
    successes, bands, _ = brute_force(pool)
    assert band_distribution(pool) == bands
    assert {k: p for k, p in success_distribution(pool).items() if p} == successes


def test_d6_07_d6_12_zero_dice_odds_are_one_in_nine():
    """D6-07 / D6-12: 0 or fewer dice: P(1 success) = 1/9, nothing higher."""
    for pool in (0, -1, -5):
        assert band_distribution(pool) == {
            0: Fraction(8, 9),
            1: Fraction(1, 9),
            2: Fraction(0),
            3: Fraction(0),
        }


def test_d6_12_band_distribution_equals_icepool_up_to_30():
    """D6-12: beyond brute force, icepool's exact pool arithmetic agrees (8-30 dice)."""
    success_die = icepool.d6.map(lambda face: 1 if face >= 5 else 0)
    for pool in (8, 12, 20, 30):
        banded = success_die.pool(pool).sum().map(lambda s: min(s, 3))
        expected = {b: Fraction(banded.probability(b)) for b in range(4)}
        assert band_distribution(pool) == expected


def test_d6_12_returned_dicts_are_copies():
    """Callers may mutate the result without corrupting the cache."""
    band_distribution(4)[0] = Fraction(1)
    assert band_distribution(4)[0] == Fraction(16, 81)


@pytest.mark.parametrize(("pool", "opposition"), list(itertools.product(range(5), range(5))))
def test_d6_10_d6_12_opposed_distribution_equals_brute_force(pool, opposition):
    """D6-10 / D6-12: max(0, s - o) banded, equal to enumerating both rolls (0-4 dice)."""
    succ, _, _ = brute_force(pool)
    opp, _, _ = brute_force(opposition)
    expected = {b: Fraction(0) for b in range(4)}
    for s, ps in succ.items():
        for o, po in opp.items():
            expected[min(max(s - o, 0), 3)] += ps * po
    assert opposed_band_distribution(pool, opposition) == expected


def test_d6_10_opposed_distribution_equals_icepool_for_large_pools():
    """D6-10 / D6-12: icepool agrees for big pools on both sides."""
    success_die = icepool.d6.map(lambda face: 1 if face >= 5 else 0)
    for pool, opposition in ((12, 7), (30, 30), (8, 25)):
        diff = success_die.pool(pool).sum() - success_die.pool(opposition).sum()
        banded = diff.map(lambda e: min(max(e, 0), 3))
        expected = {b: Fraction(banded.probability(b)) for b in range(4)}
        assert opposed_band_distribution(pool, opposition) == expected


def test_d6_10_no_opposition_dice_is_the_zero_dice_opposition():
    """D6-10 / D6-07: an opposition pool of 0 still rolls 2d6 keep lowest."""
    assert opposed_band_distribution(1, 0)[1] == Fraction(1, 3) * Fraction(8, 9)


@pytest.mark.parametrize("pool", range(0, 8))
def test_pat_10_pattern_chances_equal_brute_force(pool):
    """PAT-10: the chance of at least one Double/Triple/Quad, exact, pools 0-7."""
    _, _, patterns = brute_force(pool)
    assert pattern_chances(pool) == patterns


def test_pat_10_pattern_chances_equal_icepool_largest_matching_set():
    """PAT-10: icepool's largest matching set agrees for 8-30 dice."""
    for pool in (8, 10, 13, 19, 30):
        largest = icepool.d6.pool(pool).largest_count()
        expected = {
            kind: Fraction(largest.probability(">=", size))
            for kind, size in (("double", 2), ("triple", 3), ("quad", 4))
        }
        assert pattern_chances(pool) == expected


def test_pat_10_pattern_chances_known_values_and_certainties():
    """PAT-10: 2d6 doubles 1/6; 7+ dice always hold a Double, 13+ a Triple, 19+ a Quad."""
    assert pattern_chances(2) == {"double": Fraction(1, 6), "triple": 0, "quad": 0}
    assert pattern_chances(3)["triple"] == Fraction(1, 36)
    assert pattern_chances(6)["double"] == 1 - Fraction(720, 6**6)
    assert pattern_chances(7)["double"] == 1
    assert pattern_chances(12)["triple"] < 1 == pattern_chances(13)["triple"]
    assert pattern_chances(18)["quad"] < 1 == pattern_chances(19)["quad"]


def test_pat_05_pat_10_zero_dice_have_no_pattern_chance():
    """PAT-05 / PAT-10: patterns never apply to zero-dice rolls."""
    assert pattern_chances(0) == {"double": 0, "triple": 0, "quad": 0}
    assert pattern_chances(-3) == {"double": 0, "triple": 0, "quad": 0}


def test_odds_refuse_non_integer_pools():
    with pytest.raises(TypeError):
        band_distribution(2.5)
    with pytest.raises(TypeError):
        pattern_chances("3")
