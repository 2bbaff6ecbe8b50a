"""Patterns: sets of equal faces and what they trigger (PAT-01..PAT-08).

A pattern is data (`Pattern`), so a GM can add one without code; the three
patterns every character has are instances of it (`SOLID_HIT`, `EXTRA_SUCCESS`,
`EFFORTLESS`). Rolls and allocations live in `rules.d6`; this module knows
faces, kinds and which rolls a pattern applies to.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError, gettext_noop

# PAT-01: a pattern is 2, 3 or 4 dice showing the same face.
KIND_SIZES: dict[str, int] = {"double": 2, "triple": 3, "quad": 4}
KIND_LABELS: dict[str, str] = {"double": "Double", "triple": "Triple", "quad": "Quad"}
ROLL_KINDS = ("action", "attack", "luck")
PLAY_MODES = ("narrative", "structured")
# What a pattern does when it triggers; `amount` scales each.
EFFECTS = (
    "damage_per_face",  # +amount x N harm (Solid Hit: +N damage per Double N)
    "damage",  # +amount harm, whatever the face
    "outcome_upgrade",  # the outcome moves up `amount` bands (Extra Success)
    "resolve_refund",  # `amount` spent Resolve comes back (Effortless)
    "text",  # only the description happens; the GM narrates it
)


class InvalidPattern(RulesError):
    """A pattern definition does not make sense."""


class IllegalAllocation(RulesError):
    """The dice cannot be allocated that way (PAT-02, PAT-04, PAT-05)."""


class DiceNotAvailable(IllegalAllocation):
    """The allocation needs dice the roll does not have, or uses a die twice (PAT-02)."""


class PatternNotApplicable(IllegalAllocation):
    """The pattern does not trigger on this roll (PAT-04, PAT-05, or its applies-to)."""


class UnknownPattern(IllegalAllocation):
    """The allocation names a pattern this roll does not know."""


def pattern_label(kind: str, face: int) -> str:
    """`Double 5`, `Triple 1`, `Quad 6` (PAT-01)."""
    return f"{KIND_LABELS[kind]} {face}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _all_in(values: Sequence[str], allowed: Sequence[str]) -> bool:
    return all(value in allowed for value in values)


def _or(values: Sequence[str]) -> str:
    return " or ".join(values)


@dataclass(frozen=True)
class Pattern:
    """One pattern a character can allocate dice to.

    name:                    unique name shown to players ("Solid Hit").
    kind:                    "double", "triple" or "quad" (PAT-01).
    effect, amount:          what it does per trigger (see EFFECTS).
    roll_kinds:              rolls it applies to: "action", "attack", "luck".
    play:                    "narrative" and/or "structured".
    min_effective_successes: PAT-04 default 1 (no pattern on a graze); may be overridden.
    needs_resolve_spent:     only on rolls where someone spent Resolve (Effortless).
    damage_not_strain:       only on attacks whose template deals damage, not Strain (Solid Hit).
    description:             the rule text shown to players.
    """

    name: str
    kind: str
    effect: str
    amount: int = 1
    roll_kinds: tuple[str, ...] = ROLL_KINDS
    play: tuple[str, ...] = PLAY_MODES
    min_effective_successes: int = 1
    needs_resolve_spent: bool = False
    damage_not_strain: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidPattern(gettext_noop("A pattern needs a name."))
        if self.name.lower() in KIND_SIZES:
            raise InvalidPattern(
                gettext_noop("%(pattern)r names a kind; give the pattern its own name."),
                pattern=self.name,
            )
        if self.kind not in KIND_SIZES:
            raise InvalidPattern(
                gettext_noop(
                    "Pattern %(pattern)r: kind must be double, triple or quad, not %(kind)r."
                ),
                pattern=self.name,
                kind=self.kind,
            )
        if self.effect not in EFFECTS:
            raise InvalidPattern(
                gettext_noop(
                    "Pattern %(pattern)r: effect must be one of %(join)s, not %(effect)r."
                ),
                pattern=self.name,
                join=", ".join(EFFECTS),
                effect=self.effect,
            )
        if not _is_int(self.amount) or self.amount < 1:
            raise InvalidPattern(
                gettext_noop("Pattern %(pattern)r: amount must be a whole number of 1+."),
                pattern=self.name,
            )
        for field, allowed in (("roll_kinds", ROLL_KINDS), ("play", PLAY_MODES)):
            values = getattr(self, field)
            if isinstance(values, str):
                values = (values,)
            values = tuple(values)
            if not values or not _all_in(values, allowed):
                raise InvalidPattern(
                    gettext_noop("Pattern %(pattern)r: %(field)s must list some of %(join)s."),
                    pattern=self.name,
                    field=field,
                    join=", ".join(allowed),
                )
            object.__setattr__(self, field, tuple(v for v in allowed if v in values))
        if not _is_int(self.min_effective_successes) or self.min_effective_successes < 0:
            raise InvalidPattern(
                gettext_noop("Pattern %(pattern)r: minimum effective successes must be 0 or more."),
                pattern=self.name,
            )

    @property
    def size(self) -> int:
        return KIND_SIZES[self.kind]

    def refusal(
        self,
        *,
        roll_kind: str,
        play: str,
        effective_successes: int,
        resolve_spent: bool,
        harm: str,
        zero_dice: bool = False,
    ) -> str | None:
        """Why this pattern does not trigger on such a roll, or None if it does."""
        if zero_dice:
            return "Patterns do not apply to a roll made with zero dice."
        if roll_kind not in self.roll_kinds:
            return f"{self.name} applies only to {_or(self.roll_kinds)} rolls, not {roll_kind}."
        if play not in self.play:
            return f"{self.name} applies only in {_or(self.play)} play."
        if self.damage_not_strain and (roll_kind != "attack" or harm != "damage"):
            return f"{self.name} applies only to attacks that deal damage, not Strain."
        if self.needs_resolve_spent and not resolve_spent:
            return f"{self.name} applies only when Resolve was spent on the roll."
        if effective_successes < self.min_effective_successes:
            need = self.min_effective_successes
            return (
                f"{self.name} needs at least {need} effective success{'es' if need != 1 else ''}; "
                f"this roll has {effective_successes}."
            )
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "effect": self.effect,
            "amount": self.amount,
            "roll_kinds": list(self.roll_kinds),
            "play": list(self.play),
            "min_effective_successes": self.min_effective_successes,
            "needs_resolve_spent": self.needs_resolve_spent,
            "damage_not_strain": self.damage_not_strain,
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pattern:
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidPattern(
                gettext_noop("Unknown pattern fields: %(join)s."), join=", ".join(sorted(unknown))
            )
        missing = {"name", "kind", "effect"} - set(data)
        if missing:
            raise InvalidPattern(
                gettext_noop("A pattern needs %(join)s."), join=", ".join(sorted(missing))
            )
        fields = dict(data)
        try:
            for key in ("roll_kinds", "play"):
                if key in fields and not isinstance(fields[key], str):
                    fields[key] = tuple(fields[key])
            return cls(**fields)
        except TypeError as error:
            raise InvalidPattern(
                gettext_noop("This pattern's data is malformed (%(error)s)."), error=error
            ) from None


SOLID_HIT = Pattern(
    name="Solid Hit",
    kind="double",
    effect="damage_per_face",
    roll_kinds=("attack",),
    damage_not_strain=True,
    description="Attack rolls that deal damage (not Strain): increase the damage by N.",
)
EXTRA_SUCCESS = Pattern(
    name="Extra Success",
    kind="double",
    effect="outcome_upgrade",
    roll_kinds=("action", "luck"),
    play=("narrative",),
    description=(
        "Narrative action and luck rolls: Success becomes Success with a Bonus; "
        "Success at a Cost becomes Success."
    ),
)
EFFORTLESS = Pattern(
    name="Effortless",
    kind="triple",
    effect="resolve_refund",
    roll_kinds=("action",),
    play=("narrative",),
    needs_resolve_spent=True,
    description=(
        "Narrative action rolls where Resolve was spent: recover 1 spent Resolve "
        "(the roller chooses whose, an assisting ally's counts)."
    ),
)
# PAT-06..PAT-08: every character has these three.
BUILTIN_PATTERNS: tuple[Pattern, ...] = (SOLID_HIT, EXTRA_SUCCESS, EFFORTLESS)

Allocation = tuple[tuple[str, int], ...]


def allocations(faces: Sequence[int]) -> list[Allocation]:
    """Every legal allocation of `faces` to Doubles, Triples and Quads (PAT-01, PAT-02).

    Each allocation is a sorted tuple of (kind, face); a die serves at most one
    pattern, and the empty allocation (allocate nothing) is included. The count
    grows fast with the pool (46,656 for thirty dice spread evenly).
    """
    return list(iter_allocations(faces, KIND_SIZES))


def iter_allocations(faces: Sequence[int], sizes: Mapping[str, int]) -> Iterator[Allocation]:
    """Every allocation of `faces` to the labels in `sizes` (label -> dice needed), sorted."""
    counts = Counter(faces)
    labels = sorted(sizes)
    per_face = [
        [
            tuple((label, face) for label in combo)
            for combo in fitting_multisets(counts[face], labels, sizes)
        ]
        for face in sorted(counts)
    ]
    for parts in itertools.product(*per_face):
        yield tuple(sorted(itertools.chain.from_iterable(parts)))


def fitting_multisets(
    dice: int, labels: Sequence[str], sizes: Mapping[str, int]
) -> list[tuple[str, ...]]:
    """Multisets of labels (as sorted tuples) whose sizes fit in `dice` dice."""
    out: list[tuple[str, ...]] = []

    def walk(start: int, left: int, chosen: tuple[str, ...]) -> None:
        out.append(chosen)
        for i in range(start, len(labels)):
            need = sizes[labels[i]]
            if need <= left:
                walk(i, left - need, (*chosen, labels[i]))

    walk(0, dice, ())
    return out


def check_dice(faces: Sequence[int], uses: Sequence[tuple[str, int, int]]) -> None:
    """Refuse uses (label, face, dice needed) that need dice the roll lacks (PAT-02)."""
    counts = Counter(faces)
    needed: Counter[int] = Counter()
    names: dict[int, list[str]] = {}
    for label, face, size in uses:
        if not _is_int(face) or not 1 <= face <= 6:
            raise DiceNotAvailable(
                gettext_noop("%(label)s: %(face)r is not a face of a d6."), label=label, face=face
            )
        if counts[face] == 0:
            raise DiceNotAvailable(
                gettext_noop("%(label)s needs dice showing %(face)s; no die shows %(face)s."),
                label=label,
                face=face,
            )
        needed[face] += size
        names.setdefault(face, []).append(label)
    for face, need in sorted(needed.items()):
        if need > counts[face]:
            have = counts[face]
            raise DiceNotAvailable(
                gettext_noop(
                    "%(join)s need %(need)s dice showing %(face)s, but only %(have)s %(show)s "
                    "%(face)s: each die may serve only one pattern."
                ),
                join=" and ".join(names[face]),
                need=need,
                face=face,
                have=have,
                show="die shows" if have == 1 else "dice show",
            )
