"""Dealing (spec section 4; two players: section 13): from a seed, or a record's deal object.

Hands are kept in record order: the bidder's first four cards first, and with
two players the first half (12 cards) before the second.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import RecordError
from engine.cards import Card, format_cards, parse_cards, shuffled
from engine.seep.pack import seep_deck
from engine.seep.rules import Rules
from engine.seep.values import value

FIRST_CARDS = 4  # the bidder's cards before the bid, and the floor
_KEYS = {"dealer", "bidder", "hands", "floor", "actions", "bidder_cards", "redeal"}


@dataclass(frozen=True)
class Dealt:
    """A deal's cards. A void deal (spec 4.3) has only the bidder's first four cards."""

    dealer: int
    bidder: int
    bidder_cards: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] = ()
    floor: tuple[Card, ...] = ()

    @property
    def void(self) -> bool:
        return not self.hands

    def record(self) -> dict[str, Any]:
        """The deal object of a record, without its actions (spec section 15)."""
        head = {"dealer": self.dealer, "bidder": self.bidder}
        if self.void:
            return {**head, "bidder_cards": format_cards(self.bidder_cards), "redeal": True}
        return {**head, "hands": [format_cards(h) for h in self.hands],
                "floor": format_cards(self.floor)}


def is_void(bidder_cards: Sequence[Card]) -> bool:
    """Spec 4.3: no card of capture value 9 or more among the bidder's first four."""
    return all(value(c) < 9 for c in bidder_cards)


def deal_from_seed(rules: Rules, dealer: int, seed: int | str) -> Dealt:
    """Shuffle and deal: the bidder's four, the floor's four, then packets of four to the right."""
    cards = shuffled(seep_deck(), seed)
    bidder = rules.next_seat(dealer)
    first, floor, rest = cards[:FIRST_CARDS], cards[FIRST_CARDS:2 * FIRST_CARDS], cards[8:]
    if is_void(first):
        return Dealt(dealer, bidder, tuple(first))
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    hands[bidder] = list(first)
    seat = bidder
    while rest:
        if len(hands[seat]) < rules.hand_size:
            hands[seat] += rest[:4]
            rest = rest[4:]
        seat = rules.next_seat(seat)
    return Dealt(dealer, bidder, tuple(first), tuple(map(tuple, hands)), tuple(floor))


def deal_from_record(rules: Rules, dealer: int, deal: Mapping[str, Any]) -> Dealt:
    """Check a record's deal object (spec section 15); RecordError says what is wrong."""
    unknown = sorted(set(deal) - _KEYS)
    if unknown:
        raise RecordError(f"unknown deal field(s): {', '.join(unknown)}")
    if deal.get("dealer") != dealer or type(deal.get("dealer")) is not int:
        raise RecordError(f"the dealer must be seat {dealer} (the dealer rotation of section 11), "
                          f"not {deal.get('dealer')!r}")
    bidder = rules.next_seat(dealer)
    if "bidder" in deal and (deal["bidder"] != bidder or type(deal["bidder"]) is not int):
        raise RecordError(f"the bidder must be seat {bidder}, the dealer's right")
    if deal.get("redeal", False) is not False:
        return _void_from_record(dealer, bidder, deal)
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise RecordError(f"hands must be a list of {rules.players} card lists")
    parsed = [parse_cards(_card_list(h, "a hand")) for h in hands]
    for seat, hand in enumerate(parsed):
        if len(hand) != rules.hand_size:
            raise RecordError(f"seat {seat} must hold {rules.hand_size} cards, not {len(hand)}")
    floor = parse_cards(_card_list(deal.get("floor"), "floor"))
    if len(floor) != FIRST_CARDS:
        raise RecordError(f"the floor must have {FIRST_CARDS} cards, not {len(floor)}")
    _check_pack([c for h in parsed for c in h] + floor)
    first = parsed[bidder][:FIRST_CARDS]
    if is_void(first):
        raise RecordError(f"the bidder's first four cards ({' '.join(format_cards(first))}) have "
                          "no 9 or higher: record the deal as a redeal")
    return Dealt(dealer, bidder, tuple(first), tuple(map(tuple, parsed)), tuple(floor))


def _void_from_record(dealer: int, bidder: int, deal: Mapping[str, Any]) -> Dealt:
    if deal["redeal"] is not True:
        raise RecordError("redeal must be true or absent")
    if "hands" in deal or "floor" in deal or deal.get("actions"):
        raise RecordError("a redeal lists only the bidder's four cards, no hands, floor or actions")
    cards = parse_cards(_card_list(deal.get("bidder_cards"), "bidder_cards"))
    if len(cards) != FIRST_CARDS or len(set(cards)) != FIRST_CARDS:
        raise RecordError("bidder_cards must be 4 different cards")
    if not is_void(cards):
        raise RecordError(f"{' '.join(format_cards(cards))} include a 9 or higher: no redeal")
    return Dealt(dealer, bidder, tuple(cards))


def _card_list(items: object, what: str) -> list[str]:
    if not isinstance(items, list):
        raise RecordError(f"{what} must be a list of cards")
    return items


def _check_pack(cards: list[Card]) -> None:
    pack = seep_deck()
    for card in cards:
        if card not in pack:
            raise RecordError(f"{card} is not a card of the 52-card pack")
        if cards.count(card) > 1:
            raise RecordError(f"{card} is dealt twice")
