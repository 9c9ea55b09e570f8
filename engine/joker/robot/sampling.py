"""Dealing the Joker cards a seat has not seen, consistently with what it has seen.

Hard facts: its own hand, every card played (the view lists the completed tricks),
the turned-up trump card, the hand sizes, and the voids shown: a natural card of
another suit played to a trick shows a void in the suit to follow, and a void in
trumps too unless it was a trump (a joker shows nothing: it may be played at any
time). Soft facts, as weights: each bid heard, against the tricks the heuristic
robot expects from the sampled hand.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.cards import Card, Suit, parse_card
from engine.joker.pack import joker_deck
from engine.joker.robot.heuristic.bidding import expected_tricks
from engine.joker.robot.seat import Seat
from engine.joker.tricks import lead_suit

DECK = Counter(joker_deck())
TRIES = 50  # random deals tried before giving up on a set of void constraints


@dataclass
class Sample:
    """Every seat's hand now, and how well the deal fits the bids heard."""

    hands: list[list[Card]]
    weight: float = 1.0


def voids(seat: Seat) -> dict[int, set[Suit]]:
    """The suits each seat has shown it holds none of."""
    out: dict[int, set[Suit]] = {s: set() for s in range(seat.players)}
    plays = seat.played + seat.trick
    for start in range(0, len(plays), seat.players):
        trick = plays[start:start + seat.players]
        led = lead_suit(trick[0][1])
        for who, play in trick[1:]:
            card = play.natural
            if card is None or card.suit == led:
                continue
            out[who].add(led)
            if seat.trump is not None and card.suit != seat.trump:
                out[who].add(seat.trump)
    return out


def played_by(seat: Seat, who: int) -> list[Card]:
    return [p.card for s, p in seat.played + seat.trick if s == who]


class Dealer:
    """Deals the unseen cards of one decision; ``hidden`` says whether there are any."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        seen = Counter(seat.hand) + Counter(p.card for _, p in seat.played + seat.trick)
        if seat.view["trump_card"] is not None:
            seen[parse_card(seat.view["trump_card"])] += 1
        self.cards = sorted((DECK - seen).elements(), key=Card.sort_key)
        self.others = [s for s in range(seat.players) if s != seat.seat]
        self.sizes = {s: seat.view["hand_counts"][s] for s in self.others}
        self.void = voids(seat)
        self.played = {s: played_by(seat, s) for s in self.others}

    @property
    def hidden(self) -> bool:
        return bool(self.cards)

    def deal(self, rng: random.Random) -> Sample | None:
        """One random deal of the unseen cards (None if the voids leave no room)."""
        for _ in range(TRIES):
            order = self.cards[:]
            rng.shuffle(order)
            left = dict(self.sizes)
            hands: dict[int, list[Card]] = {s: [] for s in self.others}
            spare = len(order) - sum(left.values())  # cards left in the pack
            for card in order:
                room = [s for s in self.others if left[s] and card.suit not in self.void[s]]
                weights = [left[s] for s in room] + [spare]
                if not any(weights):
                    break
                pick = rng.choices([*room, None], weights)[0]
                if pick is None:
                    spare -= 1
                    continue
                left[pick] -= 1
                hands[pick].append(card)
            else:
                full = [self.seat.hand if s == self.seat.seat else hands[s]
                        for s in range(self.seat.players)]
                return Sample(full, self.fit(full))
        return None

    def fit(self, hands: list[list[Card]]) -> float:
        """How well the sampled hands fit the bids their holders made: a bid a trick away
        from the hand's expected tricks halves the weight, two away divides it by five."""
        weight = 1.0
        seat = self.seat
        for s in self.others:
            bid = seat.view["bids"][s]
            if bid is None:
                continue
            expected = expected_tricks(hands[s] + self.played[s], seat.trump, seat.cards)
            weight /= 1 + (expected - bid) ** 2
        return weight
