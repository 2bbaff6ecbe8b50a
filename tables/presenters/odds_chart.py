"""The odds preview as a picture: one stacked bar of exact chances (issue 14).

Geometry only, drawn by templates/tables/partials/odds_chart.html as inline SVG
(sizes are SVG attributes, so the Content-Security-Policy's ban on inline styles
holds). Every segment keeps its exact Fraction: its hover title and the chart's
text alternative give it as n/d beside the rounded percentage.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext, pgettext

from tables.words import wording

WIDTH = 300  # SVG user units; CSS scales the picture to its box
HEIGHT = 28
# A segment narrower than this (in user units) has no label inside: it would not fit.
LABEL_MIN = 22
# A label's width, estimated per character in user units (site.css sets the labels in
# bold 12px, or 10px when small, in the bar's own units: the estimate holds at every
# screen width). A word too long for its segment ("Misslungen", "Échec") is set small,
# else left out, never cut at the bar's edges: the hover title and the text alternative
# still carry it.
LABEL_CHAR = 8
LABEL_CHAR_SMALL = 6.7
LABEL_PAD = 6
BAND_TONES = (0, 2, 3, 4)  # Momenta's four bands; 2d20 uses all five tones


def percent(value: Fraction) -> str:
    """A chance in whole percent, in the reader's figures ("12%", "12 %"), never rounded
    to a false 0% or 100%: "<1%" and ">99%" are the catalogue's patterns too."""
    if 0 < value < Fraction(1, 200):
        return pgettext("a percentage", "<%(number)s%%") % {"number": formats.number_format(1)}
    if Fraction(199, 200) < value < 1:
        return pgettext("a percentage", ">%(number)s%%") % {"number": formats.number_format(99)}
    # Rounded on the exact Fraction (a float would round 57.5% down), then worded.
    return wording.percent(Fraction(round(value * 100), 100), decimals=0)


def fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value else "0"


@dataclass(frozen=True)
class Segment:
    short: str  # drawn inside the bar when it fits ("0", "3+", "Fail")
    label: str  # the words of its hover title and of the text alternative
    value: Fraction
    tone: int  # 0 (worst) .. 4 (best): the fill, from site.css (--band-0 .. --band-4)
    x: float = 0
    width: float = 0

    @property
    def percent(self) -> str:
        return percent(self.value)

    @property
    def fraction(self) -> str:
        return fraction(self.value)

    @property
    def title(self) -> str:
        return f"{self.label}: {self.percent} ({self.fraction})"

    def _fits(self, char_width: float) -> bool:
        return self.width >= max(LABEL_MIN, len(self.short) * char_width + LABEL_PAD)

    @property
    def labelled(self) -> bool:
        return self._fits(LABEL_CHAR_SMALL)

    @property
    def small(self) -> bool:
        """Its label fits only in the smaller type."""
        return not self._fits(LABEL_CHAR)

    @property
    def middle(self) -> float:
        return round(self.x + self.width / 2, 2)


@dataclass(frozen=True)
class Chart:
    name: str  # the chart's accessible name ("Chance of each result band")
    segments: tuple[Segment, ...]
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def description(self) -> str:
        """The text alternative: every segment in words, percent and exact fraction."""
        return "; ".join(s.title for s in self.segments if s.value) + "."

    @property
    def text_y(self) -> float:
        return self.height / 2


def stacked(name: str, parts: list[tuple[str, str, Fraction, int]]) -> Chart:
    """A chart of (short, label, chance, tone) parts side by side, in order. Each edge
    sits at its exact cumulative chance, rounded once, so the widths add up to the bar."""
    segments = []
    before = Fraction(0)
    for short, label, value, tone in parts:
        start = round(float(before * WIDTH), 2)
        before += value
        end = round(float(before * WIDTH), 2)
        segments.append(Segment(short, label, value, tone, x=start, width=round(end - start, 2)))
    return Chart(name, tuple(segments))


def band_chart(bands) -> Chart:
    """Momenta: the chance of each result band (D6-12), worst to best. `bands`: the
    preview's Chances, labelled "0: …" .. "3+: …"."""
    parts = []
    for tone, band in zip(BAND_TONES, bands, strict=False):
        short = band.label.split(":", 1)[0]
        parts.append((short, band.label, band.value, tone))
    return stacked(gettext("Chance of each result band"), parts)


def d20_chart(pass_chance: Fraction, momentum: dict[int, Fraction]) -> Chart:
    """2d20 (T-05): fail, then pass with 0, 1, 2 and 3 or more Momentum. `momentum`: the
    chance of each amount of Momentum generated, a failure counted as 0."""
    fail = 1 - pass_chance
    plus = [momentum.get(0, Fraction(0)) - fail, momentum.get(1, Fraction(0))]
    plus.append(momentum.get(2, Fraction(0)))
    plus.append(sum((p for m, p in momentum.items() if m >= 3), Fraction(0)))
    parts = [(gettext("Fail"), gettext("Fail"), fail, 0)]
    names = [
        gettext("no Momentum"),
        gettext("1 Momentum"),
        gettext("2 Momentum"),
        gettext("3 or more Momentum"),
    ]
    shorts = [gettext("Pass"), "+1", "+2", "+3"]
    for tone, (short, words, value) in enumerate(zip(shorts, names, plus, strict=True)):
        parts.append((short, (gettext("Pass with %(words)s") % {"words": words}), value, tone + 1))
    return stacked(gettext("Chance to pass, and Momentum generated"), parts)
