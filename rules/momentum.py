"""Group Momentum and Threat (MO-01 … MO-14, CT-R1).

The group pool and Threat are frozen Pools; a MomentumSpendLedger follows one
passed test's Momentum from the GM's narration to its resolution. Every
operation returns new states plus LedgerEntry lines; nothing is mutated, so
a refused operation changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import ClassVar

from rules.errors import gettext_noop

from .d20 import MAX_BOUGHT_DICE, SkillTestResult
from .errors import RulesError
from .ledger import (
    GM,
    GROUP_MOMENTUM,
    THREAT,
    LedgerEntry,
    Pool,
    check_role,
)
from .pools import GROUP_POOL_MAX as GROUP_POOL_MAX  # MO-06, defined in rules.pools
from .sentences import counted, english, words

PLAYERS_SIDE = "players"
GM_SIDE = "gm"


class MomentumError(RulesError):
    """Base for refusals of the group economy."""


class TooManyDice(MomentumError):
    """More than three bonus d20s, or a negative number (MO-08)."""


class ThreatIsTheGMs(MomentumError):
    """A player tried to spend Threat (MO-13)."""


class SpendRefused(MomentumError):
    """A Momentum spend the rules do not allow on this test."""


@dataclass(frozen=True)
class GroupPool(Pool):
    """The players' shared Momentum pool, 0–6 (MO-06)."""

    pool: ClassVar[str] = GROUP_MOMENTUM
    label: ClassVar[str] = "the group Momentum pool"


@dataclass(frozen=True)
class Threat(Pool):
    """The GM's pool, 0 or more. Anyone adds to it; only the GM spends it (MO-13)."""

    pool: ClassVar[str] = THREAT
    label: ClassVar[str] = "Threat"

    def add(self, amount: int, reason: str) -> tuple[Threat, LedgerEntry]:
        """Players (or the GM) add to Threat (MO-08, MO-13)."""
        return self.gain(amount, reason)

    def spend(self, amount: int, reason: str, *, actor: str) -> tuple[Threat, LedgerEntry]:
        """Only the GM spends Threat (MO-13)."""
        if check_role(actor) != GM:
            raise ThreatIsTheGMs(
                gettext_noop("Only the GM can spend Threat; players can only add to it.")
            )
        return super().spend(amount, reason)


def end_scene(pool: GroupPool) -> tuple[GroupPool, tuple[LedgerEntry, ...]]:
    """MO-07: the group pool loses 1 at the end of a scene, not below 0."""
    if pool.value == 0:
        return pool, ()
    new, entry = pool.drain(1, "Scene end: 1 Momentum fades from the group pool")
    return new, (entry,)


# --- buying d20s (MO-08) ---------------------------------------------------


def d20_purchase_cost(dice: int) -> int:
    """MO-08: the 1st bonus d20 costs 1, the 2nd 2, the 3rd 3 (0, 1, 3, 6 in all)."""
    if isinstance(dice, bool) or not isinstance(dice, int) or dice < 0:
        raise TooManyDice(gettext_noop("The number of bonus d20s must be 0 to 3."))
    if dice > MAX_BOUGHT_DICE:
        raise TooManyDice(
            gettext_noop("At most %(max_bought_dice)s bonus d20s may be bought for one test."),
            max_bought_dice=MAX_BOUGHT_DICE,
        )
    return dice * (dice + 1) // 2


@dataclass(frozen=True)
class D20Purchase:
    dice: int
    cost: int
    from_momentum: int
    to_threat: int
    threat_spent: int
    momentum: Pool | None
    threat: Threat
    entries: tuple[LedgerEntry, ...]


