"""The game's pack of cards."""

from __future__ import annotations

from engine.cards import Card, Suit, deck


def joker_deck() -> list[Card]:
    """36 cards: 6 to ace with the two black sixes replaced by two jokers."""
    return deck(6, jokers_replace=(Card(6, Suit.S), Card(6, Suit.C)))
