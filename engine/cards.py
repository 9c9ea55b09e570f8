"""Cards, suits, ranks, decks and the record notation of records.md.

Notation: rank then suit, case-insensitive on input (``T`` accepted for ten),
canonical on output: ``7S``, ``10H``, ``QD``, ``AC``; jokers are ``JK``.
Display uses suit symbols: ``7♠``, ``10♥``, ``🃏``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum


class CardError(ValueError):
    """A card or card list that cannot be parsed."""


class Suit(IntEnum):
    """Suits in Preferans bidding order, lowest first: ♠ < ♣ < ♦ < ♥."""

    S = 0
    C = 1
    D = 2
    H = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


SUIT_SYMBOLS = {Suit.S: "♠", Suit.C: "♣", Suit.D: "♦", Suit.H: "♥"}
_SUIT_LETTERS = {s: s.name for s in Suit}  # Card.__str__ runs in every view: no enum lookups

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
JOKER_RANK = 15
_RANK_TEXT = {**{r: str(r) for r in range(2, 11)}, JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_RANK_PARSE = {text: rank for rank, text in _RANK_TEXT.items()} | {"T": 10}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``suit`` is None only for a joker (rank ``JOKER_RANK``)."""

    rank: int
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return _RANK_TEXT[self.rank] + _SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def display(self) -> str:
        if self.suit is None:
            return "🃏"
        return _RANK_TEXT[self.rank] + self.suit.symbol

    @property
    def rank_text(self) -> str:
        return "JK" if self.suit is None else _RANK_TEXT[self.rank]

    def sort_key(self) -> tuple[int, int]:
        """Suit-major order (jokers last), used for displaying hands."""
        return (4 if self.suit is None else int(self.suit), self.rank)


JOKER = Card(JOKER_RANK, None)

_ALL = {str(c): c for c in [JOKER] + [Card(r, s) for s in Suit for r in range(2, 15)]}


def parse_card(text: str) -> Card:
    """Parse one card in record notation; raises CardError with the reason."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like '7S', not {text!r}")
    key = text.strip().upper()
    if key == "JK":
        return JOKER
    if len(key) < 2:
        raise CardError(f"'{text}' is not a card (expected rank then suit, e.g. '7S', '10H')")
    rank_text, suit_text = key[:-1], key[-1]
    if suit_text not in Suit.__members__:
        raise CardError(f"'{text}' has no suit: the last letter must be S, C, D or H")
    rank = _RANK_PARSE.get(rank_text)
    if rank is None:
        raise CardError(f"'{text}' has no valid rank: use 2-10, T, J, Q, K or A")
    return _ALL[_RANK_TEXT[rank] + suit_text]


# How players write suits and ranks by hand (lower case): letters, symbols and the Russian
# letters (пики, трефы/крести, бубны, черви; туз, король, дама, валет).
SUIT_WORDS = {"s": "S", "♠": "S", "п": "S", "c": "C", "♣": "C", "т": "C", "к": "C",
              "d": "D", "♦": "D", "б": "D", "h": "H", "♥": "H", "ч": "H"}
_RUSSIAN_RANKS = {"т": "A", "к": "K", "д": "Q", "в": "J"}


def parse_written_card(text: str) -> Card:
    """A card as a player writes it: the record notation, or Russian letters and suit
    symbols (``тч`` or ``Т♥`` for ``AH``, ``10б`` for ``10D``); CardError if it is none."""
    word = text.strip().lower()
    suit = SUIT_WORDS.get(word[-1:])
    rank = _RUSSIAN_RANKS.get(word[:-1], word[:-1])
    if suit is not None and rank.upper() in _RANK_PARSE:
        return parse_card(rank.upper() + suit)
    return parse_card(text)


def parse_cards(items: Iterable[str] | str) -> list[Card]:
    """Parse a list of cards, or one string of cards separated by commas or spaces."""
    if isinstance(items, str):
        items = [p for p in items.replace(",", " ").split() if p]
    return [parse_card(item) for item in items]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def sorted_hand(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=Card.sort_key)


def deck(low_rank: int, *, jokers_replace: Sequence[Card] = ()) -> list[Card]:
    """All cards from ``low_rank`` to ace in every suit; listed cards become jokers."""
    cards = [Card(r, s) for s in Suit for r in range(low_rank, ACE + 1)]
    for card in jokers_replace:
        cards.remove(card)
    return cards + [JOKER] * len(jokers_replace)


def shuffled(cards: Sequence[Card], seed: int | str) -> list[Card]:
    """A reproducible shuffle: the same seed always gives the same order."""
    out = list(cards)
    random.Random(seed).shuffle(out)
    return out
