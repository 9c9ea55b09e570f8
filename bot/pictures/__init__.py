"""Scoresheet pictures as PNG bytes (Pillow): pure drawing, no Telegram.

``draw_sheet(match, tr)`` picks the game's picture: the pulya for Preferans,
the 24-deal table for Joker, the bazzi ledger for Seep. Every label goes
through ``tr`` (a translation function; the identity gives English);
``render_sheet`` also returns the texts drawn and where (see ``canvas``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.pictures.canvas import Picture, TextItem
from bot.pictures.joker import draw_joker
from bot.pictures.pulya import draw_pulya
from bot.pictures.seep import draw_seep

if TYPE_CHECKING:
    from engine.match import Match

Translate = Callable[[str], str]
DRAWERS: dict[str, Callable[[Match, Translate], Picture]] = {
    "preferans": draw_pulya,
    "joker": draw_joker,
    "seep": draw_seep,
}


def identity(text: str) -> str:
    return text


def render_sheet(match: Match, tr: Translate = identity) -> Picture:
    """The match's scoresheet as a picture, with the list of texts it shows."""
    try:
        drawer = DRAWERS[match.spec.name]
    except KeyError:
        raise ValueError(f"no scoresheet picture for the game {match.spec.name!r}") from None
    return drawer(match, tr)


def draw_sheet(match: Match, tr: Translate = identity) -> bytes:
    """The match's scoresheet as PNG bytes."""
    return render_sheet(match, tr).png


__all__ = ["Picture", "TextItem", "Translate", "draw_sheet", "identity", "render_sheet"]
