"""Every pool's bounds, and the one computation of a change to a pool.

Caps and floors (each defined here and nowhere else):

- group Momentum: 0–6 (MO-06), or the cap the campaign's game line sets
  (rules.game_lines, GL-01), passed as `own_cap`;
- Threat: 0 or more, no cap (MO-13);
- a character's Momentum: 0–6 (PM-04), and 3 at each session start (PM-01);
- a character's Resolve: 0 to that character's maximum, read from the sheet (RS-01);
- a character's Determination: 0 or more; the seeds set no cap (T-04), a game line may
  (GL-02: STA and Dune 3, Fallout the character's LCK), passed as `own_cap`.

`change()` is the only place a gain is clamped to a cap (the excess is lost
and reported, MO-04, PM-04) or a spend is refused below 0. rules.ledger.Pool
and tables.services.core.change_pool both call it, so the rules and what is
written to the database cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import gettext_noop

from .errors import RulesError

# Pool names, spelled as tables.models.PoolChange.Pool spells them.
GROUP_MOMENTUM = "group_momentum"
THREAT = "threat"
MOMENTUM = "momentum"
RESOLVE = "resolve"
DETERMINATION = "determination"

FLOOR = 0  # no pool holds less
GROUP_POOL_MAX = 6  # MO-06
PERSONAL_MOMENTUM_MAX = 6  # PM-04
SESSION_START_MOMENTUM = 3  # PM-01

# The cap lives on the character's sheet (Resolve: resolve_max, RS-01).
PER_CHARACTER = "per character"
# Pools whose cap a 2d20 game line may set (GL-01, GL-02); CAPS holds the default.
LINE_CAPPED = frozenset({GROUP_MOMENTUM})
LINE_CAPPED_PERSONAL = frozenset({DETERMINATION})

CAPS: dict[str, int | str | None] = {
    GROUP_MOMENTUM: GROUP_POOL_MAX,
    THREAT: None,
    MOMENTUM: PERSONAL_MOMENTUM_MAX,
    RESOLVE: PER_CHARACTER,
    DETERMINATION: None,
}
CAMPAIGN_POOLS = (GROUP_MOMENTUM, THREAT)  # one per table
CHARACTER_POOLS = (MOMENTUM, RESOLVE, DETERMINATION)  # one per character


class NotEnoughInPool(RulesError):
    """A spend asks for more than the pool holds; `available` and `needed` say how much."""

    def __init__(
        self, message: str, *, available: int | None = None, needed: int | None = None, **values
    ):
        super().__init__(message, **values)
        self.available = available
        self.needed = needed


class PoolOutOfBounds(RulesError):
    """A pool value outside what the pool may hold."""


def cap_of(pool: str, own_cap: int | None = None) -> int | None:
    """The most `pool` may hold (None: no cap). `own_cap` is the sheet's, for Resolve,
    or the game line's for group Momentum (GL-01; None there: the default, MO-06)."""
    if pool not in CAPS:
        raise ValueError(f"unknown pool {pool!r}")
    cap = CAPS[pool]
    if cap == PER_CHARACTER:
        if own_cap is None:
            raise ValueError(f"the {pool} pool's cap is the character's: pass it")
        return own_cap
    if (pool in LINE_CAPPED or pool in LINE_CAPPED_PERSONAL) and own_cap is not None:
        return own_cap  # rules.game_lines.GameLine checks its cap
    return cap


def check_value(pool: str, value: int, own_cap: int | None = None, *, title: str = "") -> int:
    """`value` if `pool` may hold it, else PoolOutOfBounds (a whole number, 0 … cap)."""
    title = title or "The pool"
    if isinstance(value, bool) or not isinstance(value, int):
        raise PoolOutOfBounds(gettext_noop("%(title)s must hold a whole number."), title=title)
    if value < FLOOR:
        raise PoolOutOfBounds(
            gettext_noop("%(title)s cannot go below %(floor)s."), title=title, floor=FLOOR
        )
    cap = cap_of(pool, own_cap)
    if cap is not None and value > cap:
        raise PoolOutOfBounds(
            gettext_noop("%(title)s holds at most %(cap)s."), title=title, cap=cap
        )
    return value


@dataclass(frozen=True)
class PoolStep:
    """One change worked out: the pool goes `before` → `after` (= before + delta);
    `lost` is what the cap swallowed of the gain asked for."""

    pool: str
    before: int
    after: int
    delta: int
    lost: int
    cap: int | None


def change(
    pool: str,
    current: int,
    delta: int,
    *,
    own_cap: int | None = None,
    stop_at_floor: bool = False,
    title: str = "",
) -> PoolStep:
    """Add `delta` (negative: take) to a pool holding `current` (MO-04, MO-06, PM-04, RS-01).

    A gain beyond the cap fills the pool and the rest is lost (reported, never
    refused). Taking more than the pool holds raises NotEnoughInPool, unless
    `stop_at_floor` (a loss such as a scene's end, MO-07): then it stops at 0.
    `own_cap` is the character's cap for pools that keep it on the sheet.
    """
    check_value(pool, current, own_cap, title=title)
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise PoolOutOfBounds(gettext_noop("A change to a pool must be a whole number."))
    cap = cap_of(pool, own_cap)
    wanted = current + delta
    if wanted < FLOOR:
        if not stop_at_floor:
            raise NotEnoughInPool(
                gettext_noop(
                    "%(pool)s holds %(current)s; this needs %(delta)s. Nothing was spent."
                ),
                pool=title or "The pool",
                current=current,
                delta=-delta,
                available=current,
                needed=-delta,
            )
        wanted = FLOOR
    after = wanted if cap is None else min(cap, wanted)
    return PoolStep(pool, current, after, after - current, wanted - after, cap)
