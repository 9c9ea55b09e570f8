"""The bundled fonts, loaded from the package: DejaVu Sans (Latin, Cyrillic, Georgian and the
suit symbols) and, for Devanagari, Noto Sans Devanagari (licences beside them).

The fonts travel with the code so that a host without system fonts draws the
same pictures. Pillow draws a text with one font, so a ``Face`` splits it into
runs: Devanagari in Noto (shaped as a whole word by Raqm), the rest in DejaVu,
all on DejaVu's baseline.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from io import BytesIO

from PIL import ImageDraw, ImageFont

FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
DEVANAGARI_FILES = {False: "NotoSansDevanagari-Regular.ttf", True: "NotoSansDevanagari-Bold.ttf"}
# Unicode blocks of Devanagari (and its Extended and Vedic blocks), and the joiners shaping
# uses inside a word.
_DEVANAGARI = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF), (0x200C, 0x200D))

Box = tuple[int, int, int, int]


def is_devanagari(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DEVANAGARI)


@dataclass(frozen=True)
class Face:
    """One size and weight of the bundled fonts, measuring and drawing mixed scripts."""

    main: ImageFont.FreeTypeFont
    devanagari: ImageFont.FreeTypeFont

    def runs(self, text: str) -> list[tuple[str, ImageFont.FreeTypeFont]]:
        """The text cut where its script changes; white space stays with the run it is in."""
        found: list[tuple[str, ImageFont.FreeTypeFont]] = []
        for char in text:
            face = (self.devanagari if is_devanagari(char) else
                    found[-1][1] if found and char.isspace() else self.main)
            if found and found[-1][1] is face:
                found[-1] = (found[-1][0] + char, face)
            else:
                found.append((char, face))
        return found

    def getlength(self, text: str) -> float:
        return sum(face.getlength(part) for part, face in self.runs(text))

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: str,
             anchor: str) -> Box:
        """Draw ``text`` at ``xy`` by Pillow's ``anchor`` (horizontal letter and ``a``, ``m``
        or ``s``); its box."""
        return self._lay(draw, xy, text, anchor, fill)

    def box(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
            anchor: str) -> Box:
        """Where ``draw`` would draw ``text``, drawing nothing."""
        return self._lay(draw, xy, text, anchor, None)

    def _lay(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, anchor: str,
             fill: str | None) -> Box:
        runs = self.runs(text)
        if all(face is self.main for _, face in runs):  # one font: Pillow lays it out itself
            if fill is not None:
                draw.text(xy, text, font=self.main, fill=fill, anchor=anchor)
            return _rounded(draw.textbbox(xy, text, font=self.main, anchor=anchor))
        ascent, descent = self.main.getmetrics()
        baseline = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0}[anchor[1]]
        width = self.getlength(text)
        x = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
        boxes = []
        for part, face in runs:
            if fill is not None:
                draw.text((x, baseline), part, font=face, fill=fill, anchor="ls")
            boxes.append(draw.textbbox((x, baseline), part, font=face, anchor="ls"))
            x += face.getlength(part)
        return _rounded((min(b[0] for b in boxes), min(b[1] for b in boxes),
                         max(b[2] for b in boxes), max(b[3] for b in boxes)))


def _rounded(box: tuple[float, float, float, float]) -> Box:
    left, top, right, bottom = box
    return int(left), int(top), int(right) + 1, int(bottom) + 1


@cache
def _data(name: str) -> bytes:
    return files(__package__).joinpath("fonts", name).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Face:
    return Face(ImageFont.truetype(BytesIO(_data(FILES[bold])), size),
                ImageFont.truetype(BytesIO(_data(DEVANAGARI_FILES[bold])), size))
