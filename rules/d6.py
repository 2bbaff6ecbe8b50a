"""Momenta d6 pools: build the pool, roll it, read the band, allocate patterns.

Clauses: D6-01..D6-11, PAT-02..PAT-09, PAT-R1, RS-01 and the dice side of
PM-R1/PM-11. Call `resolve_roll(spec)` for a `RollResult` (faces, successes,
band, the legal pattern allocations and the best one pre-selected), then
`apply_allocation(result, allocation)` for the `AppliedRoll` the roller chose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rules.dice import RandomSource, roll_d6
from rules.errors import RulesError, gettext_noop
from rules.patterns import (
    BUILTIN_PATTERNS,
    KIND_SIZES,
    PLAY_MODES,
    ROLL_KINDS,
    IllegalAllocation,
    Pattern,
    PatternNotApplicable,
    UnknownPattern,
    check_dice,
    fitting_multisets,
    iter_allocations,
    pattern_label,
)
from rules.templates import DEFAULT_TEMPLATE, RollTemplate

THREAD_DICE = 2  # D6-08: an applicable Thread gives +2d, once per roll
ZERO_DICE_ROLLED = 2  # D6-07: a pool of 0 or fewer rolls 2d6 and keeps the lowest
SUCCESS_MIN_FACE = 5  # D6-01: 5 or 6 is a success

Spender = str | int
# A roll-level allocation: sorted (pattern name, face) pairs, e.g. (("Extra Success", 5),).
Allocation = tuple[tuple[str, int], ...]


class InvalidRoll(RulesError):
    """The roll cannot be made as asked (e.g. a Thread on an attack, modifiers on luck)."""


class IllegalRefund(RulesError):
    """Effortless Resolve cannot go back to the chosen characters (PAT-08, RS-01)."""


def count_successes(faces: Sequence[int]) -> int:
    """Each die showing 5 or 6 is one success (D6-01)."""
    return sum(1 for face in faces if face >= SUCCESS_MIN_FACE)


def band_of(effective_successes: int) -> int:
    """Band 0, 1, 2 or 3 (= 3+) read from effective successes (D6-02)."""
    return min(max(effective_successes, 0), 3)


def overflow_of(effective_successes: int) -> int:
    """How often the overflow effect applies: once per effective success above 3 (D6-03)."""
    return max(effective_successes - 3, 0)


def zero_dice_faces_kept(faces: Sequence[int]) -> tuple[int, ...]:
    """A zero-dice roll keeps the lowest of its two dice (D6-07)."""
    return (min(faces),)


def _checked_resolve_spent(resolve_spent) -> tuple[tuple[Spender, int], ...]:
    """RS-01: who spent Resolve on a roll, as (who, how much ≥ 1) pairs."""
    spent = tuple(tuple(entry) for entry in resolve_spent)
    for entry in spent:
        if len(entry) != 2 or not _is_spender(entry[0]):
            raise InvalidRoll(gettext_noop("Resolve spent is a list of (who, how much)."))
        if not _is_int(entry[1]) or entry[1] < 1:
            raise InvalidRoll(
                gettext_noop("%(who)s must spend at least 1 Resolve to be listed."),
                who=entry[0],
            )
    return spent


def _checked_patterns(patterns) -> tuple[Pattern, ...]:
    """A roller's patterns, each a Pattern, no two with one name."""
    patterns = tuple(patterns)
    names = [p.name.casefold() for p in patterns]
    if not all(isinstance(p, Pattern) for p in patterns) or len(set(names)) != len(names):
        raise InvalidRoll(
            gettext_noop("A roll's patterns must be Pattern objects with distinct names.")
        )
    return patterns