def buy_d20s(
    dice: int,
    *,
    actor: str,
    threat: Threat,
    momentum: Pool | None = None,
    from_momentum: int = 0,
    gm_pool: str = "Threat",
) -> D20Purchase:
    """MO-08, MO-13: buy bonus d20s before the roll, after the Difficulty is set.

    A player pays `from_momentum` from `momentum` (the group pool, or a
    character's own pool in a personal economy) and the rest by adding the
    same amount to Threat. The GM buying for an NPC pays it all from Threat.
    `gm_pool`: the game line's name for Threat in the ledger's reason (GL-01).
    """
    cost = d20_purchase_cost(dice)
    # The pair is marked for the catalogue in tables/words/said.py (a plural entry).
    reason = counted(dice, "Buy %(n)s bonus d20 (MO-08)", "Buy %(n)s bonus d20s (MO-08)")
    paid = pay_points(cost, reason, actor, threat, momentum, from_momentum, gm_pool)
    return replace(paid, dice=dice)


def pay_for_assistants(
    extra: int,
    *,
    actor: str,
    threat: Threat,
    momentum: Pool | None = None,
    from_momentum: int = 0,
    gm_pool: str = "Threat",
) -> D20Purchase:
    """GL-06: each assistant beyond those a line lets in free (STA 2nd ed.: the first)
    costs 1 Momentum or adds 1 Threat, paid before the roll as MO-08's dice are; the GM
    pays an NPC's from Threat. `extra` is how many are paid for (`dice` stays 0)."""
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
        raise SpendRefused(gettext_noop("The number of assistants paid for is a whole number."))
    reason = counted(
        extra, "%(n)s assistant after the first (GL-06)", "%(n)s assistants after the first (GL-06)"
    )
    return pay_points(extra, reason, actor, threat, momentum, from_momentum, gm_pool)


def pay_points(
    cost: int,
    reason: str,
    actor: str,
    threat: Threat,
    momentum: Pool | None,
    from_momentum: int,
    gm_pool: str,
) -> D20Purchase:
    """Pay `cost` before a roll (MO-08, MO-13, GL-06): a player `from_momentum` from
    `momentum`, the rest added to Threat; the GM all of it from Threat."""
    check_role(actor)
    gm_words = words(gm_pool)  # the line's name: a message id the site words
    entries: list[LedgerEntry] = []
    if actor == GM:
        if from_momentum:
            raise SpendRefused(gettext_noop("The GM buys an NPC's dice with Threat, not Momentum."))
        new_threat, entry = threat.spend(cost, reason, actor=GM) if cost else (threat, None)
        return D20Purchase(0, cost, 0, 0, cost, momentum, new_threat, (entry,) if entry else ())
    if isinstance(from_momentum, bool) or not isinstance(from_momentum, int):
        raise SpendRefused(gettext_noop("Momentum paid must be a whole number."))
    if not 0 <= from_momentum <= cost:
        raise SpendRefused(
            gettext_noop("Pay between 0 and %(cost)s of the %(cost)s from Momentum."), cost=cost
        )
    new_momentum = momentum
    if from_momentum:
        if momentum is None:
            raise SpendRefused(gettext_noop("Say which Momentum pool pays for the dice."))
        new_momentum, entry = momentum.spend(from_momentum, reason)
        entries.append(entry)
    to_threat = cost - from_momentum
    new_threat = threat
    if to_threat:
        paid_in = words(gettext_noop("%(reason)s, paid in %(pool)s"), reason=reason, pool=gm_words)
        new_threat, entry = threat.add(to_threat, paid_in)
        entries.append(entry)
    return D20Purchase(
        0, cost, from_momentum, to_threat, 0, new_momentum, new_threat, tuple(entries)
    )


# --- the spend catalogue (MO-03, MO-09 … MO-11, MO-14) ------------------------


@dataclass(frozen=True)
class SpendKind:
    """One kind of Momentum spend: cost per use, and whether it may repeat (MO-03)."""

    key: str
    name: str
    cost: int
    repeatable: bool = False
    description: str = ""
    custom: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise SpendRefused(gettext_noop("A spend needs a name."))
        if isinstance(self.cost, bool) or not isinstance(self.cost, int) or self.cost < 1:
            raise SpendRefused(gettext_noop("A spend costs at least 1 Momentum."))


