"""The recap's charts as SVG coordinates (no chart library: a polyline and its points).

The x axis is the event log (sequence numbers, first to last of the span), the y axis a
pool's value (0 to the highest reached). Each pool's line steps: its value holds until
the next ledger line moves it. Numbers only; the template draws and words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.recap.facts import Mark, Series

WIDTH, HEIGHT = 720, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28
LUCK_HEIGHT = 120
LIFT = 2  # each further line drawn this far above the one before (no two hide each other)


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
    dots: tuple[Dot, ...]


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
        lines.append(Line(s, " ".join(f"{x},{y}" for x, y in path), dots))
    step = max(1, -(-top // 4))
    ticks = tuple((_y(v, top), v) for v in range(0, top + 1, step))
    rules = tuple(Rule(_x(m.seq, first, last), m) for m in marks)
    return Chart(tuple(lines), rules, top, ticks)


@dataclass(frozen=True)
class LuckBar:
    """One roll's successes over (or under) its expectation, as a bar from the middle."""

    x: float
    y: float
    height: float
    above: bool
    seq: int
    observed: int
    expected: float

    @property
    def left(self) -> float:
        return round(self.x - 3, 1)


def luck_bars(rolls, first: int, last: int) -> tuple[LuckBar, ...]:
    """Each roll's luck (successes less their exact expectation) as a bar, ±3 full scale."""
    middle = LUCK_HEIGHT / 2
    bars = []
    for roll in rolls:
        luck = float(roll.observed - roll.expected)
        size = round(min(3.0, abs(luck)) * (middle - 6) / 3, 1)
        above = luck >= 0
        x = _x(roll.seq, first, last)
        bars.append(
            LuckBar(
                x, middle - size if above else middle, size, above, roll.seq, roll.observed,
                float(roll.expected),
            )
        )  # fmt: skip
    return tuple(bars)
