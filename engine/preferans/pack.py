"""The game's pack of cards."""

from __future__ import annotations

from engine.cards import Card, deck


def preferans_deck() -> list[Card]:
    """32 cards, 7 to ace."""
    return deck(7)
