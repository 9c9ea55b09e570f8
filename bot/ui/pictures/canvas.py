"""A Pillow image that remembers every text it draws, where, and what it stands for.

Each text is kept as a ``TextItem`` with its box and a ``tag`` naming the datum
it shows (``("balance", 2)``, ``("whists", 0, 1)``...), so that tests compare
a picture with the sheet it was drawn from without reading pixels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageDraw

from bot.ui.pictures.fonts import font
from bot.ui.pictures.style import INK, PAPER, SMALLEST

ELLIPSIS = "…"
Tag = tuple[str | int, ...]


@dataclass(frozen=True)
class Rect:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def centre(self) -> tuple[float, float]:
        return (self.left + self.right) / 2, (self.top + self.bottom) / 2

    def inset(self, dx: float, dy: float | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.left + dx, self.top + dy, self.right - dx, self.bottom - dy)


@dataclass(frozen=True)
class TextItem:
    """A drawn text: as drawn (ellipsis included), its box (left, top, right, bottom), its datum."""

    text: str
    box: tuple[int, int, int, int]
    tag: Tag = ()


@dataclass(frozen=True)
class Picture:
    png: bytes
    size: tuple[int, int]
    items: tuple[TextItem, ...]

    def tagged(self, *tag: str | int) -> list[TextItem]:
        """The items whose tag starts with ``tag``."""
        return [item for item in self.items if item.tag[: len(tag)] == tag]


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width, height), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.items: list[TextItem] = []

    def text(self, xy: tuple[float, float], text: str, *, size: int, bold: bool = False,
             fill: str = INK, anchor: str = "la", tag: Tag = ()) -> TextItem:
        """One line of text at ``xy`` (Pillow's ``anchor``), recorded."""
        item = TextItem(text, self._put(xy, text, size, bold, fill, anchor), tag)
        self.items.append(item)
        return item

    def label(self, rect: Rect, text: str, *, size: int, bold: bool = False, fill: str = INK,
              align: str = "center", backdrop: str | None = None, tag: Tag = ()) -> TextItem:
        """One line inside ``rect``, vertically centred: shrunk to fit down to ``SMALLEST``,
        then cut with an ellipsis; on a rounded ``backdrop`` colour if given."""
        pad = size // 3 if backdrop else 0
        width = rect.width - 2 * pad
        size = fitting_size([text], max(SMALLEST, min(size, int(rect.height))), bold, width)
        text = fit_width(text, size, bold, width)
        x = {"left": rect.left + pad, "center": rect.centre[0], "right": rect.right - pad}[align]
        anchor = {"left": "lm", "center": "mm", "right": "rm"}[align]
        xy = (x, rect.centre[1])
        if backdrop:
            left, _, right, _ = font(size, bold).box(self.draw, xy, text, anchor)
            self.draw.rounded_rectangle((left - pad, rect.top, right + pad, rect.bottom),
                                        radius=pad, fill=backdrop)
        return self.text(xy, text, size=size, bold=bold, fill=fill, anchor=anchor, tag=tag)

    def sequence(self, rect: Rect, tokens: Sequence[str], *, sizes: Sequence[int],
                 bold: bool = False, fill: str = INK, sep: str = ".", top: bool = False,
                 tag: Tag = ()) -> TextItem | None:
        """Running entries written as on paper, ``2.4.8``, wrapped at the dots into ``rect``
        (centred in it, or from its ``top``).

        The largest of ``sizes`` that fits is used; when none fits, the oldest
        entries give way to an ellipsis (the latest entry is the one that counts).
        """
        if not tokens:
            return None
        size, lines = _fit_tokens(list(tokens), sep, sizes, bold, rect)
        lead = _leading(size)
        x = rect.centre[0]
        y = rect.top + lead / 2 if top else rect.centre[1] - lead * (len(lines) - 1) / 2
        boxes = [self._put((x, y + i * lead), line, size, bold, fill, "mm")
                 for i, line in enumerate(lines)]
        box = (min(b[0] for b in boxes), boxes[0][1], max(b[2] for b in boxes), boxes[-1][3])
        item = TextItem("".join(lines), box, tag)
        self.items.append(item)
        return item

    def _put(self, xy: tuple[float, float], text: str, size: int, bold: bool, fill: str,
             anchor: str) -> tuple[int, int, int, int]:
        return font(size, bold).draw(self.draw, xy, text, fill, anchor)

    def picture(self) -> Picture:
        out = BytesIO()
        self.image.save(out, format="PNG", compress_level=3)
        return Picture(out.getvalue(), self.image.size, tuple(self.items))


def fitting_size(texts: Iterable[str], size: int, bold: bool, width: float) -> int:
    """The largest size from ``size`` down (by 2, not below ``SMALLEST``) where every text fits."""
    texts = list(texts)
    while size > SMALLEST and any(font(size, bold).getlength(t) > width for t in texts):
        size -= 2
    return size


def fit_width(text: str, size: int, bold: bool, width: float) -> str:
    """``text``, or its longest prefix plus an ellipsis that fits ``width``."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


def _leading(size: int) -> int:
    return round(size * 1.2)


def _fit_tokens(tokens: list[str], sep: str, sizes: Sequence[int], bold: bool,
                rect: Rect) -> tuple[int, list[str]]:
    """The size and lines for ``Canvas.sequence``."""
    for size in sizes:
        lines = _wrap(tokens, sep, size, bold, rect.width)
        if len(lines) * _leading(size) <= rect.height:
            return size, lines
    size = sizes[-1]
    rows = max(1, int(rect.height // _leading(size)))
    for start in range(1, len(tokens)):
        lines = _wrap([ELLIPSIS + tokens[start], *tokens[start + 1:]], sep, size, bold,
                      rect.width)
        if len(lines) <= rows:
            return size, lines
    return size, [ELLIPSIS + tokens[-1]]


def _wrap(tokens: list[str], sep: str, size: int, bold: bool, width: float) -> list[str]:
    """Tokens joined by ``sep``, broken after a separator where a line would overflow."""
    face = font(size, bold)
    lines = [""]
    for i, token in enumerate(tokens):
        piece = token + (sep if i < len(tokens) - 1 else "")
        if lines[-1] and face.getlength(lines[-1] + piece) > width:
            lines.append(piece)
        else:
            lines[-1] += piece
    return lines
