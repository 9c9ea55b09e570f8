"""The scoresheet as a picture (PNG, Pillow): the game's own drawing (its plugin's).

Every label goes through ``tr`` (a translation function; the identity gives
English). ``render_sheet`` also returns the texts drawn and where (see
``bot.ui.pictures.canvas``). Drawing takes tens of milliseconds: callers on the
event loop draw in a worker thread, from a copy of the match.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games import PLUGINS
from bot.ui.pictures.canvas import Picture
from engine.match import Match

Translate = Callable[[str], str]


def identity(text: str) -> str:
    return text


def render_sheet(match: Match, tr: Translate = identity) -> Picture:
    """The match's scoresheet as a picture, with the list of texts it shows."""
    plugin = PLUGINS.get(match.spec.name)
    if plugin is None:
        raise ValueError(f"no scoresheet picture for the game {match.spec.name!r}")
    return plugin.picture(match, tr)


def draw_sheet(match: Match, tr: Translate = identity) -> bytes:
    """The match's scoresheet as PNG bytes."""
    return render_sheet(match, tr).png


def caption(match: Match, tr: Callable[..., str]) -> str:
    return tr("Scoresheet · deals played: {n}", n=len(match.outputs))
