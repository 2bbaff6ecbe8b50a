"""Harm tracks and how each line turns damage into harm (SC-02).

A track counts what a character has *taken* (harm, Strain, Stress, lost Vigor or HP),
from 0 up to the maximum the GM sets on the sheet: damage adds, recovery takes away,
and neither goes below 0 or past the maximum (SC-02). A line whose book counts down
("Stress left", "HP") shows max - taken; the arithmetic is the same.

Per line (the table below; `LINE_TRACKS`), and what is simplified:
- Momenta (seeds 002/004): a damage track and a Strain track; an attack's template says
  which it deals (D6-04, PAT-06). The seeds give no harm beyond the track: none counted.
- 2d20 seeds, STA 1st ed., Achtung! Cthulhu: Stress, with Injuries counted by
  `challenge_hit` (5+ in one hit after soak, or the track emptied). Lethal/non-lethal
  injuries and avoiding an injury with Determination are left to the GM (a GM recovery).
  STA 1st ed. counts its Injuries past the track's box (ruling SC-R19, `harms_track_size`).
- Conan: Vigor with Wounds, Resolve with Trauma (one rule for both, `challenge_hit`).
- Fallout (SC-06): HP; an injury at 5+ in one hit after DR, one for falling to 0 HP,
  one for damage taken while at 0.
- STA 2nd ed. (SC-06, `sta2_hit`): the target chooses to take the Injury or avoid it with
  Stress (ruling SC-R18: avoiding is the default); a hit the track only partly absorbs
  fills it and becomes a complication; a hit on a full track is an Injury.
- Dune (SC-06, Dune core rulebook, Conflict chapter): no damage track; one successful
  attack defeats a minor foe (`defeat_hit`: its Defeats track takes 1). Other foes are
  defeated through an extended task, which the table does not tie to the foe yet: the
  GM marks their defeat by hand (ruling SC-R20).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.errors import gettext_noop

from .errors import RulesError

MAX_TRACK = 99  # more than any sheet holds; keeps a GM's typo from a 5-digit track
INJURY_AT = 5  # 2d20 lines: damage in one hit (after soak) that inflicts a harm


class InvalidHarm(RulesError):
    """Damage or a track described with impossible values."""


@dataclass(frozen=True)
class TrackKind:
    """One track a line's sheets carry.

    key:        stored name ("stress").
    label:      its name at that line's table.
    default_max: the maximum a new sheet starts with (the GM sets the real one).
    harms:      the key of the track this one's hits add harms to ("" if none).
    """

    key: str
    label: str
    default_max: int
    harms: str = ""


# What a hit adds to the harms track, per line (see `challenge_hit`).
FIVE_OR_EMPTY = "five_or_empty"  # 5+ in one hit, and the track emptied (STA 1e, Conan)
FIVE_ONLY = "five_only"  # 5+ in one hit (Fallout's critical hit)
PAST_TRACK = "past_track"  # STA 2e: Stress avoids the Injury; partly absorbed, a complication
FIVE_OR_ZERO = "five_or_zero"  # Fallout: 5+ in one hit, reaching 0 HP, and any hit at 0
NO_HARMS = "none"  # Momenta: the track alone
MINOR_FOE = "minor_foe"  # Dune: one successful attack defeats a minor foe, no damage

MOMENTA = "momenta"

LINE_TRACKS: dict[str, tuple[TrackKind, ...]] = {
    MOMENTA: (TrackKind("harm", "Harm", 10), TrackKind("strain", "Strain", 10)),
    "seeds": (TrackKind("stress", "Stress", 10, "injuries"), TrackKind("injuries", "Injuries", 3)),
    "sta1": (TrackKind("stress", "Stress", 10, "injuries"), TrackKind("injuries", "Injuries", 1)),
    "sta2": (TrackKind("stress", "Stress", 10, "injuries"), TrackKind("injuries", "Injuries", 1)),
    "conan": (
        TrackKind("vigor", "Vigor", 10, "wounds"),
        TrackKind("wounds", "Wounds", 5),
        TrackKind("resolve", "Resolve", 10, "trauma"),
        TrackKind("trauma", "Trauma", 5),
    ),
    "fallout": (TrackKind("hp", "HP", 10, "injuries"), TrackKind("injuries", "Injuries", 5)),
    "dune": (TrackKind("defeats", "Defeats", 1),),
    "achtung": (
        TrackKind("stress", "Stress", 10, "injuries"),
        TrackKind("injuries", "Injuries", 3),
    ),
}

HARM_RULE: dict[str, str] = {
    MOMENTA: NO_HARMS,
    "seeds": FIVE_OR_EMPTY,
    "sta1": FIVE_OR_EMPTY,
    "sta2": PAST_TRACK,
    "conan": FIVE_OR_EMPTY,
    "fallout": FIVE_OR_ZERO,
    "dune": MINOR_FOE,
    "achtung": FIVE_OR_EMPTY,
}


# SC-02: a new sheet's track sizes where the line's book derives them from the sheet: the
# sum of these statistics (attributes or skills, by any of the names given). Sources:
# STA 1st edition core rulebook, Combat, "Stress" (Fitness + Security); Conan core
# rulebook, Damage, "Stress" (Vigor: Brawn + Resistance; Resolve: Willpower + Discipline);
# Fallout core rulebook, Character creation, "Derived statistics" (HP at level 1:
# Endurance + Luck). Ruling SC-R21: every other track, and a sheet without one of the
# statistics, starts at the line's `default_max` for the GM to set.
TRACK_FORMULAS: dict[tuple[str, str], tuple[tuple[str, ...], ...]] = {
    ("sta1", "stress"): (("FITNESS",), ("SECURITY",)),
    ("conan", "vigor"): (("BRAWN",), ("RESISTANCE",)),
    ("conan", "resolve"): (("WILLPOWER",), ("DISCIPLINE",)),
    ("fallout", "hp"): (("ENDURANCE", "END"), ("LUCK", "LCK")),
}


def starting_max(line_key: str, kind: TrackKind, sheet: Mapping[str, int]) -> int:
    """SC-02, SC-R21: the size a new character's track starts at: the book's formula
    over `sheet` (statistic name -> value, any case) where it has one and the sheet
    holds every statistic it names, else the line's default. Kept within 1..MAX_TRACK."""
    parts = TRACK_FORMULAS.get((line_key, kind.key))
    if not parts:
        return kind.default_max
    upper = {str(name).strip().upper(): value for name, value in sheet.items()}
    total = 0
    for names in parts:
        found = next((upper[n] for n in names if n in upper), None)
        if found is None:
            return kind.default_max
        total += found
    return min(MAX_TRACK, max(1, total))


