"""The chooser's trump and the bid: expected tricks from the hand, rounded with care.

Each card is worth its chance of taking a trick: a joker or the ace of trumps
almost always takes one, a guarded king of trumps usually, long trumps take
tricks by ruffing, side aces often (less so with trumps about to ruff them).
"""

from __future__ import annotations

from engine.cards import ACE, KING, QUEEN, Card, Suit
from engine.joker.robot.seat import Seat

JOKER_VALUE = 0.95
TRUMP_VALUE = {ACE: 0.95, KING: 0.75, QUEEN: 0.5}
LONG_TRUMP = 0.6  # each trump beyond the third
SHORT_TRUMP = 0.25  # a low trump among the first three: it may ruff
SIDE_QUEEN = 0.15  # with two guards
SIDE_ACE = (0.8, 0.7)  # no trump / with a trump suit
SIDE_KING = (0.45, 0.3)  # with a guard (the ace or another card of the suit)
PASS_BELOW = 0.65  # expected tricks under which a pass (0) is the bid


def _side_share(cards: int) -> float:
    """How much of a side card's value holds in a deal of ``cards`` cards each: in short
    deals the others, void in most suits, ruff or joker a side ace far more often."""
    return min(1.0, 0.45 + 0.11 * cards)


def trump_choice(seat: Seat) -> str:
    """From the first three cards: the suit held twice or more, or of an ace; else no trump."""
    naturals = [c for c in seat.hand if not c.is_joker]
    by_suit: dict[Suit, list[Card]] = {}
    for card in naturals:
        by_suit.setdefault(card.suit, []).append(card)  # type: ignore[arg-type]
    if not by_suit:
        return "trump:NT"
    best = max(by_suit, key=lambda s: (len(by_suit[s]), max(c.rank for c in by_suit[s])))
    cards = by_suit[best]
    if len(cards) >= 2 or cards[0].rank == ACE:
        return f"trump:{best.letter}"
    return "trump:NT"


def expected_tricks(hand: list[Card], trump: Suit | None, cards: int) -> float:
    """The tricks the hand should take in a deal of ``cards`` cards each."""
    total = 0.0
    trumped = 1 if trump is not None else 0
    for suit in Suit:
        held = sorted((c for c in hand if c.suit == suit), key=lambda c: -c.rank)
        if suit == trump:
            for i, card in enumerate(held):
                if card.rank in TRUMP_VALUE and (card.rank == ACE or len(held) > 1):
                    total += TRUMP_VALUE[card.rank]
                else:
                    total += LONG_TRUMP if i >= 3 else SHORT_TRUMP
        elif held:
            ranks = [c.rank for c in held]
            if ACE in ranks:
                total += SIDE_ACE[trumped] * _side_share(cards)
            if KING in ranks and len(held) > 1:
                total += SIDE_KING[trumped] * _side_share(cards)
            if QUEEN in ranks and len(held) > 2:
                total += SIDE_QUEEN * _side_share(cards)
    total += JOKER_VALUE * sum(c.is_joker for c in hand)
    return min(total, float(cards))


def bid(seat: Seat) -> str:
    return f"bid:{bid_for(seat.hand, seat.trump, seat.cards, seat.legal_bids())}"


def bid_for(hand: list[Card], trump: Suit | None, cards: int, bids: list[int]) -> int:
    """The bid nearest the expected tricks that the rules allow; a pass on weak hands."""
    expected = expected_tricks(hand, trump, cards)
    wanted = 0 if expected < PASS_BELOW else round(expected)
    return min(bids, key=lambda b: (abs(b - wanted), abs(b - expected), b))
