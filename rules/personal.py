"""Personal Momentum (PM-01 … PM-13).

Each character holds a PersonalMomentum pool (0–6). settle_roll_momentum()
decides, before a roll, whether Advantage and Disadvantage apply, who pays
what, and what the roller gains after the roll. The dice effect itself
(PM-R1: +1d / −1d) belongs to rules.d6. Every change comes back as
LedgerEntry lines with a reason (PM-13).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from rules.errors import gettext_noop

from .errors import RulesError
from .ledger import MOMENTUM, LedgerEntry, Pool
from .pools import PERSONAL_MOMENTUM_MAX, SESSION_START_MOMENTUM  # PM-04, PM-01
from .sentences import Reason, counted, english, words

ASSIST_COST = 1  # PM-08


class PersonalMomentumError(RulesError):
    """Base for refusals of the personal economy."""


class AssistRefused(PersonalMomentumError):
    """An Assist the rules do not allow (PM-08 … PM-10, PM-12)."""


class AdvantageSource(StrEnum):
    """Where an Advantage comes from; the value is what the log shows."""

    CHARACTERISTIC = "characteristic"
    BOON = "boon"
    SITUATIONAL = "situational"


# PM-05: a characteristic costs 2; a Boon or a GM-called situational edge 1.
ADVANTAGE_COST = {
    AdvantageSource.CHARACTERISTIC: 2,
    AdvantageSource.BOON: 1,
    AdvantageSource.SITUATIONAL: 1,
}

_SOURCE_LABEL = {
    AdvantageSource.CHARACTERISTIC: gettext_noop("a characteristic"),
    AdvantageSource.BOON: gettext_noop("a Boon"),
    AdvantageSource.SITUATIONAL: gettext_noop("a situational edge"),
}


@dataclass(frozen=True)
class PersonalMomentum(Pool):
    """One character's Momentum, 0–6 (PM-04); `holder` names the character."""

    pool: ClassVar[str] = MOMENTUM
    label: ClassVar[str] = "Momentum"


def start_session(pool: PersonalMomentum) -> tuple[PersonalMomentum, tuple[LedgerEntry, ...]]:
    """PM-01: every character starts a session at 3; nothing carries over."""
    if pool.value == SESSION_START_MOMENTUM:
        return pool, ()
    new, entry = pool.set_to(SESSION_START_MOMENTUM, "Session start: Momentum resets to 3 (PM-01)")
    return new, (entry,)


def gain_momentum(
    pool: PersonalMomentum, amount: int, reason: Reason, *, creation: bool = False
) -> tuple[PersonalMomentum, tuple[LedgerEntry, ...]]:
    """PM-04, PM-12: add Momentum up to 6, the excess lost and logged; none in creation."""
    if creation or amount == 0:
        return pool, ()
    new, entry = pool.gain(amount, reason)
    if entry.lost:
        capped = words(
            gettext_noop("%(reason)s; %(lost)s lost above the cap of %(cap)s (PM-04)"),
            reason=reason,
            lost=entry.lost,
            cap=PERSONAL_MOMENTUM_MAX,
        )
        entry = LedgerEntry(
            entry.pool, entry.holder, entry.delta, english(capped), entry.lost, entry.after, capped
        )
    return new, (entry,)


