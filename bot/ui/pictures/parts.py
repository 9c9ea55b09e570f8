"""What every sheet picture has: a title with the status, balance cells, notes at the foot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ui.pictures.canvas import Canvas, Picture, Rect, Tag
from bot.ui.pictures.numbers import signed
from bot.ui.pictures.style import GAIN, INK, LOSS, MARGIN, MUTED, SMALL, TITLE, WIDTH
from bot.ui.pictures.table import Cell

TITLE_BAND = 56
NOTE_LINE = 36
NOTE_GAP = 8  # between the body and the first note
TITLE_SHARE = 0.62  # of the width, the rest is the status


def framed(title: str, status: str, body_height: float,
           draw_body: Callable[[Canvas, float], float], notes: Sequence[str]) -> Picture:
    """A sheet picture: the title band, the body drawn from its top by ``draw_body`` (which
    returns its bottom), the notes under it."""
    top = MARGIN + TITLE_BAND
    canvas = Canvas(WIDTH, int(top + body_height + NOTE_GAP + len(notes) * NOTE_LINE + MARGIN))
    _title(canvas, title, status)
    _notes(canvas, draw_body(canvas, top), notes)
    return canvas.picture()


def _title(canvas: Canvas, title: str, status: str) -> None:
    """The title on the left, the status on the right."""
    bottom = MARGIN + TITLE_BAND
    split = MARGIN + (WIDTH - 2 * MARGIN) * TITLE_SHARE
    canvas.label(Rect(MARGIN, MARGIN, split, bottom), title, size=TITLE, bold=True,
                 align="left", tag=("title",))
    canvas.label(Rect(split, MARGIN, WIDTH - MARGIN, bottom), status, size=SMALL, fill=MUTED,
                 align="right", tag=("status",))


def status(tr: Callable[[str], str], complete: bool, deals: int | str) -> str:
    """``deals: 12 · in progress``."""
    state = tr("game over") if complete else tr("in progress")
    return " · ".join((tr("deals: {count}").format(count=deals), state))


def balance_cell(value: int | float, tag: Tag, span: int = 1) -> Cell:
    """A settlement figure: signed, bold, green above zero and red below."""
    return Cell(signed(value), tag=tag, bold=True, span=span,
                fill=GAIN if value > 0 else LOSS if value < 0 else INK)


def _notes(canvas: Canvas, top: float, notes: Sequence[str]) -> None:
    for k, note in enumerate(notes):
        y = top + NOTE_GAP + k * NOTE_LINE
        canvas.label(Rect(MARGIN, y, WIDTH - MARGIN, y + NOTE_LINE), note, size=SMALL,
                     fill=MUTED, align="left", tag=("note", k))
