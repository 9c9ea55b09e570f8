"""The game's pack of cards."""

from __future__ import annotations

from engine.cards import Card, deck


def seep_deck() -> list[Card]:
    """The full 52-card pack."""
    return deck(2)