def suffer_trauma(
    pool: PersonalMomentum, points: int, *, creation: bool = False
) -> tuple[PersonalMomentum, tuple[LedgerEntry, ...]]:
    """PM-03: +1 Momentum per trauma point inflicted (none during creation, PM-12)."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise PersonalMomentumError(
            gettext_noop("Trauma points must be a whole number, 0 or more.")
        )
    reason = counted(
        points, "Suffered %(n)s trauma point (PM-03)", "Suffered %(n)s trauma points (PM-03)"
    )
    return gain_momentum(pool, points, reason, creation=creation)


def advantage_cost(sources) -> tuple[AdvantageSource | None, int]:
    """PM-05, PM-06: several sources give one Advantage at the cheapest cost."""
    try:
        sources = [AdvantageSource(s) for s in sources]
    except ValueError as error:
        raise PersonalMomentumError(
            gettext_noop("Unknown source of Advantage: %(error)s"), error=error
        ) from None
    if not sources:
        return None, 0
    cheapest = min(sources, key=ADVANTAGE_COST.__getitem__)
    return cheapest, ADVANTAGE_COST[cheapest]


@dataclass(frozen=True)
class AssistOffer:
    """Another character offering to fund the roller's Advantage (PM-08 … PM-10).

    `helper_agreed`: the helper's player (the GM for an NPC) agreed to pay: the helper
    *may* pay (PM-08), so nobody else's word spends their Momentum.
    `structured_time`: the roll is made in structured time (PM-09).
    `test_called`: the GM called a test from the helper (PM-10);
    `test_passed` is its result, needed before the roll.
    """

    helper: PersonalMomentum
    gm_accepted: bool = False
    structured_time: bool = False
    test_called: bool = False
    test_passed: bool | None = None
    helper_agreed: bool = False

    @property
    def lands(self) -> bool:
        """PM-10: help whose called test failed never lands; any other help does."""
        return not (self.test_called and not self.test_passed)


@dataclass(frozen=True)
class RollMomentum:
    """What a roll's Advantage and Disadvantage cost and earn (PM-02 … PM-12).

    `advantage` / `disadvantage` say what applies to the dice after
    cancellation (PM-11). `roller` is the roller's pool after paying and
    after the post-roll gain; `payment_entries` happen before the roll,
    `gain_entries` after it. `assisted`: the helper funded the Advantage;
    `assist_landed`: an ally's help counts on this roll (funded, cancelling a
    Disadvantage, or beside the roller's own Advantage), so the ally may spend
    Resolve on it (RS-01); `assist_failed`: the helper's called test failed (PM-10).
    """

    advantage: bool
    disadvantage: bool
    cancelled: bool
    creation: bool
    advantage_source: AdvantageSource | None
    advantage_cost: int
    advantage_refused: str
    paid: int
    paid_by: str | None
    assisted: bool
    assist_failed: bool
    assist_landed: bool
    assist_uses_action: bool
    gain_after_roll: int
    roller: PersonalMomentum
    helper: PersonalMomentum | None
    payment_entries: tuple[LedgerEntry, ...]
    gain_entries: tuple[LedgerEntry, ...]

    @property
    def entries(self) -> tuple[LedgerEntry, ...]:
        return self.payment_entries + self.gain_entries


def _check_assists(assists, roller: PersonalMomentum, creation: bool) -> AssistOffer | None:
    assists = tuple(assists)
    if len(assists) > 1:
        raise AssistRefused(
            gettext_noop("Only one Assist per roll: one ally can fund a given roll (PM-08).")
        )
    if not assists:
        return None
    assist = assists[0]
    helper = assist.helper
    if creation:
        raise AssistRefused(
            gettext_noop("No Assists during character creation: no Momentum is spent (PM-12).")
        )
    if helper.holder is not None and helper.holder == roller.holder:
        raise AssistRefused(
            gettext_noop("An Assist comes from another character, not the roller (PM-08).")
        )
    if not assist.gm_accepted:
        raise AssistRefused(
            gettext_noop("The GM has to accept the Assist before it counts (PM-08).")
        )
    if not assist.helper_agreed:
        raise AssistRefused(
            gettext_noop("%(helper)s has not agreed to pay for this Assist (PM-08)."),
            helper=helper.holder or "The helper",
        )
    if helper.value < ASSIST_COST:
        raise AssistRefused(
            gettext_noop("%(helper)s has no Momentum to lend (PM-08)."),
            helper=helper.holder or "The helper",
        )
    if assist.test_called and assist.test_passed is None:
        raise AssistRefused(
            gettext_noop("The GM called a test from the helper: roll it first (PM-10).")
        )
    return assist


def settle_roll_momentum(
    roller: PersonalMomentum,
    *,
    advantage_sources=(),
    disadvantage: bool = False,
    assists=(),
    creation: bool = False,
) -> RollMomentum:
    """PM-02, PM-05 … PM-12: decide Advantage, Disadvantage, payments and the gain.

    `advantage_sources` are the sources the roller invokes (each an
    AdvantageSource or its value); `assists` holds at most one AssistOffer.
    """
    source, cost = advantage_cost(advantage_sources)
    assist = _check_assists(assists, roller, creation)
    # PM-10: help whose called test failed never lands: it is no Advantage, so it
    # neither cancels a Disadvantage (PM-11) nor stops its gain (PM-02).
    landed = assist is not None and assist.lands
    offered = source is not None or landed
    normal = _normal_roll(roller, source, cost, assist, landed, creation)

    def outcome(**kw) -> RollMomentum:
        return RollMomentum(**{**normal, **kw})

    # PM-11: cancellation comes before Momentum is considered.
    if offered and disadvantage:
        return outcome(cancelled=True)
    # PM-12: in creation Advantage and Disadvantage apply directly, for free.
    if creation:
        return outcome(advantage=offered, disadvantage=disadvantage)
    if disadvantage:
        # PM-02: +1 after the roll, whatever the outcome (capped, PM-04).
        after, gained = gain_momentum(roller, 1, "Rolled with Disadvantage (PM-02)")
        return outcome(disadvantage=True, gain_after_roll=1, roller=after, gain_entries=gained)
    return _pay_for_advantage(roller, source, cost, assist if landed else None, outcome)


def _normal_roll(roller, source, cost, assist, landed: bool, creation: bool) -> dict:
    """The fields of a roll with no Advantage, no Disadvantage and nothing paid, which
    each of settle_roll_momentum's answers changes in a few places."""
    return dict(
        advantage=False,
        disadvantage=False,
        cancelled=False,
        creation=creation,
        advantage_source=source,
        advantage_cost=cost,
        advantage_refused="",
        paid=0,
        paid_by=None,
        assisted=False,
        assist_failed=assist is not None and not landed,
        assist_landed=landed,
        assist_uses_action=assist is not None and assist.structured_time,  # PM-09
        gain_after_roll=0,
        roller=roller,
        helper=assist.helper if assist else None,
        payment_entries=(),
        gain_entries=(),
    )


