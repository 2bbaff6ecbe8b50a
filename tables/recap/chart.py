"""The recap's charts as SVG coordinates (no chart library: a polyline and its points).

The x axis is the event log (sequence numbers, first to last of the span), the y axis a
pool's value (0 to the highest reached). Each pool's line steps: its value holds until
the next ledger line moves it. Numbers only; the template draws and words them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tables.recap.facts import Mark, Series

WIDTH, HEIGHT = 720, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28
LUCK_HEIGHT = 120
LIFT = 2  # each further line drawn this far above the one before (no two hide each other)
# A line's points drawn as dots (each a link with its numbers on hover and focus): past
# this many, every n-th and the last, so a long session's chart stays a few hundred
# links, not thousands a keyboard must cross. The line itself and the table below the
# chart keep every change.
MAX_DOTS = 120


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    seq: int
    value: int
    delta: int
    kind: str

    @property
    def label_y(self) -> float:
        return round(self.y - 9, 1)


@dataclass(frozen=True)
class Line:
    series: Series
    path: str  # the polyline's points
    dots: tuple[Dot, ...]  # every change
    drawn: tuple[Dot, ...]  # those drawn as dots (all, up to MAX_DOTS)


def drawn_dots(dots: tuple[Dot, ...]) -> tuple[Dot, ...]:
    if len(dots) <= MAX_DOTS:
        return dots
    step = -(-len(dots) // MAX_DOTS)
    return dots[::step] + (() if (len(dots) - 1) % step == 0 else dots[-1:])


@dataclass(frozen=True)
class Rule:
    """A vertical mark at one event."""

    x: float
    mark: Mark


@dataclass(frozen=True)
class Chart:
    lines: tuple[Line, ...]
    rules: tuple[Rule, ...]
    top: int  # the highest value on the y axis
    ticks: tuple[tuple[float, int], ...]  # (y, value) of the axis' labels
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bottom: float = HEIGHT - BOTTOM


def _x(seq: int, first: int, last: int) -> float:
    span = max(1, last - first)
    return round(LEFT + (seq - first) * (WIDTH - LEFT - RIGHT) / span, 1)


def _y(value: int, top: int, height: int = HEIGHT) -> float:
    return round(height - BOTTOM - value * (height - TOP - BOTTOM) / max(1, top), 1)


def chart(series: tuple[Series, ...], marks: tuple[Mark, ...], first: int, last: int) -> Chart:
    """The lines of `series` and the `marks` over events first … last."""
    top = max([s.start for s in series] + [p.value for s in series for p in s.points] + [1])
    lines = []
    for index, s in enumerate(series):
        # Lines at one value would hide each other: each sits LIFT units above the last.
        lift = index * LIFT
        dots = tuple(
            Dot(_x(p.seq, first, last), _y(p.value, top) - lift, p.seq, p.value, p.delta, p.kind)
            for p in s.points
        )
        path = [(_x(first, first, last), _y(s.start, top) - lift)]
        for dot in dots:
            path += [(dot.x, path[-1][1]), (dot.x, dot.y)]  # a step: hold, then move
        path.append((_x(last, first, last), path[-1][1]))
        lines.append(Line(s, " ".join(f"{x},{y}" for x, y in path), dots, drawn_dots(dots)))
    step = max(1, -(-top // 4))
    ticks = tuple((_y(v, top), v) for v in range(0, top + 1, step))
    rules = tuple(Rule(_x(m.seq, first, last), m) for m in marks)
    return Chart(tuple(lines), rules, top, ticks)


@dataclass(frozen=True)
class LuckLine:
    """A character's luck over the session: the running sum of each roll's successes less
    their exact expectation, as a line about the middle (above: luckier than expected)."""

    path: str
    middle: float
    scale: float  # the largest distance from the middle, in successes
    width: int = WIDTH
    height: int = LUCK_HEIGHT
    left: int = LEFT


def luck_line(rolls, first: int, last: int) -> LuckLine:
    middle = LUCK_HEIGHT / 2
    running, points = Fraction(0), [(_x(first, first, last), 0.0)]
    for roll in rolls:
        running += roll.observed - roll.expected
        x = _x(roll.seq, first, last)
        points += [(x, points[-1][1]), (x, float(running))]  # a step at each roll
    points.append((_x(last, first, last), points[-1][1]))
    scale = max([1.0] + [abs(v) for _, v in points])
    ys = [(x, round(middle - v * (middle - 6) / scale, 1)) for x, v in points]
    path = " ".join(f"{x},{y}" for x, y in ys)
    return LuckLine(path, middle, round(scale, 2))
