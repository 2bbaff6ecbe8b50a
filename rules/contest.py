"""Contests (CT-01 … CT-05, CT-R1).

The opposer rolls first (an ordinary SkillTest at Difficulty 0: only its
successes matter). Those successes, less one per factor hindering the
opposer, set the active character's Difficulty; the active side then buys
dice, calls for assistance and rolls as usual. resolve_contest() says who
won, who gains how much Momentum and which ledgers to open.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import gettext_noop

from .d20 import Assistant, InvalidTest, SkillTest, SkillTestResult
from .momentum import GM_SIDE, PLAYERS_SIDE, MomentumSpendLedger


def contest_difficulty(opposer: SkillTestResult, hindrances: int = 0) -> int:
    """CT-01, CT-02: the opposer's successes, less 1 per hindering factor, not below 0."""
    if isinstance(hindrances, bool) or not isinstance(hindrances, int) or hindrances < 0:
        raise InvalidTest(
            gettext_noop("The number of factors hindering the opposer must be 0 or more.")
        )
    return max(0, opposer.successes - hindrances)


def opposing_test(
    target: int,
    *,
    focus: int = 1,
    complication_range: int = 1,
    bought_dice: int = 0,
    assistants: tuple[Assistant, ...] = (),
    assistance_needs_leader_success: bool = True,
) -> SkillTest:
    """CT-01, CT-05: the opposer's roll, made first; only its successes matter."""
    return SkillTest(
        target=target,
        difficulty=0,
        focus=focus,
        complication_range=complication_range,
        bought_dice=bought_dice,
        assistants=tuple(assistants),
        assistance_needs_leader_success=assistance_needs_leader_success,
    )


def active_test(
    opposer: SkillTestResult,
    target: int,
    *,
    hindrances: int = 0,
    factors: tuple[int, ...] = (),
    focus: int = 1,
    complication_range: int = 1,
    bought_dice: int = 0,
    assistants: tuple[Assistant, ...] = (),
    bonus_momentum: int = 0,
    bonus_restricted_to: frozenset[str] | None = None,
    assistance_needs_leader_success: bool = True,
) -> SkillTest:
    """CT-01, CT-02, CT-05: the active character's test against the opposer's roll.

    `hindrances` counts factors on the opposer (each −1, not below 0);
    `factors` move the final Difficulty as in any test (+1 harder, −1 easier).
    """
    return SkillTest(
        target=target,
        difficulty=contest_difficulty(opposer, hindrances),
        focus=focus,
        complication_range=complication_range,
        factors=tuple(factors),
        bought_dice=bought_dice,
        assistants=tuple(assistants),
        bonus_momentum=bonus_momentum,
        bonus_restricted_to=bonus_restricted_to,
        assistance_needs_leader_success=assistance_needs_leader_success,
        opposed=True,
    )


@dataclass(frozen=True)
class ContestOutcome:
    """Who won a contest and the Momentum each side may now spend.

    `active_ledger` is open when the active character won (CT-03);
    `opposer_ledger` is open when they lost, holding 1 Momentum per success
    short (CT-04). Resolve each with MomentumSpendLedger.resolve(): a GM
    character's side sends unspent Momentum to Threat (CT-R1).
    """

    opposer: SkillTestResult
    active: SkillTestResult
    hindrances: int
    difficulty_set: int
    difficulty: int
    active_won: bool
    active_momentum: int
    opposer_momentum: int
    active_complications: int
    opposer_complications: int
    active_ledger: MomentumSpendLedger | None
    opposer_ledger: MomentumSpendLedger | None


def resolve_contest(
    opposer: SkillTestResult,
    active: SkillTestResult,
    *,
    hindrances: int = 0,
    opposer_is_gm_character: bool = True,
    active_is_gm_character: bool = False,
    opposer_name: str | None = None,
    active_name: str | None = None,
) -> ContestOutcome:
    """CT-01 … CT-05: settle a contest from both scored rolls."""
    difficulty_set = contest_difficulty(opposer, hindrances)
    if not active.test.opposed or active.test.difficulty != difficulty_set:
        raise InvalidTest(
            gettext_noop(
                "The active test must be set against the opposer's Difficulty %(difficulty_set)s."
            ),
            difficulty_set=difficulty_set,
        )
    opposer_side = GM_SIDE if opposer_is_gm_character else PLAYERS_SIDE
    active_side = GM_SIDE if active_is_gm_character else PLAYERS_SIDE
    won = active.passed
    if won:
        # CT-03: Momentum as in any passed test.
        active_ledger = MomentumSpendLedger.for_result(active, side=active_side, holder=active_name)
        opposer_ledger = None
        opposer_momentum = 0
    else:
        # CT-04: 1 per success short, spent at once as if the opposer had passed.
        opposer_momentum = active.shortfall
        active_ledger = None
        opposer_ledger = MomentumSpendLedger(
            roll_momentum=opposer_momentum, passed=True, side=opposer_side, holder=opposer_name
        )
    return ContestOutcome(
        opposer=opposer,
        active=active,
        hindrances=hindrances,
        difficulty_set=difficulty_set,
        difficulty=active.difficulty,
        active_won=won,
        active_momentum=active.momentum,
        opposer_momentum=opposer_momentum,
        active_complications=active.complications,
        opposer_complications=opposer.complications,
        active_ledger=active_ledger,
        opposer_ledger=opposer_ledger,
    )
