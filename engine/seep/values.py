"""Capture values, point values and the canonical card order of Seep (spec section 2, 16.4.8)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import ACE, Card, Suit

TEN_OF_DIAMONDS = Card(10, Suit.D)


def value(card: Card) -> int:
    """Capture value: A = 1, 2-10 face value, J = 11, Q = 12, K = 13."""
    return 1 if card.rank == ACE else card.rank


def total(cards: Iterable[Card]) -> int:
    return sum(value(c) for c in cards)


def points(card: Card, ten_of_diamonds: int) -> int:
    """Card points: spades at capture value, other aces 1, the ten of diamonds as the rules say."""
    if card.suit is Suit.S:
        return value(card)
    if card.rank == ACE:
        return 1
    return ten_of_diamonds if card == TEN_OF_DIAMONDS else 0


def order(card: Card) -> tuple[int, int]:
    """Canonical order: capture value descending, then suit S, C, D, H."""
    assert card.suit is not None
    return (-value(card), int(card.suit))


def ordered(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=order)


def display(cards: Iterable[Card]) -> str:
    """Cards joined for a label: ``5♠+4♦``."""
    return "+".join(c.display for c in ordered(cards))
