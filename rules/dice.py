"""Random sources for rolling dice (TB-02).

The engine never touches the global `random` module: every roll takes a source
with `randint(a, b)`. Production uses the operating system's cryptographic
generator; tests pass `FixedDice` (or chosen faces directly) to pick the faces.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol


class RandomSource(Protocol):
    """Anything with `randint(a, b)` (inclusive), like `random.Random`."""

    def randint(self, a: int, b: int) -> int: ...


_SYSTEM_RANDOM = secrets.SystemRandom()


def system_random() -> RandomSource:
    """The production source: the operating system's CSPRNG (TB-02)."""
    return _SYSTEM_RANDOM


class FixedDice:
    """A source that returns chosen faces in order, for tests and replays."""

    def __init__(self, faces: Iterable[int]):
        self._faces = list(faces)
        self._next = 0

    def randint(self, a: int, b: int) -> int:
        if self._next >= len(self._faces):
            raise ValueError("FixedDice ran out of faces")
        face = self._faces[self._next]
        if not a <= face <= b:
            raise ValueError(f"FixedDice face {face} is outside {a}..{b}")
        self._next += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next


def roll_d6(count: int, rng: RandomSource | None = None) -> tuple[int, ...]:
    """Roll `count` six-sided dice with `rng` (default: the system CSPRNG)."""
    randint = (rng or _SYSTEM_RANDOM).randint
    return tuple(randint(1, 6) for _ in range(count))
