"""Each game drawn for the Mini App: its view as seats around a table, the cards in the
middle, the player's hand and the actions he may take, every text already in his language
(Telegram's HTML, names escaped). The page draws these the same way for every game.

A drawing is plain JSON:

- ``seats``: ``{seat, name, note, taken, count, shown, team}`` per seat (``count`` cards
  held face down, ``shown`` cards face up: an exposed hand);
- ``trick``, ``last_trick``: ``{seat, card, label}`` plays;
- ``areas``: ``{label, groups: [{label, cards}], middle}`` (talon, discard, Seep's floor, the
  trump);
- ``hand``: the player's cards; ``actions``: ``{seat, action, label, cards}``, where
  ``cards`` are the cards to tap for it (none: a button; one: a card, and the label names
  the move where a card has several; two: the discard, confirmed by its label).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ui.context import RenderContext
from bot.webapp.games import joker, preferans, seep

Drawing = dict[str, Any]

DRAW: dict[str, Callable[[dict[str, Any], RenderContext], Drawing]] = {
    "preferans": preferans.draw, "seep": seep.draw, "joker": joker.draw}