CREATE_TRAIT = SpendKind(
    "create_trait",
    gettext_noop("Create Trait"),
    2,
    description=gettext_noop("Create, change or remove a trait tied to the action (MO-09)."),
)
CREATE_ASSET = SpendKind(
    "create_asset",
    gettext_noop("Create Asset"),
    2,
    description=gettext_noop("A Quality 0 asset that lasts to the end of the scene (MO-10)."),
)
MAKE_ASSET_PERMANENT = SpendKind(
    "make_asset_permanent",
    gettext_noop("Make asset permanent"),
    2,
    description=gettext_noop("A scene's asset joins the character sheet at Quality 0 (MO-10)."),
)
OBTAIN_INFORMATION = SpendKind(
    "obtain_information",
    gettext_noop("Obtain Information"),
    1,
    repeatable=True,
    description=gettext_noop("Ask the GM one question; “you don't know” refunds it (MO-11)."),
)
STANDARD_SPENDS = (CREATE_TRAIT, CREATE_ASSET, MAKE_ASSET_PERMANENT, OBTAIN_INFORMATION)
# SC-02: a conflict spend, offered only on lines whose book has it (GameLine.bonus_damage):
# each point adds 1 to a successful attack's damage; a veto refunds it like any (MO-12).
BONUS_DAMAGE = SpendKind(
    "bonus_damage",
    gettext_noop("Bonus Damage"),
    1,
    repeatable=True,
    description=gettext_noop("+1 damage to this successful attack per point (SC-02)."),
)
# SC-03, Dune ("Extended Tasks": points "increased by spending Momentum"): each point
# adds 1 to what the test scores toward the extended task it is linked to.
TASK_POINTS = SpendKind(
    "task_points",
    gettext_noop("Extended task: +1 point"),
    1,
    repeatable=True,
    description=gettext_noop("+1 point toward the extended task this test counts for (SC-03)."),
)


def custom_spend(
    name: str, cost: int, repeatable: bool = False, description: str = ""
) -> SpendKind:
    """MO-14: a spend the GM defines, with a cost and whether it repeats."""
    slug = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return SpendKind(f"custom:{slug}", name.strip(), cost, repeatable, description, custom=True)


def spend_catalogue(custom=(), line_spends=()) -> dict[str, SpendKind]:
    """Standard spends, the line's own (SC-02's Bonus Damage), then the GM's custom ones,
    by key."""
    catalogue = {kind.key: kind for kind in (*STANDARD_SPENDS, *line_spends)}
    for kind in custom:
        if kind.key in catalogue:
            raise SpendRefused(
                gettext_noop("There is already a spend called %(kind)r."), kind=kind.name
            )
        catalogue[kind.key] = kind
    return catalogue


# --- one test's Momentum (MO-02 … MO-05, MO-11, MO-12, CT-R1) ------------------


@dataclass(frozen=True)
class Spend:
    """One use of a spend kind and where each point came from."""

    index: int
    kind: SpendKind
    from_roll: int = 0
    from_bonus: int = 0
    from_pool: int = 0
    to_threat: int = 0
    note: str = ""
    refunded: bool = False
    refund_reason: str = ""
    # MO-11, MO-12: of `from_pool`, what a refund gave the test's Momentum instead,
    # because the group pool had filled meanwhile.
    back_to_test: int = 0

    @property
    def points(self) -> int:
        return self.from_roll + self.from_bonus + self.from_pool + self.to_threat


@dataclass(frozen=True)
class SpendOutcome:
    ledger: MomentumSpendLedger
    spend: Spend
    pool: Pool | None
    threat: Threat | None
    entries: tuple[LedgerEntry, ...]


