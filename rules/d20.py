"""2d20 skill tests (T-R1, T-R2, T-03, T-04, T-05, MO-01).

A test is described by plain values (SkillTest), rolled with an injected
random source (or given faces) and scored into a SkillTestResult. Chances are
computed exactly by convolving the per-die success distribution.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from rules.errors import gettext_noop

from . import pools
from .errors import RulesError
from .ledger import DETERMINATION, LedgerEntry, NotEnoughInPool
from .sentences import counted, english, words

FACES = 20
BASE_DICE = 2
MAX_BOUGHT_DICE = 3  # MO-08
MAX_SET_DIFFICULTY = 5  # T-R2


class InvalidTest(RulesError):
    """A skill test described with impossible values."""


class RerollRefused(RulesError):
    """A Determination reroll the rules do not allow (T-04)."""


def _whole(value, name: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTest(gettext_noop("The %(name)s must be a whole number."), name=name)
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"between {low} and {high}"
        raise InvalidTest(
            gettext_noop("The %(name)s must be %(span)s (got %(value)s)."),
            name=name,
            span=span,
            value=value,
        )
    return value


def die_successes(face: int, target: int, focus: int = 1) -> int:
    """T-R1: 2 successes at or under focus, 1 at or under target, else 0."""
    if face <= focus:
        return 2
    return 1 if face <= target else 0


def is_complication(face: int, complication_range: int = 1) -> bool:
    """T-R1 ruling: range r makes every face ≥ 21 − r a complication (1 = only 20s)."""
    return face >= FACES + 1 - complication_range


@dataclass(frozen=True)
class Assistant:
    """An ally assisting with one d20 against their own target and focus (T-03)."""

    name: str
    target: int
    focus: int = 1

    def __post_init__(self) -> None:
        _whole(self.target, f"target number of {self.name}", 1)
        _whole(self.focus, f"focus of {self.name}", 1, FACES)


@dataclass(frozen=True)
class SkillTest:
    """Everything decided before a 2d20 skill test is rolled.

    `difficulty` is the GM's 0–5 (T-R2); each factor is +1 (harder) or −1
    (easier) and the final Difficulty never drops below 0. An `opposed` test
    takes its Difficulty from an opposing roll (CT-01), which may exceed 5.
    `bonus_restricted_to` lists the spend keys bonus Momentum may pay for
    (None: any spend) (MO-05).
    """

    target: int
    difficulty: int = 1
    focus: int = 1
    complication_range: int = 1
    factors: tuple[int, ...] = ()
    bought_dice: int = 0
    assistants: tuple[Assistant, ...] = ()
    bonus_momentum: int = 0
    bonus_restricted_to: frozenset[str] | None = None
    assistance_needs_leader_success: bool = True
    opposed: bool = False
    # Determination spent before the roll (rules.game_lines): `ones` dice of the pool show
    # 1 unrolled, first in the faces (GL-02); `extra_dice` joins the pool as one of MO-08's
    # three bonus dice (GL-03: 5d20 in all, whatever adds them).
    ones: int = 0
    extra_dice: int = 0

    def __post_init__(self) -> None:
        _whole(self.ones, "number of dice set to 1", 0, 1)
        _whole(self.extra_dice, "number of Determination dice", 0, 1)
        _whole(self.target, "target number", 1)
        _whole(self.focus, "focus", 1, FACES)
        _whole(self.complication_range, "complication range", 1, FACES)
        high = None if self.opposed else MAX_SET_DIFFICULTY
        _whole(self.difficulty, "Difficulty", 0, high)
        _whole(self.bought_dice, "number of bought dice", 0, MAX_BOUGHT_DICE)
        if self.bought_dice + self.extra_dice > MAX_BOUGHT_DICE:  # GL-03
            raise InvalidTest(
                gettext_noop(
                    "At most %(max_bought_dice)s bonus d20s in all: a die added by Determination "
                    "is one of them (GL-03)."
                ),
                max_bought_dice=MAX_BOUGHT_DICE,
            )
        _whole(self.bonus_momentum, "bonus Momentum", 0)
        object.__setattr__(self, "factors", tuple(self.factors))
        object.__setattr__(self, "assistants", tuple(self.assistants))
        if self.bonus_restricted_to is not None:
            object.__setattr__(self, "bonus_restricted_to", frozenset(self.bonus_restricted_to))
        for factor in self.factors:
            if factor not in (1, -1):
                raise InvalidTest(
                    gettext_noop("Each factor raises (+1) or lowers (−1) the Difficulty by 1.")
                )

    @property
    def dice(self) -> int:
        """Size of the roller's own pool: 2d20 plus bought dice (and a Determination die)."""
        return BASE_DICE + self.bought_dice + self.extra_dice

    @property
    def final_difficulty(self) -> int:
        """T-R2: Difficulty moved by its factors, never below 0."""
        return max(0, self.difficulty + sum(self.factors))


