"""The bundled DejaVu Sans (Cyrillic, Georgian and the suit symbols), loaded from the package.

The fonts travel with the code so that a host without system fonts draws the
same pictures.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from io import BytesIO

from PIL import ImageFont

FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@cache
def _data(bold: bool) -> bytes:
    return files(__package__).joinpath("fonts", FILES[bold]).read_bytes()


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(BytesIO(_data(bold)), size)