@dataclass(frozen=True)
class Resolution:
    """MO-04, MO-05, CT-R1: where a test's unspent Momentum went."""

    ledger: MomentumSpendLedger
    pool: Pool | None
    threat: Threat | None
    saved: int
    lost_overflow: int
    lost_bonus: int
    lost_unsaved: int
    entries: tuple[LedgerEntry, ...]

    @property
    def lost(self) -> int:
        return self.lost_overflow + self.lost_bonus + self.lost_unsaved

    def summary(self) -> str:
        return resolution_summary(
            self.ledger.side, self.saved, self.lost_overflow, self.lost_bonus, self.lost_unsaved
        )


def resolution_summary(
    side: str,
    saved: int,
    lost_overflow: int,
    lost_bonus: int,
    lost_unsaved: int,
    *,
    group_pool: str = "Momentum",
    gm_pool: str = "Threat",
) -> str:
    """MO-04, MO-05, CT-R1: where a test's unspent Momentum went, as a player reads it.

    The one wording of a resolution: a service feeds it what it wrote, so the
    text always matches the ledger lines. `group_pool`, `gm_pool`: the game line's names
    for the pools (GL-01).
    """
    parts = []
    if saved:
        where = gm_pool if side == GM_SIDE else "the group pool"
        parts.append(f"{saved} saved to {where}")
    if lost_overflow:
        parts.append(f"{lost_overflow} lost (pool full)")
    if lost_bonus:
        parts.append(f"{lost_bonus} bonus {group_pool} lost")
    if lost_unsaved:
        parts.append(f"{lost_unsaved} lost")
    return "; ".join(parts) or "nothing left to save"


