"""Cards as players read them: hands grouped by suit, high cards first, with the rank
letters players of the language write (J Q K A in English, В Д К Т in Russian)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bot.ui.i18n import Translate
from engine.cards import ACE, JACK, JOKER, KING, QUEEN, Card, Suit, parse_card

SUIT_ORDER = (Suit.S, Suit.C, Suit.D, Suit.H)
_FACES = (JACK, QUEEN, KING, ACE)


def _face_letters(tr: Translate) -> str:
    # The jack, queen, king and ace as players write them, in this order, one space apart.
    return tr("J Q K A")


@cache
def _ranks(letters: str) -> dict[int, str]:
    faces = letters.split()
    assert len(faces) == len(_FACES), f"four rank letters, not {letters!r}"
    return {**{r: str(r) for r in range(2, 11)}, **dict(zip(_FACES, faces, strict=True))}


def rank(c: Card, tr: Translate) -> str:
    """A card's rank as the reader writes it: ``10``, ``Q`` (``Д``)."""
    return "JK" if c.is_joker else _ranks(_face_letters(tr))[c.rank]


def shown(c: Card, tr: Translate) -> str:
    """A card with its suit symbol: ``Q♥`` (``Д♥`` in Russian), ``🃏``."""
    if c.suit is None:
        return JOKER.display
    return rank(c, tr) + c.suit.symbol


def card(text: str, tr: Translate) -> str:
    """``"10H"`` -> ``"10♥"``, ``"QH"`` -> ``"Q♥"``."""
    return shown(parse_card(text), tr)


def cards(texts: Iterable[str], tr: Translate) -> str:
    return " ".join(card(t, tr) for t in texts)


def hand_lines(texts: Iterable[str], tr: Translate) -> list[str]:
    """One line per suit held, ``♠ A K 10 7``, high to low; jokers on their own line."""
    parsed = [parse_card(t) for t in texts]
    lines = []
    for suit in SUIT_ORDER:
        ranks = sorted((c for c in parsed if c.suit == suit), key=lambda c: -c.rank)
        if ranks:
            lines.append(f"{suit.symbol} " + " ".join(rank(c, tr) for c in ranks))
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
