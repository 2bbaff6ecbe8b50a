"""Roll templates: what each result band means for one kind of roll (D6-04, D6-05, PAT-R2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError, gettext_noop

# PAT-R2: the default narrative labels of bands 0, 1, 2 and 3+.
# Stored in English (a GM may type others); worded for each reader when drawn
# (tables/words/wording.band_words), so marked for the catalogues.
DEFAULT_BAND_LABELS: tuple[str, str, str, str] = (
    gettext_noop("Setback"),
    gettext_noop("Success at a Cost"),
    gettext_noop("Success"),
    gettext_noop("Success with a Bonus"),
)
ROUNDINGS = ("down", "up", "nearest")
HARMS = ("damage", "strain")
MAX_HARM_DIVISOR = 10  # more than any template needs; keeps a typo from zeroing every hit


class InvalidTemplate(RulesError):
    """A roll template (or a value it was given) does not make sense."""


def divide(a: int, b: int, rounding: str = "down") -> int:
    """Divide whole numbers; the game rounds down unless told otherwise (D6-05).

    `rounding` is "down" (floor, the default), "up" (ceiling) or "nearest"
    (halves round up).
    """
    if b == 0:
        raise InvalidTemplate(gettext_noop("Cannot divide by zero."))
    if rounding == "down":
        return a // b
    if rounding == "up":
        return -(-a // b)
    if rounding == "nearest":
        # floor(a/b + 1/2) in integers, so no float error creeps in.
        return (2 * a + b) // (2 * b) if b > 0 else (-2 * a - b) // (-2 * b)
    raise InvalidTemplate(
        gettext_noop("Unknown rounding %(rounding)r; use one of %(join)s."),
        rounding=rounding,
        join=", ".join(ROUNDINGS),
    )


@dataclass(frozen=True)
class RollTemplate:
    """The meaning of a roll's bands (D6-04).

    bands:           text of band 0, 1, 2 and 3+ (PAT-R2 labels by default).
    overflow:        text applied once per effective success above 3 (D6-03), or None.
    damage:          for attacks, harm dealt at band 0, 1, 2, 3+ (a graze may still hurt).
    harm:            "damage" or "strain": what `damage` counts (Solid Hit needs "damage").
    overflow_damage: extra harm per overflow success (0 unless the template says so).
    rounding:        how this template's divisions round (D6-05): "down" unless it says otherwise.
    harm_divisor:    the attack deals its harm divided by this, rounded as `rounding` says
                     (D6-05, D6-R1): 2 halves it (a pulled blow, a glancing hit's Strain);
                     1, the default, divides nothing.
    """

    name: str = ""
    bands: tuple[str, str, str, str] = DEFAULT_BAND_LABELS
    overflow: str | None = None
    damage: tuple[int, int, int, int] | None = None
    harm: str = "damage"
    overflow_damage: int = 0
    rounding: str = "down"
    harm_divisor: int = 1

    def __post_init__(self) -> None:
        bands = tuple(self.bands)
        if len(bands) != 4 or not all(isinstance(text, str) and text.strip() for text in bands):
            raise InvalidTemplate(
                gettext_noop("A roll template needs a text for each of the bands 0, 1, 2, 3+.")
            )
        object.__setattr__(self, "bands", bands)
        if self.damage is not None:
            damage = tuple(self.damage)
            if len(damage) != 4 or not all(_is_count(value) for value in damage):
                raise InvalidTemplate(
                    gettext_noop(
                        "Damage per band needs four whole numbers of 0 or more (bands 0, 1, 2, 3+)."
                    )
                )
            object.__setattr__(self, "damage", damage)
        if self.harm not in HARMS:
            raise InvalidTemplate(
                gettext_noop("Harm must be one of %(join)s, not %(harm)r."),
                join=", ".join(HARMS),
                harm=self.harm,
            )
        if not _is_count(self.overflow_damage):
            raise InvalidTemplate(
                gettext_noop("Overflow damage must be a whole number of 0 or more.")
            )
        if self.rounding not in ROUNDINGS:
            raise InvalidTemplate(
                gettext_noop("Rounding must be one of %(join)s, not %(rounding)r."),
                join=", ".join(ROUNDINGS),
                rounding=self.rounding,
            )
        divisor = self.harm_divisor
        if not _is_count(divisor) or not 1 <= divisor <= MAX_HARM_DIVISOR:
            raise InvalidTemplate(
                gettext_noop(
                    "The harm divisor is a whole number from 1 (no division) to %(most)s."
                ),
                most=MAX_HARM_DIVISOR,
            )
        if self.overflow is not None and not isinstance(self.overflow, str):
            raise InvalidTemplate(gettext_noop("The overflow effect must be a text."))

    def band_text(self, band: int) -> str:
        """The text of a band; anything above 3 reads as 3+ (D6-02)."""
        return self.bands[min(max(band, 0), 3)]

    def damage_at(self, band: int, overflow: int = 0) -> int | None:
        """Harm dealt at `band` plus the overflow harm, or None without a damage table."""
        if self.damage is None:
            return None
        return self.damage[min(max(band, 0), 3)] + overflow * self.overflow_damage

    def divide(self, a: int, b: int) -> int:
        """Divide with this template's rounding (D6-05)."""
        return divide(a, b, self.rounding)

    def harm_dealt(self, harm: int | None) -> int | None:
        """D6-05, D6-R1: what an attack's whole harm (band, overflow and Solid Hit's +N)
        comes to once divided by `harm_divisor` with the template's rounding."""
        return None if harm is None else self.divide(harm, self.harm_divisor)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bands": list(self.bands),
            "overflow": self.overflow,
            "damage": None if self.damage is None else list(self.damage),
            "harm": self.harm,
            "overflow_damage": self.overflow_damage,
            "rounding": self.rounding,
            "harm_divisor": self.harm_divisor,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollTemplate:
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise InvalidTemplate(
                gettext_noop("Unknown roll template fields: %(join)s."),
                join=", ".join(sorted(unknown)),
            )
        fields = dict(data)
        try:
            if "bands" in fields:
                fields["bands"] = tuple(fields["bands"])
            if fields.get("damage") is not None:
                fields["damage"] = tuple(fields["damage"])
            return cls(**fields)
        except TypeError as error:
            raise InvalidTemplate(
                gettext_noop("This roll template's data is malformed (%(error)s)."), error=error
            ) from None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


DEFAULT_TEMPLATE = RollTemplate()