def tracks_of(line_key: str) -> tuple[TrackKind, ...]:
    try:
        return LINE_TRACKS[line_key]
    except KeyError:
        raise InvalidHarm(
            gettext_noop("No harm tracks for the line %(line_key)r."), line_key=line_key
        ) from None


def track_kind(line_key: str, key: str) -> TrackKind:
    for kind in tracks_of(line_key):
        if kind.key == key:
            return kind
    raise InvalidHarm(gettext_noop("This line has no track %(key)r."), key=key)


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidHarm(gettext_noop("%(what)s must be a whole number of 0 or more."), what=what)
    return value


def check_max(value) -> int:
    _count(value, "A track's maximum")
    if not 1 <= value <= MAX_TRACK:
        raise InvalidHarm(gettext_noop("A track holds 1 to %(max_track)s."), max_track=MAX_TRACK)
    return value


@dataclass(frozen=True)
class Step:
    """A track moved: by `delta` to `after`; `lost` is what did not fit (SC-02)."""

    before: int
    delta: int
    after: int
    lost: int


def move(taken: int, maximum: int, delta: int) -> Step:
    """SC-02: add `delta` (damage +, recovery -) to a track, clamped to 0..maximum; what
    the clamp cut is reported, never silently dropped."""
    _count(taken, "Harm taken")
    check_max(maximum)
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise InvalidHarm(gettext_noop("A change of harm is a whole number."))
    if taken > maximum:
        raise InvalidHarm(gettext_noop("The track holds more than its maximum."))
    after = min(maximum, max(0, taken + delta))
    return Step(taken, after - taken, after, abs(taken + delta - after))


@dataclass(frozen=True)
class Hit:
    """An attack's damage as applied: its arithmetic, the track's move and the harms."""

    dealt: int  # damage after soak (0 or more)
    step: Step
    harms: int
    complication: bool = False  # STA 2e: a hit the Stress track only partly absorbed
    took_injury: bool = False  # STA 2e: the target took the Injury instead of the Stress

    @property
    def marked(self) -> int:
        """The damage put on the track: what fitted and what the clamp cut (SC-02)."""
        return self.step.delta + self.step.lost

    @property
    def choice(self) -> dict:
        """What the hit's event records of STA 2e's choice (SC-06)."""
        return {"complication": self.complication, "took_injury": self.took_injury}


