"""Pool ledger shared by both Momentum economies (MO, PM).

Every operation on a pool returns the new pool and LedgerEntry lines saying
who changed what, by how much and why, and how much a cap swallowed. A
service writes each entry as one PoolChange row; the entries' deltas always
add up to the pool's change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Self

from .errors import RulesError

# Pool names, spelled as tables.models.PoolChange.Pool spells them.
GROUP_MOMENTUM = "group_momentum"
THREAT = "threat"
MOMENTUM = "momentum"
DETERMINATION = "determination"

# Actor roles an operation may be asked to act for.
GM = "gm"
PLAYER = "player"
ROLES = (GM, PLAYER)


class NotEnoughInPool(RulesError):
    """A spend asks for more than the pool holds."""


class PoolOutOfBounds(RulesError):
    """A pool value outside what the pool may hold."""


class UnknownRole(RulesError):
    """An actor role other than "gm" or "player"."""


def check_role(actor: str) -> str:
    if actor not in ROLES:
        raise UnknownRole(f"Only the GM or a player can do that (not {actor!r}).")
    return actor


@dataclass(frozen=True)
class LedgerEntry:
    """One change to one pool: `holder` is the character (None for table pools)."""

    pool: str
    holder: str | None
    delta: int
    reason: str
    lost: int = 0
    after: int | None = None


def total_delta(entries, pool: str, holder: str | None = None) -> int:
    """Sum of the deltas the entries make to one pool (of one holder)."""
    return sum(e.delta for e in entries if e.pool == pool and e.holder == holder)


@dataclass(frozen=True)
class Pool:
    """A bounded counter: 0 ≤ value ≤ cap (no cap when cap is None).

    Subclasses name the pool and its cap. Operations return (new pool, entry)
    and never change self, so a refused operation changes nothing.
    """

    value: int = 0
    holder: str | None = None

    pool: ClassVar[str] = ""
    cap: ClassVar[int | None] = None
    label: ClassVar[str] = "the pool"

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise PoolOutOfBounds(f"{self.title()} must hold a whole number.")
        if self.value < 0:
            raise PoolOutOfBounds(f"{self.title()} cannot go below 0.")
        if self.cap is not None and self.value > self.cap:
            raise PoolOutOfBounds(f"{self.title()} holds at most {self.cap}.")

    def title(self) -> str:
        if self.holder:
            return f"{self.holder}'s {self.label}"
        return self.label[:1].upper() + self.label[1:]

    def _entry(self, new: int, reason: str, lost: int = 0) -> LedgerEntry:
        return LedgerEntry(self.pool, self.holder, new - self.value, reason, lost, new)

    def gain(self, amount: int, reason: str) -> tuple[Self, LedgerEntry]:
        """Add `amount`; what does not fit under the cap is lost and reported."""
        _check_amount(amount)
        wanted = self.value + amount
        new = wanted if self.cap is None else min(self.cap, wanted)
        return replace(self, value=new), self._entry(new, reason, lost=wanted - new)

    def spend(self, amount: int, reason: str) -> tuple[Self, LedgerEntry]:
        """Take `amount` out; refused when the pool holds less."""
        _check_amount(amount)
        if amount > self.value:
            raise NotEnoughInPool(
                f"{self.title()} holds {self.value}; this needs {amount}. Nothing was spent."
            )
        new = self.value - amount
        return replace(self, value=new), self._entry(new, reason)

    def drain(self, amount: int, reason: str) -> tuple[Self, LedgerEntry]:
        """Take up to `amount` out, stopping at 0 (a loss, not a spend)."""
        _check_amount(amount)
        new = max(0, self.value - amount)
        return replace(self, value=new), self._entry(new, reason)

    def set_to(self, value: int, reason: str) -> tuple[Self, LedgerEntry]:
        """Reset to `value` (a session start, a GM correction)."""
        new = type(self)(value, self.holder)  # validates the bounds
        return new, self._entry(value, reason)


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise PoolOutOfBounds("An amount of Momentum must be a whole number, 0 or more.")
