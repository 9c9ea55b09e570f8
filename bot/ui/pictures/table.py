"""Ruled tables: the Joker sheet, the Seep ledger and the pulya's legend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ui.pictures.canvas import Canvas, Rect, Tag, fit_width, fitting_size
from bot.ui.pictures.fonts import font
from bot.ui.pictures.style import BODY, GRID, INK, LINE, MUTED, SMALL

PAD = 10  # inside each cell, left and right
NOTE_GAP = 6


@dataclass(frozen=True)
class Column:
    width: int
    align: str = "right"  # left, center or right
    rule: bool = False  # a vertical line on its left edge (between column groups)


@dataclass(frozen=True)
class Cell:
    text: str = ""
    tag: Tag = ()
    bold: bool = False
    fill: str = INK
    note: str = ""  # a smaller text after the main one: a premium, a mark
    note_fill: str = MUTED
    span: int = 1  # columns it covers
    shade: str | None = None  # its own background
    align: str | None = None  # instead of its column's
    size: int | None = None  # instead of its row's


@dataclass(frozen=True)
class Row:
    cells: Sequence[Cell]
    height: int
    size: int = BODY
    shade: str | None = None
    rule: bool = False  # a heavier line above the row


def table_height(rows: Sequence[Row]) -> int:
    return sum(row.height for row in rows)


def draw_table(canvas: Canvas, left: float, top: float, columns: Sequence[Column],
               rows: Sequence[Row]) -> float:
    """Draw ``rows`` from ``top``; returns the bottom edge."""
    right = left + sum(c.width for c in columns)
    y = top
    for row in rows:
        if row.shade:
            canvas.draw.rectangle((left, y, right, y + row.height), fill=row.shade)
        x, k = left, 0
        for cell in row.cells:
            cols = columns[k:k + cell.span]
            width = sum(c.width for c in cols)
            rect = Rect(x, y, x + width, y + row.height)
            if cell.shade:
                canvas.draw.rectangle((rect.left, rect.top, rect.right, rect.bottom),
                                      fill=cell.shade)
            _cell(canvas, rect.inset(PAD, 0), cell, cell.align or cols[0].align,
                  cell.size or row.size)
            x, k = x + width, k + cell.span
        if k != len(columns):
            raise ValueError(f"a row covers {k} of {len(columns)} columns")
        canvas.draw.line((left, y, right, y), fill=LINE if row.rule else GRID,
                         width=2 if row.rule else 1)
        y += row.height
    canvas.draw.line((left, y, right, y), fill=LINE, width=2)
    x = left
    for column in columns:
        if column.rule:
            canvas.draw.line((x, top, x, y), fill=LINE, width=2)
        x += column.width
    return y


def _cell(canvas: Canvas, rect: Rect, cell: Cell, align: str, size: int) -> None:
    if not cell.text:
        return
    note_size = min(SMALL, size)
    note_width = font(note_size).getlength(cell.note) + NOTE_GAP if cell.note else 0
    room = rect.width - note_width
    size = fitting_size([cell.text], size, cell.bold, room)
    text = fit_width(cell.text, size, cell.bold, room)
    width = font(size, cell.bold).getlength(text) + note_width
    x = {"left": rect.left, "center": rect.centre[0] - width / 2, "right": rect.right - width}
    start, middle = x[align], rect.centre[1]
    item = canvas.text((start, middle), text, size=size, bold=cell.bold, fill=cell.fill,
                       anchor="lm", tag=cell.tag)
    if cell.note:
        canvas.text((item.box[2] + NOTE_GAP, middle), cell.note, size=note_size,
                    fill=cell.note_fill, anchor="lm", tag=(*cell.tag, "note") if cell.tag else ())
