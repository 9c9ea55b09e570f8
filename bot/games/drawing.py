"""Each game drawn for the Mini App (its plugin's ``miniapp``): its view as seats around a
table, the cards in the middle, the player's hand and the actions he may take, every text
already in his language (Telegram's HTML, names escaped). The page draws these the same way
for every game.

A drawing is plain JSON:

- ``seats``: ``{seat, name, note, taken, count, shown, team}`` per seat (``count`` cards
  held face down, ``shown`` cards face up: an exposed hand);
- ``trick``, ``last_trick``: ``{seat, card, label}`` plays;
- ``areas``: ``{label, groups: [{label, cards}], middle}`` (talon, discard, Seep's floor, the
  trump);
- ``hand``: the player's cards; ``actions``: ``{seat, action, label, cards}``, where
  ``cards`` are the cards to tap for it (none: a button; one: a card, and the label names
  the move where a card has several; two: the discard, confirmed by its label).

These are the pieces every game's drawing is made of.
"""

from __future__ import annotations

from html import escape
from typing import Any

Drawing = dict[str, Any]


def seat(view: dict[str, Any], names: list[str], s: int, *, count: int, note: str = "",
         taken: str = "", shown: list[str] | None = None, team: int | None = None
         ) -> dict[str, Any]:
    return {"seat": s, "name": escape(names[s]), "dealer": view["dealer"] == s,
            "turn": s in view["to_act"], "count": count, "note": note, "taken": taken,
            "shown": shown, "team": team}


def play(s: int, code: str, label: str) -> dict[str, Any]:
    return {"seat": s, "card": code, "label": label}


def action(s: int, text: str, label: str, cards: list[str] | None = None) -> dict[str, Any]:
    return {"seat": s, "action": text, "label": label, "cards": cards or []}


def area(label: str, *groups: tuple[str, list[str]], middle: bool = False) -> dict[str, Any]:
    """Cards face up outside the hands; ``middle``: in the middle of the table (Seep's floor),
    else beside it (a talon)."""
    return {"label": label, "groups": [{"label": g, "cards": c} for g, c in groups],
            "middle": middle}


def drawing(seats: list[dict[str, Any]], *, hand: list[str], actions: list[dict[str, Any]],
            trick: list[dict[str, Any]] | None = None,
            last_trick: list[dict[str, Any]] | None = None,
            areas: list[dict[str, Any]] | None = None) -> Drawing:
    return {"seats": seats, "trick": trick or [], "last_trick": last_trick or [],
            "areas": [a for a in areas or [] if any(g["cards"] for g in a["groups"])],
            "hand": hand, "actions": actions}