@dataclass(frozen=True)
class SkillTestResult:
    """A scored 2d20 test. Build it with score_test(); never edit by hand.

    `successes` is the total that counts against the Difficulty: own plus
    assistance (the latter only if the leader scored, when the test says so).
    `complications` counts own and assistance dice alike.
    """

    test: SkillTest
    faces: tuple[int, ...]
    assistance_faces: tuple[tuple[int, ...], ...]
    own_successes: int
    assistance_successes: int
    assistance_counted: bool
    successes: int
    difficulty: int
    passed: bool
    momentum: int
    bonus_momentum: int
    own_complications: int
    complications: int
    rerolled: tuple[int, ...] = field(default=())

    @property
    def total_momentum(self) -> int:
        """Generated plus bonus Momentum available to spend (MO-01, MO-05)."""
        return self.momentum + self.bonus_momentum

    @property
    def shortfall(self) -> int:
        """Successes missing to reach the Difficulty (0 when passed)."""
        return max(0, self.difficulty - self.successes)


def _check_faces(faces, count: int, whose: str) -> tuple[int, ...]:
    faces = tuple(faces)
    if len(faces) != count:
        raise InvalidTest(
            gettext_noop("%(whose)s needs %(count)s d20 faces, got %(len)s."),
            whose=whose,
            count=count,
            len=len(faces),
        )
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= FACES:
            raise InvalidTest(gettext_noop("A d20 shows 1 to 20, not %(face)r."), face=face)
    return faces


