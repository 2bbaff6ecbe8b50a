"""Challenge dice (Combat dice in some lines): d6s read for damage and Effects (GL-04).

Each die's six faces read 1, 2, 0, 0, Effect, Effect; an Effect scores 1 and
also counts as one Effect (what it triggers is the weapon's, read by people).
A roll's result is its total and its number of Effects; the odds of both are
exact, by convolving one die's distribution N times.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules.errors import gettext_noop

from .errors import RulesError

SIDES = 6
MAX_DICE = 20  # more than any weapon rolls; keeps a request and its odds small
# (score, effect) of each face, 1 to 6: 1, 2, blank, blank, Effect, Effect.
FACE_VALUES: dict[int, tuple[int, int]] = {
    1: (1, 0),
    2: (2, 0),
    3: (0, 0),
    4: (0, 0),
    5: (1, 1),
    6: (1, 1),
}


class InvalidChallengeRoll(RulesError):
    """A Challenge dice roll described with impossible values."""


def check_dice(dice) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise InvalidChallengeRoll(gettext_noop("The number of dice must be a whole number."))
    if not 1 <= dice <= MAX_DICE:
        raise InvalidChallengeRoll(
            gettext_noop("Roll 1 to %(max_dice)s dice (got %(dice)s)."),
            max_dice=MAX_DICE,
            dice=dice,
        )
    return dice


@dataclass(frozen=True)
class ChallengeResult:
    """A scored roll: the faces as rolled (1–6), their total and the Effects among them."""

    faces: tuple[int, ...]
    total: int
    effects: int

    @property
    def dice(self) -> int:
        return len(self.faces)


def score(faces) -> ChallengeResult:
    """GL-04: total and Effects of given faces (1–6 each)."""
    faces = tuple(faces)
    check_dice(len(faces))
    for face in faces:
        if isinstance(face, bool) or face not in FACE_VALUES:
            raise InvalidChallengeRoll(
                gettext_noop("A Challenge die shows 1 to 6, not %(face)r."), face=face
            )
    return ChallengeResult(
        faces,
        sum(FACE_VALUES[f][0] for f in faces),
        sum(FACE_VALUES[f][1] for f in faces),
    )


def roll(dice: int, rng=None) -> ChallengeResult:
    """Roll `dice` Challenge dice with `rng` (anything with randint; tests choose faces),
    the system CSPRNG otherwise (TB-02)."""
    check_dice(dice)
    rng = secrets.SystemRandom() if rng is None else rng
    return score(rng.randint(1, SIDES) for _ in range(dice))


@dataclass(frozen=True)
class ChallengeOdds:
    """Exact odds of N Challenge dice: P(total), P(Effects) and their joint chances."""

    dice: int
    joint: dict[tuple[int, int], Fraction]  # (total, effects) -> chance

    @property
    def total(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for (total, _), p in self.joint.items():
            out[total] = out.get(total, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def effects(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for (_, effects), p in self.joint.items():
            out[effects] = out.get(effects, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def expected_total(self) -> Fraction:
        return sum((t * p for (t, _), p in self.joint.items()), Fraction(0))

    @property
    def expected_effects(self) -> Fraction:
        return sum((e * p for (_, e), p in self.joint.items()), Fraction(0))

    def at_least(self, total: int) -> Fraction:
        """Chance that the total reaches `total`."""
        return sum((p for (t, _), p in self.joint.items() if t >= total), Fraction(0))


@lru_cache(maxsize=MAX_DICE)
def _joint(dice: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    die: dict[tuple[int, int], Fraction] = {}
    for value in FACE_VALUES.values():
        die[value] = die.get(value, Fraction(0)) + Fraction(1, SIDES)
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(dice):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (t, e), p in dist.items():
            for (dt, de), q in die.items():
                key = (t + dt, e + de)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


def odds(dice: int) -> ChallengeOdds:
    """GL-04: the exact joint distribution of total and Effects for `dice` Challenge dice."""
    return ChallengeOdds(check_dice(dice), dict(_joint(dice)))