def hit_damage(total: int, bonus: int = 0, soak: int = 0) -> int:
    """2d20 (SC-02): Challenge dice total + bonus damage bought with Momentum - soak,
    never below 0 (STA 1e, Conan, Achtung, Fallout: soak / Resistance / DR)."""
    for value, what in ((total, "The damage rolled"), (bonus, "Bonus damage"), (soak, "Soak")):
        _count(value, what)
    return max(0, total + bonus - soak)


def challenge_hit(
    rule: str, taken: int, maximum: int, dealt: int, *, both: bool = True, take_injury: bool = False
) -> Hit:
    """One hit of `dealt` damage on a track under a line's harm rule (SC-02).

    FIVE_OR_EMPTY (STA 1e Core Rulebook, Conan Core Rulebook "Damage"): one harm for 5+
    in one hit, and one when the hit empties the track or lands on an empty one;
    ruling SC-R1: both can come from one hit (two harms); with `both` off (a campaign
    setting, for groups that read one harm a hit) such a hit inflicts one.
    FIVE_ONLY (Fallout "Injuries"): one harm at 5+ in one hit.
    PAST_TRACK (SC-06, STA 2e): `sta2_hit`; only it offers `take_injury`.
    FIVE_OR_ZERO (SC-06, Fallout core, "Damage and Injury"): one injury at 5+ in one hit,
    one for falling to 0 HP (the track filled), one for damage taken while at 0.
    """
    _count(dealt, "Damage")
    if rule == PAST_TRACK:
        return sta2_hit(taken, maximum, dealt, take_injury=take_injury)
    if take_injury:
        raise InvalidHarm(
            gettext_noop("Only a Star Trek Adventures 2nd edition hit lets the target choose.")
        )
    step = move(taken, maximum, dealt)
    harms, complication = 0, False
    if dealt > 0 and rule == FIVE_OR_ZERO:
        harms = (dealt >= INJURY_AT) + (step.after == maximum)
    elif dealt > 0:
        if rule in (FIVE_OR_EMPTY, FIVE_ONLY) and dealt >= INJURY_AT:
            harms += 1
        if rule == FIVE_OR_EMPTY and step.after == maximum and (both or not harms):
            harms += 1
    return Hit(dealt, step, harms, complication)


def sta2_hit(taken: int, maximum: int, dealt: int, *, take_injury: bool = False) -> Hit:
    """SC-06 (STA 2e core pp. 290 and 292, and the line developer's clarification): a hit
    inflicts an Injury unless the target suffers Stress equal to its severity to avoid
    it; the target chooses (`take_injury`: the Injury, and no Stress). A track that can
    only partly absorb the hit fills, and the hit becomes a complication instead of an
    Injury; a full track absorbs nothing, so the hit injures. Ruling SC-R18: unless the
    target's side says otherwise, the target avoids the Injury when Stress can."""
    if dealt == 0:
        return Hit(0, move(taken, maximum, 0), 0)
    if take_injury:
        return Hit(dealt, move(taken, maximum, 0), 1, took_injury=True)
    step = move(taken, maximum, dealt)
    if taken == maximum:
        return Hit(dealt, step, 1)
    return Hit(dealt, step, 0, complication=step.lost > 0)


def defeat_hit(taken: int, maximum: int, minor: bool) -> Hit:
    """SC-06 (Dune core rulebook, Conflict chapter): one successful attack defeats a minor
    foe: its Defeats track takes 1 (a foe already defeated takes nothing more). A foe
    that is not minor is defeated through an extended task, not by one attack: refused."""
    if not minor:
        raise InvalidHarm(
            gettext_noop(
                "Only a minor foe is defeated by one attack; defeat this one through an "
                "extended task, then mark the defeat by hand."
            )
        )
    return Hit(0, move(taken, maximum, 1), 0)


# Ruling SC-R19: lines whose harms are counted past the track's boxes, so no harm of a
# hit is lost. STA 1st edition (core rulebook, Injuries, pp. 176-177): an Injury takes a
# character out, a second one while injured is lethal and each is treated on its own, so
# the count matters, while the sheets give the Injuries track one box.
HARMS_PAST_TRACK = frozenset({"sta1"})


def harms_track_size(line_key: str, taken: int, maximum: int, harms: int) -> int:
    """SC-R19: the size a harms track (Injuries) needs to hold a hit's `harms`: grown to
    hold them on the lines of HARMS_PAST_TRACK, else the size it has (the clamp reports
    what did not fit)."""
    if line_key not in HARMS_PAST_TRACK:
        return maximum
    return min(MAX_TRACK, max(maximum, taken + harms))