def _check_test_faces(
    test: SkillTest, faces, assistance_faces
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The roller's faces and each assistant's, refused unless they fit the test."""
    faces = _check_faces(faces, test.dice, "The roller's pool")
    if any(face != 1 for face in faces[: test.ones]):
        raise InvalidTest(gettext_noop("A die set by Determination shows 1 (GL-02, GL-03)."))
    assistance_faces = tuple(assistance_faces)
    if len(assistance_faces) != len(test.assistants):
        raise InvalidTest(
            gettext_noop("Expected dice for %(len)s assistants, got %(len2)s."),
            len=len(test.assistants),
            len2=len(assistance_faces),
        )
    assistance_faces = tuple(
        _check_faces(f, 1, f"{a.name}'s assistance")
        for a, f in zip(test.assistants, assistance_faces, strict=True)
    )
    return faces, assistance_faces


def score_test(
    test: SkillTest, faces, assistance_faces=(), rerolled: tuple[int, ...] = ()
) -> SkillTestResult:
    """Score given faces (T-R1, T-R2, T-03, MO-01).

    `assistance_faces` holds one tuple of one face per assistant, in order.
    """
    faces, assistance_faces = _check_test_faces(test, faces, assistance_faces)
    own = sum(die_successes(f, test.target, test.focus) for f in faces)
    helped = sum(
        die_successes(f, a.target, a.focus)
        for a, fs in zip(test.assistants, assistance_faces, strict=True)
        for f in fs
    )
    # T-03 (standard 2d20): the leader must score for the help to count.
    counted = own >= 1 or not test.assistance_needs_leader_success
    successes = own + (helped if counted else 0)
    difficulty = test.final_difficulty
    passed = successes >= difficulty
    own_comp = sum(is_complication(f, test.complication_range) for f in faces)
    assist_comp = sum(
        is_complication(f, test.complication_range) for fs in assistance_faces for f in fs
    )
    return SkillTestResult(
        test=test,
        faces=faces,
        assistance_faces=assistance_faces,
        own_successes=own,
        assistance_successes=helped,
        assistance_counted=counted,
        successes=successes,
        difficulty=difficulty,
        passed=passed,
        momentum=successes - difficulty if passed else 0,  # MO-01
        bonus_momentum=test.bonus_momentum if passed else 0,  # MO-05
        own_complications=own_comp,
        complications=own_comp + assist_comp,
        rerolled=tuple(rerolled),
    )


def _rng(rng):
    return secrets.SystemRandom() if rng is None else rng


def roll_test(test: SkillTest, rng=None) -> SkillTestResult:
    """Roll the roller's pool (dice set to 1 are not rolled), then each assistant's die,
    and score them."""
    rng = _rng(rng)
    faces = (1,) * test.ones + tuple(rng.randint(1, FACES) for _ in range(test.dice - test.ones))
    assistance = tuple((rng.randint(1, FACES),) for _ in test.assistants)
    return score_test(test, faces, assistance)


def reroll(
    result: SkillTestResult, indices, *, rng=None, faces=None, once: bool = False
) -> SkillTestResult:
    """T-04: reroll chosen dice of the roller's own pool; returns a new result.

    Dice are numbered from 0: the roller's pool first, then assistance dice,
    which can never be rerolled. `faces` gives the new faces (one per index,
    in order); otherwise they are rolled with `rng`. `once` (the 2d20 core's re-roll
    rule, as Dune prints it): a die already rerolled keeps its second result.
    """
    indices = tuple(indices)
    own = len(result.faces)
    assisting = sum(len(fs) for fs in result.assistance_faces)
    if not indices:
        raise RerollRefused(gettext_noop("Choose at least one die to reroll."))
    if len(set(indices)) != len(indices):
        raise RerollRefused(
            gettext_noop("Each die can be rerolled only once per Determination spend.")
        )
    for i in indices:
        if isinstance(i, bool) or not isinstance(i, int) or i < 0 or i >= own + assisting:
            raise RerollRefused(gettext_noop("There is no die #%(i)s in this test."), i=i)
        if i >= own:
            raise RerollRefused(
                gettext_noop(
                    "Assistance dice are not part of your pool and cannot be rerolled (T-04)."
                )
            )
        if i < result.test.ones:
            raise RerollRefused(gettext_noop("A die set to 1 by Determination is not rerolled."))
        if once and i in result.rerolled:
            raise RerollRefused(
                gettext_noop("Die #%(i)s has been rerolled already: its second result stands."), i=i
            )
    if faces is None:
        rng = _rng(rng)
        faces = tuple(rng.randint(1, FACES) for _ in indices)
    new_faces = _check_faces(faces, len(indices), "The reroll")
    pool = list(result.faces)
    for i, face in zip(indices, new_faces, strict=True):
        pool[i] = face
    return score_test(
        result.test,
        pool,
        result.assistance_faces,
        rerolled=tuple(sorted(set(result.rerolled) | set(indices))),
    )


@dataclass(frozen=True)
class DeterminationReroll:
    result: SkillTestResult
    determination: int
    entries: tuple[LedgerEntry, ...]


def determination_reroll(
    result: SkillTestResult,
    indices,
    *,
    determination: int,
    holder: str,
    gm_permits: bool,
    rng=None,
    faces=None,
    once: bool = False,
    most: int | None = None,
    pool_name: str = "Determination",
) -> DeterminationReroll:
    """T-04: spend 1 Determination, with the GM's leave, to reroll own dice (`once`: see
    reroll; `most`: the line's limit on dice per spend, Fallout's Miss Fortune 1;
    `pool_name`: the line's name for the pool, GL-01)."""
    indices = tuple(indices)
    if not gm_permits:
        raise RerollRefused(
            gettext_noop("The GM has not allowed a %(pool_name)s spend on this test."),
            pool_name=pool_name,
        )
    if most is not None and len(indices) > most:
        raise RerollRefused(
            gettext_noop("One spend rerolls at most %(most)s %(dice)s."),
            most=most,
            dice="die" if most == 1 else "dice",
        )
    try:
        step = pools.change(DETERMINATION, determination, -1)
    except NotEnoughInPool:
        raise NotEnoughInPool(
            gettext_noop("%(holder)s has no %(pool_name)s left to spend."),
            holder=holder,
            pool_name=pool_name,
        ) from None
    new = reroll(result, indices, rng=rng, faces=faces, once=once)
    dice = counted(len(indices), "%(n)s die", "%(n)s dice")
    reason = words(gettext_noop("%(pool)s: reroll %(dice)s (T-04)"), pool=words(pool_name),
                   dice=dice)  # fmt: skip
    entry = LedgerEntry(
        DETERMINATION,
        holder,
        step.delta,
        english(reason),
        after=step.after,
        reason_words=reason,
    )
    return DeterminationReroll(new, step.after, (entry,))


# --- exact chances (T-05) -------------------------------------------------


@lru_cache(maxsize=512)
def _die_distribution(target: int, focus: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(0), P(1), P(2) successes on one d20."""
    counts = [0, 0, 0]
    for face in range(1, FACES + 1):
        counts[die_successes(face, target, focus)] += 1
    return tuple(Fraction(c, FACES) for c in counts)


def _convolve(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                out[i + j] += p * q
    return tuple(out)


@lru_cache(maxsize=512)
def _pool_distribution(target: int, focus: int, dice: int) -> tuple[Fraction, ...]:
    """P(k successes) for k = 0 … 2·dice."""
    dist: tuple[Fraction, ...] = (Fraction(1),)
    die = _die_distribution(target, focus)
    for _ in range(dice):
        dist = _convolve(dist, die)
    return dist


def _key(target: int, difficulty: int, dice: int, focus: int) -> tuple[int, int, int, int]:
    _whole(target, "target number", 1)
    _whole(difficulty, "Difficulty", 0)
    _whole(dice, "number of dice", 1)
    _whole(focus, "focus", 1, FACES)
    # Above 20 every face succeeds anyway: share one cache entry.
    return min(target, FACES), difficulty, dice, focus


def _momentum_of(dist: tuple[Fraction, ...], difficulty: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for successes, p in enumerate(dist):
        if p:
            m = successes - difficulty if successes >= difficulty else 0
            out[m] = out.get(m, Fraction(0)) + p
    return out


@lru_cache(maxsize=1024)
def _pass_chance(target: int, difficulty: int, dice: int, focus: int) -> Fraction:
    return sum(_pool_distribution(target, focus, dice)[difficulty:], Fraction(0))


@lru_cache(maxsize=1024)
def _momentum_items(target: int, difficulty: int, dice: int, focus: int):
    return tuple(sorted(_momentum_of(_pool_distribution(target, focus, dice), difficulty).items()))


def pass_chance(target: int, difficulty: int, dice: int = 2, focus: int = 1) -> Fraction:
    """T-05: exact chance that `dice` d20s score at least `difficulty` successes."""
    return _pass_chance(*_key(target, difficulty, dice, focus))


def momentum_distribution(
    target: int, difficulty: int, dice: int = 2, focus: int = 1
) -> dict[int, Fraction]:
    """T-05, MO-01: exact distribution of Momentum generated (0 covers failure too)."""
    return dict(_momentum_items(*_key(target, difficulty, dice, focus)))


def expected_momentum(target: int, difficulty: int, dice: int = 2, focus: int = 1) -> Fraction:
    """T-05: exact expected Momentum generated."""
    return sum(
        (m * p for m, p in _momentum_items(*_key(target, difficulty, dice, focus))), Fraction(0)
    )


@dataclass(frozen=True)
class SkillOdds:
    """Exact odds of a SkillTest, assistance included (T-05)."""

    pass_chance: Fraction
    expected_momentum: Fraction
    momentum: dict[int, Fraction]
    complication_chance: Fraction


@lru_cache(maxsize=1024)  # a session rolls a few tests over and over (its recap asks each)
def success_totals(test: SkillTest) -> tuple[Fraction, ...]:
    """T-03, T-05: exact chance of each total of successes that counts against the
    Difficulty (own dice, plus the assistants' where they count), k = 0, 1, 2 …

    Dice set to 1 by Determination (GL-02, GL-03) are certain: 2 successes each."""
    rolled = test.dice - test.ones
    leader = _pool_distribution(min(test.target, FACES), test.focus, rolled)
    certain = die_successes(1, test.target, test.focus)
    for _ in range(test.ones):
        leader = _convolve(leader, (Fraction(0),) * certain + (Fraction(1),))
    helped: tuple[Fraction, ...] = (Fraction(1),)
    for a in test.assistants:
        helped = _convolve(helped, _pool_distribution(min(a.target, FACES), a.focus, 1))
    total = [Fraction(0)] * (len(leader) + len(helped) - 1)
    for own, p in enumerate(leader):
        counted = own >= 1 or not test.assistance_needs_leader_success
        for extra, q in enumerate(helped):
            total[own + (extra if counted else 0)] += p * q
    return tuple(total)


@lru_cache(maxsize=1024)
def expected_successes(test: SkillTest) -> Fraction:
    """T-05: the exact expected total of successes of `test`, from its own odds: what a
    session's luck measures each roll's successes against."""
    return sum((k * p for k, p in enumerate(success_totals(test))), Fraction(0))


def skill_odds(test: SkillTest) -> SkillOdds:
    """T-05: chance to pass, Momentum distribution and chance of any complication.

    Dice set to 1 by Determination (GL-02, GL-03) are certain: 2 successes each."""
    total = success_totals(test)
    rolled = test.dice - test.ones
    difficulty = test.final_difficulty
    momentum = _momentum_of(total, difficulty)
    dice = rolled + len(test.assistants)
    clean = Fraction(FACES - test.complication_range, FACES) ** dice
    if test.ones and is_complication(1, test.complication_range):
        clean = Fraction(0)  # a range of 20 makes even the set 1 a complication
    return SkillOdds(
        pass_chance=sum(total[difficulty:], Fraction(0)),
        expected_momentum=sum((m * p for m, p in momentum.items()), Fraction(0)),
        momentum=momentum,
        complication_chance=1 - clean,
    )