@dataclass(frozen=True)
class MomentumSpendLedger:
    """The Momentum of one passed test, spent one use at a time (MO-02).

    `roll_momentum` and `bonus_momentum` are what is left to spend; bonus
    Momentum may be restricted to some spend keys (MO-05). `side` is
    "players" (unspent Momentum saves to the group pool) or "gm" for a GM
    character (CT-R1: to Threat). The group pool is not held here: each call
    takes its current value, so other tests may use it meanwhile.
    """

    roll_momentum: int = 0
    bonus_momentum: int = 0
    bonus_restricted_to: frozenset[str] | None = None
    passed: bool = True
    side: str = PLAYERS_SIDE
    holder: str | None = None
    spends: tuple[Spend, ...] = ()
    resolved: bool = False

    def __post_init__(self) -> None:
        if self.side not in (PLAYERS_SIDE, GM_SIDE):
            raise SpendRefused(gettext_noop("Unknown side %(side)r."), side=self.side)
        for value in (self.roll_momentum, self.bonus_momentum):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SpendRefused(
                    gettext_noop("Momentum to spend must be a whole number, 0 or more.")
                )
        if self.bonus_restricted_to is not None:
            object.__setattr__(self, "bonus_restricted_to", frozenset(self.bonus_restricted_to))

    @classmethod
    def for_result(
        cls, result: SkillTestResult, *, side: str = PLAYERS_SIDE, holder: str | None = None
    ) -> MomentumSpendLedger:
        """Open the ledger of a scored test (MO-01, MO-05)."""
        return cls(
            roll_momentum=result.momentum,
            bonus_momentum=result.bonus_momentum,
            bonus_restricted_to=result.test.bonus_restricted_to,
            passed=result.passed,
            side=side,
            holder=holder,
        )

    # queries

    def bonus_allowed(self, kind: SpendKind) -> bool:
        return self.bonus_restricted_to is None or kind.key in self.bonus_restricted_to

    def used(self, kind: SpendKind) -> bool:
        """Whether a once-per-test spend has been used (a refunded use does not count)."""
        return any(s.kind.key == kind.key and not s.refunded for s in self.spends)

    def can_use(self, kind: SpendKind) -> bool:
        return self.passed and not self.resolved and (kind.repeatable or not self.used(kind))

    def available(self, kind: SpendKind, pool: Pool | None = None) -> int:
        """Points this test could put towards `kind` right now, pool included."""
        own = self.roll_momentum + (self.bonus_momentum if self.bonus_allowed(kind) else 0)
        return own + (pool.value if pool is not None and self.side == PLAYERS_SIDE else 0)

    # operations

    def _check_open(self) -> None:
        if self.resolved:
            raise SpendRefused(gettext_noop("This test's Momentum has already been resolved."))
        if not self.passed:
            raise SpendRefused(gettext_noop("Momentum improves a passed test; this test failed."))

    def _check_spend(
        self, kind: SpendKind, from_pool: int | None, to_threat: int, threat: Threat | None
    ) -> None:
        """Refuse a spend this test cannot make, before any cost is shared out."""
        self._check_open()
        if not kind.repeatable and self.used(kind):
            raise SpendRefused(
                gettext_noop("%(kind)s can be used only once per test (MO-03)."), kind=kind.name
            )
        for value, what in ((to_threat, "Threat paid"), (from_pool or 0, "pool points")):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SpendRefused(
                    gettext_noop("The %(what)s must be a whole number, 0 or more."), what=what
                )
        if to_threat and self.side == GM_SIDE:
            raise SpendRefused(
                gettext_noop("A GM character pays with Threat by spending it, not adding to it.")
            )
        if to_threat and threat is None:
            raise SpendRefused(gettext_noop("Give the current Threat to pay in Threat."))
        if to_threat > kind.cost:
            raise SpendRefused(
                gettext_noop("%(kind)s costs %(cost)s; pay no more than that in Threat."),
                kind=kind.name,
                cost=kind.cost,
            )

    def _share_cost(
        self, kind: SpendKind, pool: Pool | None, from_pool: int | None, to_threat: int
    ) -> tuple[int, int, int]:
        """What `kind`'s cost, less `to_threat`, takes from bonus, roll and pool Momentum.

        Bonus pays first (where allowed: it cannot be saved), then the roll's own;
        `from_pool` None takes from the pool whatever those do not cover.
        """
        cost = kind.cost
        remaining = cost - to_threat
        bonus = min(self.bonus_momentum, remaining) if self.bonus_allowed(kind) else 0
        remaining -= bonus
        if from_pool is None:
            roll = min(self.roll_momentum, remaining)
            from_pool = remaining - roll
        elif from_pool > remaining:
            raise SpendRefused(
                gettext_noop("%(kind)s costs %(cost)s; take no more than that from the pool."),
                kind=kind.name,
                cost=cost,
            )
        else:
            roll = min(self.roll_momentum, remaining - from_pool)
            if roll + from_pool < remaining:
                raise SpendRefused(
                    gettext_noop(
                        "%(kind)s costs %(cost)s; this test has only %(roll)s Momentum left for it."
                    ),
                    kind=kind.name,
                    cost=cost,
                    roll=roll,
                )
        if from_pool and (self.side == GM_SIDE or pool is None):
            raise SpendRefused(
                gettext_noop(
                    "%(kind)s costs %(cost)s; this test has only %(left)s Momentum left for it."
                ),
                kind=kind.name,
                cost=cost,
                left=bonus + roll,
            )
        return bonus, roll, from_pool

    def spend(
        self,
        kind: SpendKind,
        pool: Pool | None = None,
        *,
        from_pool: int | None = None,
        to_threat: int = 0,
        threat: Threat | None = None,
        note: str = "",
        gm_pool: str = "Threat",
    ) -> SpendOutcome:
        """MO-02, MO-03, MO-05: make one use of `kind`, paying its cost (`gm_pool`: the
        game line's name for Threat in the ledger's reason, GL-01).

        Bonus Momentum pays first (where allowed: it cannot be saved), then
        the roll's own. `from_pool` points come from `pool` (the group pool;
        None: whatever the roll's Momentum does not cover). `to_threat`
        points are paid by adding to Threat (MO-13).
        """
        self._check_spend(kind, from_pool, to_threat, threat)
        bonus, roll, from_pool = self._share_cost(kind, pool, from_pool, to_threat)
        name = kind.name if kind.custom else words(kind.name)  # a GM's own name as typed
        reason = words("%(name)s: %(note)s", name=name, note=note) if note else name
        entries: list[LedgerEntry] = []
        new_pool, new_threat = pool, threat
        if from_pool:
            spent = words(gettext_noop("Spent on %(reason)s"), reason=reason)
            new_pool, entry = pool.spend(from_pool, spent)
            entries.append(entry)
        if to_threat:
            paid = words(
                gettext_noop("Paid in %(pool)s for %(reason)s"), pool=words(gm_pool), reason=reason
            )
            new_threat, entry = threat.add(to_threat, paid)
            entries.append(entry)
        record = Spend(len(self.spends), kind, roll, bonus, from_pool, to_threat, note)
        ledger = replace(
            self,
            roll_momentum=self.roll_momentum - roll,
            bonus_momentum=self.bonus_momentum - bonus,
            spends=self.spends + (record,),
        )
        return SpendOutcome(ledger, record, new_pool, new_threat, tuple(entries))

    def _refund(
        self, index: int, pool: Pool | None, threat: Threat | None, actor: str, why: str
    ) -> SpendOutcome:
        if check_role(actor) != GM:
            raise SpendRefused(gettext_noop("Only the GM can refund a spend."))
        if self.resolved:
            raise SpendRefused(gettext_noop("This test's Momentum has already been resolved."))
        if not 0 <= index < len(self.spends):
            raise SpendRefused(gettext_noop("There is no such spend on this test."))
        spend = self.spends[index]
        if spend.refunded:
            raise SpendRefused(
                gettext_noop("That %(kind)s was already refunded."), kind=spend.kind.name
            )
        if spend.from_pool and pool is None:
            raise SpendRefused(gettext_noop("Give the current group pool to refund into it."))
        if spend.to_threat and threat is None:
            raise SpendRefused(gettext_noop("Give the current Threat to refund the Threat paid."))
        entries: list[LedgerEntry] = []
        new_pool, new_threat = pool, threat
        back_to_test = 0
        if spend.from_pool:
            # MO-11, MO-12: what the pool, filled meanwhile, has no room for is never
            # lost: it goes to the test's Momentum, to be spent again.
            room = spend.from_pool if pool.cap is None else max(0, pool.cap - pool.value)
            back_to_test = max(0, spend.from_pool - room)
            if spend.from_pool - back_to_test:
                refund = words(gettext_noop("Refund: %(why)s"), why=why)
                new_pool, entry = pool.gain(spend.from_pool - back_to_test, refund)
                entries.append(entry)
        if spend.to_threat:
            refund = words(gettext_noop("Refund: %(why)s"), why=why)
            new_threat, entry = threat.drain(spend.to_threat, refund)
            entries.append(entry)
        record = replace(
            spend, refunded=True, refund_reason=english(why), back_to_test=back_to_test
        )
        ledger = replace(
            self,
            roll_momentum=self.roll_momentum + spend.from_roll + back_to_test,
            bonus_momentum=self.bonus_momentum + spend.from_bonus,
            spends=self.spends[:index] + (record,) + self.spends[index + 1 :],
        )
        return SpendOutcome(ledger, record, new_pool, new_threat, tuple(entries))

    def refund_dont_know(
        self,
        index: int,
        pool: Pool | None = None,
        *,
        actor: str,
        threat: Threat | None = None,
    ) -> SpendOutcome:
        """MO-11: the GM answers “you don't know”, so that question's point comes back."""
        if 0 <= index < len(self.spends) and self.spends[index].kind.key != OBTAIN_INFORMATION.key:
            raise SpendRefused(
                gettext_noop("Only an Obtain Information question is refunded this way.")
            )
        why = words(gettext_noop("the answer was “you don't know” (MO-11)"))
        return self._refund(index, pool, threat, actor, why)

    def veto(
        self,
        index: int,
        pool: Pool | None = None,
        *,
        actor: str,
        threat: Threat | None = None,
        reason: str = "",
    ) -> SpendOutcome:
        """MO-12: the GM vetoes a spend; every point goes back where it came from."""
        why = (
            words(gettext_noop("vetoed by the GM: %(reason)s (MO-12)"), reason=reason)
            if reason
            else words(gettext_noop("vetoed by the GM (MO-12)"))
        )
        if check_role(actor) != GM:
            raise SpendRefused(gettext_noop("Only the GM can veto a spend."))
        return self._refund(index, pool, threat, actor, why)

    def _whose(self, holders: str, tests: str, **values) -> dict:
        """The sentence naming the holder ("Kara's unspent …"), or the test's own."""
        if self.holder:
            return words(holders, who=self.holder, **values)
        return words(tests, **values)

    def _save_into_pool(self, pool: Pool | None, group_pool: str) -> tuple[Pool, LedgerEntry]:
        """MO-04: a player's unspent roll Momentum goes to the group pool, up to its cap."""
        if pool is None:
            raise SpendRefused(
                gettext_noop("Give the current group pool to save Momentum into it.")
            )
        reason = self._whose(
            gettext_noop("Saved %(who)s's unspent %(pool)s (MO-04)"),
            gettext_noop("Saved the test's unspent %(pool)s (MO-04)"),
            pool=words(group_pool),
        )
        return pool.gain(self.roll_momentum, reason)

    def _save_into_threat(
        self, threat: Threat | None, group_pool: str, gm_pool: str
    ) -> tuple[Threat, LedgerEntry]:
        """CT-R1: a GM character's unspent Momentum becomes Threat."""
        if threat is None:
            raise SpendRefused(
                gettext_noop("Give the current Threat to save a GM character's Momentum.")
            )
        reason = self._whose(
            gettext_noop("%(who)s's unspent %(pool)s becomes %(gm_pool)s (CT-R1)"),
            gettext_noop("the test's unspent %(pool)s becomes %(gm_pool)s (CT-R1)"),
            pool=words(group_pool),
            gm_pool=words(gm_pool),
        )
        return threat.add(self.roll_momentum, reason)

    def resolve(
        self,
        pool: Pool | None = None,
        *,
        threat: Threat | None = None,
        gm_momentum_to_threat: bool = True,
        group_pool: str = "Momentum",
        gm_pool: str = "Threat",
        save: bool = True,
    ) -> Resolution:
        """MO-04, MO-05, CT-R1: close the test's Momentum (`group_pool`, `gm_pool`: the game
        line's names for the pools in the ledger's reasons, GL-01).

        Players: unspent roll Momentum saves into `pool` up to its cap; what
        does not fit is lost. Bonus Momentum is always lost. A GM character's
        unspent Momentum goes to `threat` under CT-R1 (else it is lost).
        `save` False (MO-R1: a secret test still hidden when its scene ends) saves
        nothing: all the unspent Momentum is lost.
        """
        if self.resolved:
            raise SpendRefused(gettext_noop("This test's Momentum has already been resolved."))
        unspent = self.roll_momentum
        entries: list[LedgerEntry] = []
        new_pool, new_threat = pool, threat
        saved = overflow = unsaved = 0
        if unspent and not save:
            unsaved = unspent
        elif unspent and self.side == PLAYERS_SIDE:
            new_pool, entry = self._save_into_pool(pool, group_pool)
            entries.append(entry)
            saved, overflow = entry.delta, entry.lost
        elif unspent and gm_momentum_to_threat:
            new_threat, entry = self._save_into_threat(threat, group_pool, gm_pool)
            entries.append(entry)
            saved = entry.delta
        else:
            unsaved = unspent
        ledger = replace(self, roll_momentum=0, bonus_momentum=0, resolved=True)
        return Resolution(
            ledger,
            new_pool,
            new_threat,
            saved,
            overflow,
            self.bonus_momentum,
            unsaved,
            tuple(entries),
        )
