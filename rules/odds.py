"""Exact odds of a Momenta pool, computed rather than simulated (D6-12, PAT-10).

Successes on n dice are binomial(n, 1/3) (D6-01); a pool of 0 or fewer keeps
the lowest of 2d6, so P(1 success) = (2/6)^2 = 1/9 (D6-07). Pattern chances
count the face sequences in which no face appears k times, with an exact
integer recurrence. Everything is whole-number arithmetic turned into
`Fraction`s at the end, and cached per pool size, so a full preview for
pools up to 30 costs well under a millisecond even cold.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

PATTERN_SIZES = {"double": 2, "triple": 3, "quad": 4}


def _pool(pool: int) -> int:
    if isinstance(pool, bool) or not isinstance(pool, int):
        raise TypeError(f"A pool is a whole number of dice, not {pool!r}.")
    return max(pool, 0)


@lru_cache(maxsize=1024)
def _success_weights(pool: int) -> tuple[tuple[int, ...], int]:
    """(weight of k successes for k = 0..max, common denominator) for a normalised pool."""
    if pool == 0:
        # D6-07: 2d6 keep lowest succeeds only if both dice show 5+: 4 of 36 = 1/9.
        return (8, 1), 9
    return tuple(comb(pool, k) * 2 ** (pool - k) for k in range(pool + 1)), 3**pool


def success_distribution(pool: int) -> dict[int, Fraction]:
    """Exact chance of each number of successes (before opposition) for a pool."""
    weights, denominator = _success_weights(_pool(pool))
    return {k: Fraction(w, denominator) for k, w in enumerate(weights)}


@lru_cache(maxsize=256)  # a session rolls the same pools over and over (its recap asks each)
def expected_successes(pool: int) -> Fraction:
    """The exact expected successes of a pool before opposition (D6-01, D6-07): what a
    session's luck measures each roll's successes against."""
    return sum((k * p for k, p in success_distribution(pool).items()), Fraction(0))


@lru_cache(maxsize=1024)
def _bands(pool: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    weights, denominator = _success_weights(pool)
    padded = list(weights) + [0, 0, 0]
    return (
        Fraction(padded[0], denominator),
        Fraction(padded[1], denominator),
        Fraction(padded[2], denominator),
        Fraction(sum(weights[3:]), denominator),
    )


def band_distribution(pool: int) -> dict[int, Fraction]:
    """Exact chance of bands 0, 1, 2 and 3 (= 3+) for a pool (D6-02, D6-12)."""
    return dict(enumerate(_bands(_pool(pool))))


@lru_cache(maxsize=4096)
def _opposed(pool: int, opposition: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    s_weights, s_den = _success_weights(pool)
    o_weights, o_den = _success_weights(opposition)
    # suffix[k] = weight of k or more successes for the opposed roll.
    suffix = [0] * (len(s_weights) + 4)
    for k in range(len(s_weights) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + s_weights[k]

    def exactly(k: int) -> int:
        return s_weights[k] if k < len(s_weights) else 0

    one = two = three_plus = 0
    for o, weight in enumerate(o_weights):
        one += weight * exactly(o + 1)
        two += weight * exactly(o + 2)
        three_plus += weight * suffix[min(o + 3, len(suffix) - 1)]
    total = s_den * o_den
    return (
        Fraction(total - one - two - three_plus, total),
        Fraction(one, total),
        Fraction(two, total),
        Fraction(three_plus, total),
    )


def opposed_band_distribution(pool: int, opposition_pool: int) -> dict[int, Fraction]:
    """Exact band chances when an opposition roll subtracts its successes (D6-10).

    Effective successes are max(0, successes - opposition successes); either
    side with 0 or fewer dice keeps the lowest of 2d6 (D6-07).
    """
    return dict(enumerate(_opposed(_pool(pool), _pool(opposition_pool))))


@lru_cache(maxsize=4096)
def _sequences_without_set(dice: int, largest: int) -> int:
    """How many of the 6**dice face sequences show no face more than `largest` times.

    Faces are added one at a time: putting c dice of a new face among t
    already placed dice can be done in comb(t + c, c) ways.
    """
    if dice > 6 * largest:
        return 0
    ways = [1] + [0] * dice
    for _ in range(6):
        new = [0] * (dice + 1)
        for placed, count in enumerate(ways):
            if count:
                for c in range(min(largest, dice - placed) + 1):
                    new[placed + c] += count * comb(placed + c, c)
        ways = new
    return ways[dice]


@lru_cache(maxsize=1024)
def _patterns(pool: int) -> tuple[Fraction, Fraction, Fraction]:
    if pool == 0:  # D6-07: patterns never apply to a zero-dice roll (PAT-05)
        return Fraction(0), Fraction(0), Fraction(0)
    total = 6**pool
    return tuple(  # type: ignore[return-value]
        1 - Fraction(_sequences_without_set(pool, size - 1), total)
        for size in PATTERN_SIZES.values()
    )


def pattern_chances(pool: int) -> dict[str, Fraction]:
    """Exact chance that the faces hold at least one Double, Triple, Quad (PAT-10).

    A Triple also holds a Double (two of its dice), so the chances only fall
    from "double" to "quad". Zero-dice rolls have no patterns (PAT-05).
    """
    return dict(zip(PATTERN_SIZES, _patterns(_pool(pool)), strict=True))


@lru_cache(maxsize=4096)
def _set_weights_by_successes(dice: int, size: int) -> tuple[int, ...]:
    """How many of the 6**dice face sequences hold a set of `size` equal faces,
    by number of successes (faces 5 and 6, D6-01): all sequences with s successes,
    comb(dice, s) * 2**s * 4**(dice - s), less those where no face shows `size` times."""
    # ways[placed][s]: sequences of the faces added so far, none `size` times or more.
    ways = [[0] * (dice + 1) for _ in range(dice + 1)]
    ways[0][0] = 1
    for face in range(1, 7):
        hit = face >= 5
        new = [[0] * (dice + 1) for _ in range(dice + 1)]
        for placed in range(dice + 1):
            for s, count in enumerate(ways[placed]):
                if not count:
                    continue
                for c in range(min(size - 1, dice - placed) + 1):
                    new[placed + c][s + c if hit else s] += count * comb(placed + c, c)
        ways = new
    return tuple(comb(dice, s) * 2**s * 4 ** (dice - s) - ways[dice][s] for s in range(dice + 1))


def pattern_trigger_chance(
    pool: int,
    kind: str,
    min_effective: int = 1,
    *,
    opposition_successes: int = 0,
    opposition_pool: int | None = None,
) -> Fraction:
    """Exact chance that a `kind` pattern can trigger (PAT-04, PAT-10): the faces hold
    one and the roll has at least `min_effective` effective successes, after a known
    number of opposition successes or an opposition roll (D6-10). Zero-dice rolls
    have no patterns (PAT-05)."""
    pool = _pool(pool)
    if pool == 0:
        return Fraction(0)
    with_set = _set_weights_by_successes(pool, PATTERN_SIZES[kind])
    if opposition_pool is not None:
        against = success_distribution(opposition_pool)
    else:
        against = {opposition_successes: Fraction(1)}
    # max(0, s - o) >= m: with m = 0 every roll qualifies, else s >= o + m.
    total = Fraction(0)
    for o, chance in against.items():
        need = o + min_effective if min_effective > 0 else 0
        total += chance * Fraction(sum(with_set[need:]), 6**pool)
    return total


def clear_caches() -> None:
    """Forget every cached result (for cold-start benchmarks)."""
    for cached in (
        _success_weights,
        _bands,
        _opposed,
        _sequences_without_set,
        _patterns,
        _set_weights_by_successes,
    ):
        cached.cache_clear()
