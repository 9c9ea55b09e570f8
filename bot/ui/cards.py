"""Cards as players read them: hands grouped by suit, high cards first."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Suit, parse_card

SUIT_ORDER = (Suit.S, Suit.C, Suit.D, Suit.H)


def card(text: str) -> str:
    """``"10H"`` -> ``"10♥"``."""
    return parse_card(text).display


def cards(texts: Iterable[str]) -> str:
    return " ".join(card(t) for t in texts)


def hand_lines(texts: Iterable[str]) -> list[str]:
    """One line per suit held, ``♠ A K 10 7``, high to low; jokers on their own line."""
    parsed = [parse_card(t) for t in texts]
    lines = []
    for suit in SUIT_ORDER:
        ranks = sorted((c for c in parsed if c.suit == suit), key=lambda c: -c.rank)
        if ranks:
            lines.append(f"{suit.symbol} " + " ".join(c.rank_text for c in ranks))
    jokers = [c for c in parsed if c.is_joker]
    if jokers:
        lines.append(" ".join(c.display for c in jokers))
    return lines


def by_suit(texts: Iterable[str]) -> list[list[str]]:
    """Card texts grouped by suit (rows of buttons), high to low."""
    parsed = [parse_card(t) for t in texts]
    groups = []
    for suit in SUIT_ORDER:
        group = sorted((c for c in parsed if c.suit == suit), key=lambda c: -c.rank)
        if group:
            groups.append([str(c) for c in group])
    jokers = [str(c) for c in parsed if c.is_joker]
    if jokers:
        groups.append(jokers)
    return groups
