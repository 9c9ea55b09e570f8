"""The cards of a deal: dealt from a seed, or read and checked from a record (spec 6, 17)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.base import RecordError
from engine.cards import Card, parse_card, parse_cards, shuffled
from engine.joker.pack import joker_deck
from engine.joker.result import DealContext

DECK = Counter(joker_deck())
DEAL_FIELDS = {"dealer", "cards", "hands", "trump_card", "actions"}

Cards = tuple[list[list[Card]], Card | None]


def deal_from_seed(players: int, context: DealContext, seed: int | str) -> Cards:
    """Hands in dealing order (one card at a time, clockwise from the dealer's left), trump card."""
    pack = shuffled(joker_deck(), seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    dealt = players * context.cards
    for k in range(dealt):
        hands[(context.dealer + 1 + k) % players].append(pack[k])
    return hands, pack[dealt] if context.trump_mode == "turn_up" else None


def deal_from_record(players: int, context: DealContext, deal: Mapping[str, Any]) -> Cards:
    """The hands and trump card a record's deal gives, checked against the schedule."""
    unknown = sorted(set(deal) - DEAL_FIELDS)
    if unknown:
        raise RecordError(f"unknown deal field(s): {', '.join(unknown)}")
    if deal.get("dealer") != context.dealer or type(deal.get("dealer")) is not int:
        raise RecordError(
            f"the dealer must be seat {context.dealer} (the deal passes clockwise each deal)"
        )
    if "cards" in deal and (type(deal["cards"]) is not int or deal["cards"] != context.cards):
        raise RecordError(f"deal {context.number} of the schedule has {context.cards} cards each")
    raw = deal.get("hands")
    if not isinstance(raw, list) or len(raw) != players:
        raise RecordError(f"hands must be a list of {players} hands")
    hands = []
    for seat, hand in enumerate(raw):
        if not isinstance(hand, list) or len(hand) != context.cards:
            raise RecordError(f"seat {seat}'s hand must list {context.cards} cards")
        hands.append(parse_cards(hand))
    trump_card = _trump_card(context, deal.get("trump_card"))
    used = Counter(c for hand in hands for c in hand) + Counter([trump_card] if trump_card else [])
    for card, count in used.items():
        if DECK[card] == 0:
            raise RecordError(f"{card} is not in the Joker pack")
        if count > DECK[card]:
            raise RecordError(f"{card} is dealt {count} times; the pack has {DECK[card]}")
    return hands, trump_card


def _trump_card(context: DealContext, value: object) -> Card | None:
    if context.trump_mode == "turn_up":
        if not isinstance(value, str):
            raise RecordError(f"a {context.cards}-card deal needs the turned trump_card")
        return parse_card(value)
    if value is not None:
        raise RecordError("trump_card must be null: this deal's trump is not turned up")
    return None
