"""What every picture must satisfy, and reading its drawn texts back."""

from __future__ import annotations

from io import BytesIO
from itertools import combinations
from typing import Any

from PIL import Image

from bot.ui.pictures.canvas import ELLIPSIS, Picture, TextItem
from bot.ui.pictures.numbers import parse
from bot.ui.pictures.style import WIDTH


def assert_sound(picture: Picture) -> None:
    """A PNG of the stated size, 1080 px wide, within sendPhoto's limits (10 MB, width plus
    height at most 10000, sides at most 1:20), every text inside it and none over another."""
    image = Image.open(BytesIO(picture.png))
    assert image.format == "PNG"
    assert image.size == picture.size
    width, height = picture.size
    assert width == WIDTH
    assert height >= 400 and width + height <= 10_000 and height <= 20 * width
    assert len(picture.png) <= 10 * 2**20
    for item in picture.items:
        left, top, right, bottom = item.box
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, item
        assert item.text, item
    for a, b in combinations(picture.items, 2):
        assert not _overlap(a.box, b.box), (a, b)


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def one(picture: Picture, *tag: Any) -> TextItem:
    """The one item drawn with exactly this tag."""
    found = [item for item in picture.items if item.tag == tag]
    assert len(found) == 1, (tag, found)
    return found[0]


def value(picture: Picture, *tag: Any) -> float:
    return parse(one(picture, *tag).text)


def shows_name(text: str, name: str) -> bool:
    """The name as drawn: whole, or cut short with an ellipsis where room ran out."""
    return text == name or (text.endswith(ELLIPSIS) and name.startswith(text[:-1])
                            and len(text) > 1)


def tokens(text: str) -> list[str]:
    """The entries of a running sequence ``…12.14.16`` (without the ellipsis)."""
    return text.removeprefix(ELLIPSIS).split(".")


def cut(record: dict[str, Any], actions: int) -> dict[str, Any]:
    """The record with its last deal stopped after ``actions`` actions: a deal in progress."""
    deals = [dict(d) for d in record["deals"]]
    deals[-1]["actions"] = deals[-1]["actions"][:actions]
    return {**record, "deals": deals}
