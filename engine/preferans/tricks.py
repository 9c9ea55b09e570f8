"""Trick play (spec section 7): follow suit, else trump, else anything; who wins."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit


def playable(hand: Sequence[Card], led: Suit | None, trump: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led with ``led``."""
    if led is None:
        return list(hand)
    follow = [c for c in hand if c.suit == led]
    if follow:
        return follow
    if trump is not None:
        trumps = [c for c in hand if c.suit == trump]
        if trumps:
            return trumps
    return list(hand)


def winner(plays: Sequence[tuple[int | None, Card]], trump: Suit | None) -> int:
    """The index in ``plays`` of the winning card; a play by ``None`` (the 3-player
    raspasy talon card) shows the suit but cannot win."""
    led = plays[0][1].suit
    best = -1
    best_key = (-1, -1)
    for i, (owner, card) in enumerate(plays):
        if owner is None:
            continue
        if trump is not None and card.suit == trump:
            key = (2, card.rank)
        elif card.suit == led:
            key = (1, card.rank)
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best