@dataclass(frozen=True)
class RollSpec:
    """Everything that decides a Momenta roll before the dice fall.

    attribute:            the attribute's dice (LUCK for a luck roll).
    kind:                 "action", "attack" or "luck" (D6-08, D6-09, D6-11).
    modifiers:            +N / -N dice, netted together (D6-06).
    threads:              how many applicable Threads (any number gives +2d once, D6-08).
    play:                 "narrative" or "structured".
    advantage, disadvantage: PM-R1 (+N / -N dice); both cancel (PM-11).
    advantage_dice:       N of PM-R1, a campaign setting (default 1).
    opposition_successes: successes of an opposition roll already made (D6-10), or
    opposition_pool:      dice of an opposition roll to make now (0 or fewer: D6-07).
    resolve_spent:        ((spender, amount), ...): who spent Resolve on the roll (RS-01).
    template:             band texts, overflow, damage per band (D6-04).
    patterns:             the patterns the roller has (the three built-ins by default).
    stack_extra_success:  PAT-R1 ruling: each repeated Extra Success upgrades one more step.
    """

    attribute: int
    kind: str = "action"
    modifiers: tuple[int, ...] = ()
    threads: int = 0
    play: str = "narrative"
    advantage: bool = False
    disadvantage: bool = False
    advantage_dice: int = 1
    opposition_successes: int | None = None
    opposition_pool: int | None = None
    resolve_spent: tuple[tuple[Spender, int], ...] = ()
    template: RollTemplate = DEFAULT_TEMPLATE
    patterns: tuple[Pattern, ...] = BUILTIN_PATTERNS
    stack_extra_success: bool = True

    def __post_init__(self) -> None:
        _check_count(self.attribute, "The attribute")
        if self.kind not in ROLL_KINDS:
            raise InvalidRoll(
                gettext_noop("A roll is an action, attack or luck roll, not %(kind)r."),
                kind=self.kind,
            )
        if self.play not in PLAY_MODES:
            raise InvalidRoll(
                gettext_noop("Play is narrative or structured, not %(play)r."), play=self.play
            )
        modifiers = tuple(self.modifiers)
        if not all(_is_int(m) for m in modifiers):
            raise InvalidRoll(gettext_noop("Modifiers are whole numbers of dice, like +1 or -2."))
        object.__setattr__(self, "modifiers", modifiers)
        _check_count(self.threads, "The number of Threads")
        _check_count(self.advantage_dice, "Dice per Advantage")
        self._check_opposition()
        object.__setattr__(self, "resolve_spent", _checked_resolve_spent(self.resolve_spent))
        object.__setattr__(self, "patterns", _checked_patterns(self.patterns))
        if not isinstance(self.template, RollTemplate):
            raise InvalidRoll(gettext_noop("The roll template must be a RollTemplate."))
        if self.kind == "luck":
            self._check_straight_luck()
        if self.threads and self.kind == "attack":
            raise InvalidRoll(gettext_noop("Threads never apply to attacks."))
        if self.threads and self.play != "narrative":
            raise InvalidRoll(gettext_noop("Threads apply only in narrative play."))

    def _check_opposition(self) -> None:
        """D6-10: an opposition is either its successes or a pool to roll, never both."""
        if self.opposition_successes is not None:
            _check_count(self.opposition_successes, "Opposition successes")
            if self.opposition_pool is not None:
                raise InvalidRoll(
                    gettext_noop("Give the opposition's successes or its pool, not both.")
                )
        if self.opposition_pool is not None and not _is_int(self.opposition_pool):
            raise InvalidRoll(gettext_noop("The opposition pool is a whole number of dice."))

    def _check_straight_luck(self) -> None:
        """D6-11: a straight roll of LUCK; nothing changes it, nothing opposes it."""
        if any(self.modifiers):
            raise InvalidRoll(
                gettext_noop("A luck roll is a straight roll: no dice modifiers apply.")
            )
        if self.threads:
            raise InvalidRoll(gettext_noop("Threads do not apply to a luck roll."))
        if self.advantage or self.disadvantage:
            raise InvalidRoll(
                gettext_noop("A luck roll is a straight roll: no Advantage or Disadvantage.")
            )
        if self.opposition_successes is not None or self.opposition_pool is not None:
            raise InvalidRoll(gettext_noop("Nothing opposes a luck roll."))

    @property
    def advantage_modifier(self) -> int:
        """PM-R1: Advantage +Nd, Disadvantage -Nd; both on one roll cancel (PM-11)."""
        return self.advantage_dice * (int(bool(self.advantage)) - int(bool(self.disadvantage)))

    @cached_property
    def pool(self) -> int:
        """Net pool: attribute + every modifier netted, Thread and Advantage included (D6-06)."""
        thread = THREAD_DICE if self.threads else 0
        return self.attribute + sum(self.modifiers) + thread + self.advantage_modifier

    @cached_property
    def zero_dice(self) -> bool:
        """A pool of 0 or fewer dice (D6-07)."""
        return self.pool <= 0

    @cached_property
    def dice_rolled(self) -> int:
        return ZERO_DICE_ROLLED if self.zero_dice else self.pool

    @property
    def opposition_dice_rolled(self) -> int:
        if self.opposition_pool is None:
            return 0
        return ZERO_DICE_ROLLED if self.opposition_pool <= 0 else self.opposition_pool

    @cached_property
    def resolve_total(self) -> int:
        return sum(amount for _, amount in self.resolve_spent)

    def to_dict(self) -> dict[str, Any]:
        return {
            "attribute": self.attribute,
            "kind": self.kind,
            "modifiers": list(self.modifiers),
            "threads": self.threads,
            "play": self.play,
            "advantage": self.advantage,
            "disadvantage": self.disadvantage,
            "advantage_dice": self.advantage_dice,
            "opposition_successes": self.opposition_successes,
            "opposition_pool": self.opposition_pool,
            "resolve_spent": [list(entry) for entry in self.resolve_spent],
            "template": self.template.to_dict(),
            "patterns": [p.to_dict() for p in self.patterns],
            "stack_extra_success": self.stack_extra_success,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollSpec:
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidRoll(
                gettext_noop("Unknown roll fields: %(join)s."), join=", ".join(sorted(unknown))
            )
        fields = dict(data)
        if "template" in fields:
            fields["template"] = RollTemplate.from_dict(fields["template"])
        if "patterns" in fields:
            fields["patterns"] = tuple(Pattern.from_dict(p) for p in fields["patterns"])
        try:
            for key in ("modifiers", "resolve_spent"):
                if key in fields:
                    fields[key] = tuple(tuple(v) if isinstance(v, list) else v for v in fields[key])
            return cls(**fields)
        except TypeError as error:
            raise InvalidRoll(
                gettext_noop("This roll's data is malformed (%(error)s)."), error=error
            ) from None


@dataclass(frozen=True)
class RollResult:
    """A rolled Momenta pool, before the roller allocates patterns.

    `allocations` lists every legal allocation (computed on first use: it grows
    fast with the pool); `default_allocation` is the one worth most (PAT-09).
    """

    spec: RollSpec
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    successes: int
    opposition_faces: tuple[int, ...]
    opposition_successes: int
    effective_successes: int
    band: int
    overflow: int
    outcome: str
    damage: int | None
    patterns: tuple[Pattern, ...]
    default_allocation: Allocation

    @property
    def pool(self) -> int:
        return self.spec.pool

    @property
    def zero_dice(self) -> bool:
        return self.spec.zero_dice

    @property
    def graze(self) -> bool:
        """Band 0: the weakest outcome, which still does something (D6-02, D6-10)."""
        return self.effective_successes == 0

    @property
    def overflow_effect(self) -> str | None:
        return self.spec.template.overflow

    @cached_property
    def allocations(self) -> tuple[Allocation, ...]:
        """Every legal allocation to this roll's applicable patterns (PAT-02, PAT-09)."""
        if not self.patterns:
            return ((),)
        sizes = {p.name: p.size for p in self.patterns}
        return tuple(iter_allocations(self.faces, sizes))

    @property
    def available(self) -> tuple[tuple[str, int, int], ...]:
        """(pattern name, face, how many at most) for each pattern the faces allow."""
        counts = Counter(self.faces)
        return tuple(
            (p.name, face, counts[face] // p.size)
            for p in self.patterns
            for face in sorted(counts, reverse=True)
            if counts[face] >= p.size
        )

    def apply(
        self,
        allocation: Sequence[Sequence[Any]] | None = None,
        *,
        refund_to: Sequence[Spender] | None = None,
    ) -> AppliedRoll:
        """Shortcut for `apply_allocation(self, allocation, refund_to=refund_to)`."""
        return apply_allocation(self, allocation, refund_to=refund_to)

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec.to_dict(),
            "pool": self.pool,
            "zero_dice": self.zero_dice,
            "faces": list(self.faces),
            "kept": list(self.kept),
            "successes": self.successes,
            "opposition_faces": list(self.opposition_faces),
            "opposition_successes": self.opposition_successes,
            "effective_successes": self.effective_successes,
            "band": self.band,
            "overflow": self.overflow,
            "overflow_effect": self.overflow_effect,
            "outcome": self.outcome,
            "damage": self.damage,
            "patterns": [p.name for p in self.patterns],
            "default_allocation": [list(entry) for entry in self.default_allocation],
        }


@dataclass(frozen=True)
class TriggeredPattern:
    """One allocated pattern that triggered (PAT-03)."""

    name: str
    kind: str
    face: int
    effect: str
    amount: int
    description: str = ""

    @property
    def label(self) -> str:
        return pattern_label(self.kind, self.face)


@dataclass(frozen=True)
class AppliedRoll:
    """A roll with the roller's allocation applied: the final outcome.

    band/outcome:  after outcome upgrades (Extra Success, PAT-07, PAT-R1).
    damage:        the template's damage at the final band, overflow and pattern bonus
                   included, divided as the template says (D6-05, D6-R1); None without a
                   damage table or off attacks.
    damage_bonus:  harm added by patterns (Solid Hit, PAT-06).
    refunds:       ((spender, amount), ...) of Resolve given back (Effortless, PAT-08).
    texts:         descriptions of triggered patterns whose effect is narrated.
    """

    roll: RollResult
    allocation: Allocation
    triggered: tuple[TriggeredPattern, ...]
    band: int
    upgrade_steps: int
    outcome: str
    damage: int | None
    damage_bonus: int
    refunds: tuple[tuple[Spender, int], ...] = field(default=())
    texts: tuple[str, ...] = field(default=())

    @property
    def overflow(self) -> int:
        return self.roll.overflow

    @property
    def overflow_effect(self) -> str | None:
        return self.roll.overflow_effect

    def to_dict(self) -> dict[str, Any]:
        return {
            "roll": self.roll.to_dict(),
            "allocation": [list(entry) for entry in self.allocation],
            "triggered": [
                {"name": t.name, "label": t.label, "effect": t.effect, "amount": t.amount}
                for t in self.triggered
            ],
            "band": self.band,
            "upgrade_steps": self.upgrade_steps,
            "outcome": self.outcome,
            "damage": self.damage,
            "damage_bonus": self.damage_bonus,
            "refunds": [list(entry) for entry in self.refunds],
            "texts": list(self.texts),
        }


def resolve_roll(
    spec: RollSpec,
    *,
    rng: RandomSource | None = None,
    faces: Sequence[int] | None = None,
    opposition_faces: Sequence[int] | None = None,
) -> RollResult:
    """Roll (or take the given faces of) a Momenta pool and read it (D6-01..D6-11).

    `rng` defaults to the system CSPRNG; `faces` / `opposition_faces` replace
    the dice (tests, replays). A pool of 0 or fewer rolls two dice (D6-07).
    """
    faces = _take_faces(faces, spec.dice_rolled, "faces", rng)
    kept = zero_dice_faces_kept(faces) if spec.zero_dice else faces
    successes = count_successes(kept)
    opp_faces, opposition = _opposition(spec, opposition_faces, rng)
    effective = max(0, successes - opposition)  # D6-10
    band = band_of(effective)
    overflow = overflow_of(effective)
    template = spec.template
    damage = (
        template.harm_dealt(template.damage_at(band, overflow)) if spec.kind == "attack" else None
    )
    applicable = tuple(p for p in spec.patterns if _refusal(p, spec, effective) is None)
    default = _best_allocation(spec, faces, band, applicable)
    return RollResult(
        spec=spec,
        faces=faces,
        kept=kept,
        successes=successes,
        opposition_faces=opp_faces,
        opposition_successes=opposition,
        effective_successes=effective,
        band=band,
        overflow=overflow,
        outcome=template.band_text(band),
        damage=damage,
        patterns=applicable,
        default_allocation=default,
    )


def _opposition(
    spec: RollSpec, opposition_faces: Sequence[int] | None, rng: RandomSource | None
) -> tuple[tuple[int, ...], int]:
    """D6-10: the opposition's faces (rolled now, or none) and its successes."""
    if spec.opposition_pool is not None:
        opp_faces = _take_faces(opposition_faces, spec.opposition_dice_rolled, "opposition", rng)
        opp_kept = zero_dice_faces_kept(opp_faces) if spec.opposition_pool <= 0 else opp_faces
        return opp_faces, count_successes(opp_kept)
    if opposition_faces is not None:
        raise InvalidRoll(
            gettext_noop("Opposition faces were given, but the roll has no opposition pool.")
        )
    return (), spec.opposition_successes or 0


def apply_allocation(
    result: RollResult,
    allocation: Sequence[Sequence[Any]] | None = None,
    *,
    refund_to: Sequence[Spender] | None = None,
) -> AppliedRoll:
    """Trigger the allocated patterns and apply their effects (PAT-02..PAT-08, PAT-R1).

    `allocation` is a sequence of (pattern name, face), or (kind, face) when one
    applicable pattern has that kind; None takes the default (PAT-09).
    `refund_to` names who gets each refunded Resolve point (Effortless: the
    roller chooses among those who spent it); None gives them back in the order
    of `spec.resolve_spent`. Raises an `IllegalAllocation` (or `IllegalRefund`)
    a player can read.
    """
    if allocation is None:
        allocation = result.default_allocation
    uses = [_resolve_entry(result, entry) for entry in allocation]
    check_dice(
        result.faces,
        [(f"{pattern_label(p.kind, face)} ({p.name})", face, p.size) for p, face in uses],
    )
    spec = result.spec
    worth = _worth(spec, result.band, [(p, face) for p, face in uses])
    refunds = _refunds(spec, worth.refund, refund_to)
    final_band = worth.final_band
    bonus = worth.damage
    damage = None
    if spec.kind == "attack":
        base = spec.template.damage_at(final_band, result.overflow)
        # D6-R1: the template's divisor applies to the whole harm, Solid Hit's included.
        damage = None if base is None else spec.template.harm_dealt(base + bonus)
    ordered = sorted(uses, key=lambda use: (use[0].name, use[1]))
    return AppliedRoll(
        roll=result,
        allocation=tuple((p.name, face) for p, face in ordered),
        triggered=tuple(
            TriggeredPattern(p.name, p.kind, face, p.effect, p.amount, p.description)
            for p, face in ordered
        ),
        band=final_band,
        upgrade_steps=final_band - result.band,
        outcome=spec.template.band_text(final_band),
        damage=damage,
        damage_bonus=bonus,
        refunds=refunds,
        texts=tuple(p.description or p.name for p, _ in ordered if p.effect == "text"),
    )


# --- internals --------------------------------------------------------------------------


def _refusal(pattern: Pattern, spec: RollSpec, effective: int) -> str | None:
    return pattern.refusal(
        roll_kind=spec.kind,
        play=spec.play,
        effective_successes=effective,
        resolve_spent=spec.resolve_total > 0,
        harm=spec.template.harm,
        zero_dice=spec.zero_dice,
    )


def _resolve_entry(result: RollResult, entry: Sequence[Any]) -> tuple[Pattern, int]:
    """Turn (pattern name or kind, face) into (Pattern, face), refusing what cannot trigger."""
    if isinstance(entry, str | bytes) or len(entry) != 2:
        raise IllegalAllocation(gettext_noop("Each allocated pattern is a (pattern, face) pair."))
    name, face = entry
    spec = result.spec
    if not isinstance(name, str):
        raise UnknownPattern(gettext_noop("%(name)r is not the name of a pattern."), name=name)
    if not _is_int(face) or not 1 <= face <= 6:
        raise IllegalAllocation(gettext_noop("%(face)r is not a face of a d6."), face=face)
    if spec.zero_dice:
        raise PatternNotApplicable(
            gettext_noop("Patterns do not apply to a roll made with zero dice.")
        )
    key = name.casefold()
    if key in KIND_SIZES:
        return _pattern_of_kind(result, key, face), face
    return _pattern_named(result, name, face), face


def _pattern_of_kind(result: RollResult, kind: str, face: int) -> Pattern:
    """The one applicable pattern of `kind`, refusing none or a choice of several."""
    spec = result.spec
    label = pattern_label(kind, face)
    matches = [p for p in result.patterns if p.kind == kind]
    if not matches:
        refusals = [
            _refusal(p, spec, result.effective_successes) for p in spec.patterns if p.kind == kind
        ]
        reason = f" {refusals[0]}" if refusals else ""
        raise PatternNotApplicable(
            gettext_noop("No pattern for a %(label)s applies to this roll.%(reason)s"),
            label=label,
            reason=reason,
        )
    if len(matches) > 1:
        names = " or ".join(p.name for p in matches)
        raise UnknownPattern(
            gettext_noop("%(label)s could trigger %(names)s: choose one."),
            label=label,
            names=names,
        )
    return matches[0]


def _pattern_named(result: RollResult, name: str, face: int) -> Pattern:
    """The roller's pattern called `name`, refused with its reason if it does not apply."""
    spec = result.spec
    key = name.casefold()
    for pattern in result.patterns:
        if pattern.name.casefold() == key:
            return pattern
    for pattern in spec.patterns:
        if pattern.name.casefold() == key:
            reason = _refusal(pattern, spec, result.effective_successes)
            if reason is not None:
                label = pattern_label(pattern.kind, face)
                raise PatternNotApplicable(
                    gettext_noop("%(label)s (%(pattern)s): %(reason)s"),
                    label=label,
                    pattern=pattern.name,
                    reason=reason,
                )
            return pattern
    raise UnknownPattern(gettext_noop("This roll has no pattern called %(name)r."), name=name)


@dataclass(frozen=True)
class _Worth:
    final_band: int
    damage: int
    refund: int
    texts: int


def _upgrade_steps(spec: RollSpec, amounts: Sequence[int]) -> int:
    """PAT-R1: repeated upgrades add up (ruling on) or only the biggest counts (off)."""
    if not amounts:
        return 0
    return sum(amounts) if spec.stack_extra_success else max(amounts)


def _worth(spec: RollSpec, band: int, uses: Sequence[tuple[Pattern, int]]) -> _Worth:
    """What an allocation does: final band, bonus harm, Resolve back, narrated extras."""
    upgrades = [p.amount for p, _ in uses if p.effect == "outcome_upgrade"]
    damage = sum(
        p.amount * face if p.effect == "damage_per_face" else p.amount
        for p, face in uses
        if p.effect in ("damage_per_face", "damage")
    )
    refund = sum(p.amount for p, _ in uses if p.effect == "resolve_refund")
    return _Worth(
        final_band=min(3, band + _upgrade_steps(spec, upgrades)),
        damage=damage,
        refund=min(refund, spec.resolve_total),  # only Resolve that was spent comes back
        texts=sum(1 for p, _ in uses if p.effect == "text"),
    )


def worth_key(spec: RollSpec, band: int, allocation_uses: Sequence[tuple[Pattern, int]]):
    """PAT-09 ordering (bigger is better): best outcome, then most harm, then most
    Resolve back, then most narrated extras, then fewest dice, then highest faces."""
    w = _worth(spec, band, allocation_uses)
    dice = sorted((face for p, face in allocation_uses for _ in range(p.size)), reverse=True)
    return (w.final_band, w.damage, w.refund, w.texts, -len(dice), tuple(dice))


def _face_option(
    spec: RollSpec, by_name: dict[str, Pattern], combo: Sequence[str], face: int
) -> tuple[tuple[tuple[str, int], ...], int, int, int, int, int]:
    """What triggering the patterns `combo` on dice showing `face` is worth: (uses,
    upgrade steps, Resolve refunded, harm, narrated extras, dice used)."""
    upgrades: list[int] = []
    refund = damage = texts = dice = 0
    for name in combo:
        p = by_name[name]
        dice += p.size
        if p.effect == "outcome_upgrade":
            upgrades.append(p.amount)
        elif p.effect == "resolve_refund":
            refund += p.amount
        elif p.effect == "damage_per_face":
            damage += p.amount * face
        elif p.effect == "damage":
            damage += p.amount
        elif p.effect == "text":
            texts += 1
    uses = tuple((name, face) for name in combo)
    return uses, _upgrade_steps(spec, upgrades), refund, damage, texts, dice


def _best_allocation(
    spec: RollSpec, faces: Sequence[int], band: int, patterns: Sequence[Pattern]
) -> Allocation:
    """The allocation worth most to the roller (PAT-09), without listing them all.

    Dynamic programme over faces 6..1. The state is what saturates (outcome
    upgrade steps up to 3+, Resolve refunded up to what was spent); within a
    state, harm, extras, dice used and faces only add up, so keeping the best
    partial per state is exact for the `worth_key` order.
    """
    if not patterns or spec.zero_dice:
        return ()
    counts = Counter(faces)
    by_name = {p.name: p for p in patterns}
    sizes = {p.name: p.size for p in patterns}
    names = sorted(by_name)
    up_cap = 3 - band
    refund_cap = spec.resolve_total
    stack = spec.stack_extra_success
    # state (upgrade, refund) -> (damage, texts, -dice, faces_desc, uses)
    best: dict[tuple[int, int], tuple] = {(0, 0): (0, 0, 0, (), ())}
    for face in sorted(counts, reverse=True):
        options = [
            _face_option(spec, by_name, combo, face)
            for combo in fitting_multisets(counts[face], names, sizes)
        ]
        nxt: dict[tuple[int, int], tuple] = {}
        for (up, ref), (dmg, texts, neg_dice, dice_desc, uses) in best.items():
            for chosen, steps, refund, add_dmg, add_texts, dice in options:
                new_up = min(up_cap, up + steps if stack else max(up, steps))
                state = (new_up, min(refund_cap, ref + refund))
                value = (
                    dmg + add_dmg,
                    texts + add_texts,
                    neg_dice - dice,
                    dice_desc + (face,) * dice,
                    uses + chosen,
                )
                current = nxt.get(state)
                if current is None or value[:4] > current[:4]:
                    nxt[state] = value
        best = nxt

    def final_key(item):
        (up, ref), (dmg, texts, neg_dice, dice_desc, _) = item
        return (min(3, band + up), dmg, ref, texts, neg_dice, dice_desc)

    _, (*_, uses) = max(best.items(), key=final_key)
    return tuple(sorted(uses))


def _refunds(
    spec: RollSpec, points: int, refund_to: Sequence[Spender] | None
) -> tuple[tuple[Spender, int], ...]:
    """Who gets Effortless Resolve back (PAT-08): only those who spent, up to what they spent."""
    spent: dict[Spender, int] = {}
    for spender, amount in spec.resolve_spent:
        spent[spender] = spent.get(spender, 0) + amount
    if refund_to is None:
        chosen: list[Spender] = []
        for spender, amount in spent.items():
            chosen.extend([spender] * amount)
        chosen = chosen[:points]
    else:
        if isinstance(refund_to, str | int):
            refund_to = [refund_to]
        chosen = list(refund_to)
        if len(chosen) != points:
            raise IllegalRefund(
                gettext_noop(
                    "This allocation gives back %(points)s Resolve: choose one recipient "
                    "per point (%(len)s chosen)."
                ),
                points=points,
                len=len(chosen),
            )
        taken: Counter[Spender] = Counter(chosen)
        for spender, count in taken.items():
            if spender not in spent:
                raise IllegalRefund(
                    gettext_noop("%(spender)s spent no Resolve on this roll."), spender=spender
                )
            if count > spent[spender]:
                raise IllegalRefund(
                    gettext_noop(
                        "%(spender)s spent %(spender2)s Resolve and cannot get %(count)s back."
                    ),
                    spender=spender,
                    spender2=spent[spender],
                    count=count,
                )
    out: dict[Spender, int] = {}
    for spender in chosen:
        out[spender] = out.get(spender, 0) + 1
    return tuple(out.items())


def _take_faces(
    faces: Sequence[int] | None, count: int, what: str, rng: RandomSource | None
) -> tuple[int, ...]:
    if faces is None:
        return roll_d6(count, rng)
    faces = tuple(faces)
    if len(faces) != count:
        raise InvalidRoll(
            gettext_noop("This roll needs %(count)s %(what)s dice, got %(len)s."),
            count=count,
            what=what,
            len=len(faces),
        )
    if not all(_is_int(face) and 1 <= face <= 6 for face in faces):
        raise InvalidRoll(gettext_noop("Every %(what)s die shows a face from 1 to 6."), what=what)
    return faces


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_spender(value: object) -> bool:
    return (isinstance(value, str) and bool(value.strip())) or _is_int(value)


def _check_count(value: object, what: str) -> None:
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int) or value < 0:
        raise InvalidRoll(gettext_noop("%(what)s must be a whole number of 0 or more."), what=what)
