"""A small line chart: one line per series over its points, a legend under the plot (each
label may name the last value). Every text is recorded (``Canvas``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ui.pictures.canvas import Canvas, Picture, Rect
from bot.ui.pictures.numbers import number
from bot.ui.pictures.parts import framed
from bot.ui.pictures.style import GRID, LINE, MARGIN, MUTED, SMALL, SMALLEST, WIDTH

PLOT_HEIGHT = 360
AXIS = 72  # the labels' room on the left of the plot
RIGHT = 24  # room on the right of the plot
BELOW = 40  # the x labels under the plot
LEGEND_LINE = 40
STEPS = (1, 2, 2.5, 5)  # grid steps, times a power of ten


@dataclass(frozen=True)
class Series:
    """One line: its label (the legend's), colour and values in order."""

    label: str
    colour: str
    values: Sequence[float]


def line_chart(title: str, status: str, series: Sequence[Series],
               notes: Sequence[str] = ()) -> Picture:
    """The chart in the frame of every picture (title, status, notes); x counts the points
    of each series from 0, y is shared."""
    drawn = [s for s in series if s.values]
    height = PLOT_HEIGHT + BELOW + LEGEND_LINE * len(drawn)

    def body(canvas: Canvas, top: float) -> float:
        plot = Rect(MARGIN + AXIS, top + SMALL, WIDTH - MARGIN - RIGHT, top + PLOT_HEIGHT)
        low, high, step = _scale([v for s in drawn for v in s.values])
        longest = max((len(s.values) for s in drawn), default=1)

        def at(i: int, value: float) -> tuple[float, float]:
            x = plot.left + plot.width * i / max(longest - 1, 1)
            return x, plot.bottom - plot.height * (value - low) / (high - low)

        for k in range(round((high - low) / step) + 1):
            tick = low + k * step
            _, y = at(0, tick)
            canvas.draw.line((plot.left, y, plot.right, y), fill=GRID, width=1)
            canvas.label(Rect(MARGIN, y - SMALLEST, plot.left - 8, y + SMALLEST),
                         _figure(tick), size=SMALLEST, fill=MUTED,
                         align="right", tag=("y", k))
        for i in _x_ticks(longest):
            x, _ = at(i, low)
            canvas.label(Rect(x - 40, plot.bottom + 4, x + 40, plot.bottom + BELOW),
                         str(i), size=SMALLEST, fill=MUTED, tag=("x", i))
        canvas.draw.line((plot.left, plot.top, plot.left, plot.bottom, plot.right, plot.bottom),
                         fill=LINE, width=2)
        for s in drawn:
            points = [at(i, v) for i, v in enumerate(s.values)]
            if len(points) > 1:
                canvas.draw.line(points, fill=s.colour, width=4, joint="curve")
            x, y = points[-1]
            canvas.draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=s.colour)
        legend = plot.bottom + BELOW
        for n, s in enumerate(drawn):
            y = legend + n * LEGEND_LINE
            canvas.draw.rectangle((MARGIN, y + 12, MARGIN + 36, y + 28), fill=s.colour)
            canvas.label(Rect(MARGIN + 48, y, WIDTH - MARGIN, y + LEGEND_LINE), s.label,
                         size=SMALL, align="left", tag=("legend", n))
        return legend + len(drawn) * LEGEND_LINE

    return framed(title, status, height, body, notes)


def _scale(values: Sequence[float]) -> tuple[float, float, float]:
    """A low and high bound on whole grid steps around the values, and the step (about
    four to eight lines)."""
    low, high = min(values, default=0.0), max(values, default=1.0)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    raw = (high - low) / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (*STEPS, 10) if m * power >= raw)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _figure(value: float) -> str:
    rounded = round(value, 2)
    return number(int(rounded) if rounded == int(rounded) else rounded)


def _x_ticks(points: int) -> list[int]:
    """Where the x axis is labelled: 0, the last point, and evenly between (at most six)."""
    last = points - 1
    if last <= 0:
        return [0]
    every = math.ceil(last / 5)
    ticks = list(range(0, last, every))
    if len(ticks) > 1 and last - ticks[-1] < every / 2:  # too close to the last one
        ticks.pop()
    return [*ticks, last]