def _pay_for_advantage(roller, source, cost, landed_assist, outcome) -> RollMomentum:
    """PM-05 … PM-08: who pays for the Advantage invoked, if anyone can (`landed_assist`:
    the Assist offered, if it lands; `outcome` builds the answer from the normal roll)."""
    # PM-06: a landed Assist is a source too (1, from the helper); one that is cheaper
    # than the roller's own funds the Advantage, so the roller pays nothing.
    assist_cheaper = landed_assist is not None and cost > ASSIST_COST
    if source is not None and roller.value >= cost and not assist_cheaper:
        # PM-08: an Assist does not stack on Advantage the roller pays: the helper
        # spends nothing, yet still helps (and may spend Resolve, RS-01).
        label = _SOURCE_LABEL[source]
        reason = words(gettext_noop("Advantage from %(source)s (PM-05)"), source=words(label))
        after, entry = roller.spend(cost, reason)
        return outcome(
            advantage=True, paid=cost, paid_by=roller.holder, roller=after, payment_entries=(entry,)
        )
    refused = ""
    if source is not None and roller.value < cost:
        # PM-07: the source is there but cannot be activated; the roll is normal.
        refused = (
            f"{roller.holder or 'The roller'} has {roller.value} Momentum; Advantage from "
            f"{_SOURCE_LABEL[source]} costs {cost}, so the roll is made normally (PM-07)."
        )
    if landed_assist is None:
        # No Assist, or (PM-10) its test failed: the helper spends nothing.
        return outcome(advantage_refused=refused)
    reason = (
        words(gettext_noop("Assisted %(who)s: funded its Advantage (PM-08)"), who=roller.holder)
        if roller.holder
        else words(gettext_noop("Assisted a roll: funded its Advantage (PM-08)"))
    )
    helper, entry = landed_assist.helper.spend(ASSIST_COST, reason)
    return outcome(
        advantage=True,
        advantage_source=AdvantageSource.SITUATIONAL,
        advantage_cost=ASSIST_COST,
        paid=ASSIST_COST,
        paid_by=helper.holder,
        assisted=True,
        helper=helper,
        payment_entries=(entry,),
    )
