"""Pool ledger shared by both Momentum economies (MO, PM).

Every operation on a pool returns the new pool and LedgerEntry lines saying
who changed what, by how much and why, and how much a cap swallowed. A
service writes each entry as one PoolChange row; the entries' deltas always
add up to the pool's change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Self

from rules.errors import gettext_noop

from . import pools
from .errors import RulesError

# Pool names and refusals live with the caps in rules.pools; re-exported here.
from .pools import DETERMINATION as DETERMINATION
from .pools import GROUP_MOMENTUM as GROUP_MOMENTUM
from .pools import MOMENTUM as MOMENTUM
from .pools import THREAT as THREAT
from .pools import NotEnoughInPool as NotEnoughInPool
from .pools import PoolOutOfBounds as PoolOutOfBounds
from .sentences import Reason, english

# Actor roles an operation may be asked to act for.
GM = "gm"
PLAYER = "player"
ROLES = (GM, PLAYER)


class UnknownRole(RulesError):
    """An actor role other than "gm" or "player"."""


def check_role(actor: str) -> str:
    if actor not in ROLES:
        raise UnknownRole(
            gettext_noop("Only the GM or a player can do that (not %(actor)r)."), actor=actor
        )
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
    reason_words: dict | None = None  # the reason as a sentence (rules/sentences.py)

    @property
    def requested(self) -> int:
        """The change the operation asked for: what applied plus what the cap took."""
        return self.delta + self.lost


def total_delta(entries, pool: str, holder: str | None = None) -> int:
    """Sum of the deltas the entries make to one pool (of one holder)."""
    return sum(e.delta for e in entries if e.pool == pool and e.holder == holder)


@dataclass(frozen=True)
class Pool:
    """A bounded counter: 0 ≤ value ≤ cap (no cap when cap is None).

    Subclasses name the pool; its cap comes from rules.pools, which also works
    out every change. Operations return (new pool, entry) and never change
    self, so a refused operation changes nothing.
    """

    value: int = 0
    holder: str | None = None
    # The game line's cap for pools it may set (rules.pools.LINE_CAPPED, GL-01); None: default.
    own_cap: int | None = None

    pool: ClassVar[str] = ""
    label: ClassVar[str] = "the pool"

    def __post_init__(self) -> None:
        pools.check_value(self.pool, self.value, self.own_cap, title=self.title())

    @property
    def cap(self) -> int | None:
        return pools.cap_of(self.pool, self.own_cap)

    def title(self) -> str:
        if self.holder:
            return f"{self.holder}'s {self.label}"
        return self.label[:1].upper() + self.label[1:]

    def _entry(self, new: int, reason: Reason, lost: int = 0) -> LedgerEntry:
        sentence = reason if isinstance(reason, dict) else None
        delta = new - self.value
        return LedgerEntry(self.pool, self.holder, delta, english(reason), lost, new, sentence)

    def _step(self, delta: int, reason: Reason, **kw) -> tuple[Self, LedgerEntry]:
        step = pools.change(
            self.pool, self.value, delta, own_cap=self.own_cap, title=self.title(), **kw
        )
        return replace(self, value=step.after), self._entry(step.after, reason, lost=step.lost)

    def gain(self, amount: int, reason: Reason) -> tuple[Self, LedgerEntry]:
        """Add `amount`; what does not fit under the cap is lost and reported."""
        _check_amount(amount)
        return self._step(amount, reason)

    def spend(self, amount: int, reason: Reason) -> tuple[Self, LedgerEntry]:
        """Take `amount` out; refused when the pool holds less."""
        _check_amount(amount)
        return self._step(-amount, reason)

    def drain(self, amount: int, reason: Reason) -> tuple[Self, LedgerEntry]:
        """Take up to `amount` out, stopping at 0 (a loss, not a spend)."""
        _check_amount(amount)
        return self._step(-amount, reason, stop_at_floor=True)

    def set_to(self, value: int, reason: Reason) -> tuple[Self, LedgerEntry]:
        """Reset to `value` (a session start, a GM correction)."""
        new = type(self)(value, self.holder, self.own_cap)  # validates the bounds
        return new, self._entry(value, reason)


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise PoolOutOfBounds(
            gettext_noop("An amount of Momentum must be a whole number, 0 or more.")
        )
