"""Dealing the cards the seat has not seen, consistently with what it has seen.

Hard facts: the seat's own hand and the exposed hands, every card played, the
hand sizes, the voids shown by not following, and, after the auction, that the
turned-up talon went into the declarer's hand (or his discard). Soft facts: the
calls heard. A player who bid a level, named a contract, said misère, whisted or
passed usually holds a hand that fits (judged by the heuristic robot's hand
estimates); deals are drawn in proportion to how well they fit, so that a hand
that does not fit is rarer but still possible, since players differ.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engine.cards import Card
from engine.preferans.bids import MISER, level, trump
from engine.preferans.robot.heuristic.estimate import (
    declarer_tricks,
    defence_tricks,
    miser_dangers,
    strongest,
)
from engine.preferans.robot.history import played_by, voids
from engine.preferans.robot.knowledge import Knowledge

OUT = -1  # the hidden cards no active hand holds: the talon, or the declarer's discard
TRIES = 50  # random deals tried before giving up on a set of void constraints
STEPS = 60  # card swaps tried to make a deal fit the calls
# How a call is read: the tricks it counts on beyond the hand estimate, and the fit of
# a hand that does not suit it.
BID_SLACK = 1.0  # a bid counts on the unseen talon for about a trick
CONTRACT_SLACK = 0.25  # a contract, named with the talon in hand, on almost nothing
STRONG_PASS = 0.35  # a first-call pass with seven tricks in hand
DIRTY_MISER = 0.15  # misère with more than one card the defenders can catch
EMPTY_WHIST = 0.3  # a whist without a defensive trick
RICH_PASS = 0.4  # a pass on a hand with three defensive tricks


@dataclass
class Sample:
    """Every active seat's hand now, and the hidden cards out of the hands."""

    hands: dict[int, list[Card]]
    out: list[Card]


class Dealer:
    """Deals the unseen cards of one decision; ``hidden`` says whether there are any."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.seats = [s for s in k.active if s not in k.hands]
        sizes = k.view["hand_sizes"]
        self.sizes = {s: sizes[s] for s in self.seats}
        self.cards = sorted(k.unseen, key=Card.sort_key)
        self.sizes[OUT] = len(self.cards) - sum(self.sizes[s] for s in self.seats)
        self.played = {s: played_by(k, s) for s in self.seats}
        void = voids(k)
        declarer = k.declarer
        into_declarer = set()
        if declarer in self.seats:
            into_declarer = set(k.talon) & set(self.cards)
        self.places: dict[Card, list[int]] = {}
        for card in self.cards:
            if card in into_declarer:
                self.places[card] = [s for s in [declarer] if card.suit not in void[s]] + [OUT]
            else:
                self.places[card] = [s for s in self.seats if card.suit not in void[s]] + [OUT]
        self.cards.sort(key=lambda c: len(self.places[c]))

    @property
    def hidden(self) -> bool:
        return bool(self.cards)

    def deal(self, rng: random.Random) -> Sample | None:
        """A random deal of the unseen cards that fits the calls (None if the voids leave
        no room). From a random deal, cards are swapped between hidden places, each swap
        kept with the chance the new fit over the old one gives (Metropolis), until the
        deal fits or ``STEPS`` swaps were tried."""
        sample = self._draw(rng)
        if sample is None:
            return None
        places = {s: sample.hands[s] for s in self.seats} | {OUT: sample.out}
        names = [p for p in places if places[p]]
        weight = self.fit(sample)
        for _ in range(STEPS if len(names) > 1 else 0):
            if weight >= 1.0:
                break
            a, b = rng.sample(names, 2)
            i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
            x, y = places[a][i], places[b][j]
            if b not in self.places[x] or a not in self.places[y]:
                continue
            places[a][i], places[b][j] = y, x
            new = self.fit(sample)
            if rng.random() * weight < new:
                weight = new
            else:
                places[a][i], places[b][j] = x, y
        return sample

    def _draw(self, rng: random.Random) -> Sample | None:
        """One random deal of the unseen cards, the hard facts kept."""
        for _ in range(TRIES):
            left = dict(self.sizes)
            dealt: dict[int, list[Card]] = {s: [] for s in left}
            order = self.cards[:]
            rng.shuffle(order)
            order.sort(key=lambda c: len(self.places[c]))
            for card in order:
                room = [p for p in self.places[card] if left[p]]
                if not room:
                    break
                place = rng.choices(room, [left[p] for p in room])[0]
                left[place] -= 1
                dealt[place].append(card)
            else:
                hands = {s: list(cards) for s, cards in self.k.hands.items() if s in self.k.active}
                hands.update({s: dealt[s] for s in self.seats})
                return Sample(hands, dealt[OUT])
        return None

    def original_hand(self, sample: Sample, seat: int) -> list[Card]:
        """The ten cards hidden ``seat`` was dealt, as far as this sample says."""
        k = self.k
        cards = sample.hands[seat] + self.played[seat]
        if seat == k.declarer and k.phase not in ("bidding", "discard"):
            cards = cards + sample.out
        if seat == k.declarer:
            cards = [c for c in cards if c not in k.talon]
        return cards

    def fit(self, sample: Sample) -> float:
        """How well the hidden hands of ``sample`` fit the calls their holders made; the
        declarer's, once he has named it, by his contract. (He must name at least his
        bid whatever the talon brought, but declarers who bid make their contracts nine
        times in ten: the duplicate benchmark favours this over the bid alone.)"""
        weight = 1.0
        k = self.k
        for seat in self.seats:
            if seat == k.declarer and k.contract is not None:
                kept = sample.hands[seat] + self.played[seat]
                weight *= _contract_fit(k.contract, kept, sample.out)
                continue
            hand = self.original_hand(sample, seat)
            weight *= _auction_fit(k, seat, hand) * _whist_fit(k, seat, hand)
        return weight


def _auction_fit(k: Knowledge, seat: int, hand: list[Card]) -> float:
    calls = _own_levels(k.view["bids"], seat)
    if not calls:
        return 1.0
    if MISER in calls:
        return 1.0 if miser_dangers(hand) <= 1 else DIRTY_MISER
    strength = strongest(hand)
    if calls[0] == "pass":
        return STRONG_PASS if strength >= 7 else 1.0
    top = max(level(c) for c in calls if c != "pass")
    return _short(top - BID_SLACK - strength)


def _short(tricks: float) -> float:
    """The chance a player calls a level ``tricks`` above what his hand is expected to
    take: each trick divides it by e squared."""
    return 1.0 if tricks <= 0 else math.exp(-2 * tricks)


def _contract_fit(contract: str, kept: list[Card], discard: list[Card]) -> float:
    """A declarer names a contract his ten cards make: misère on a clean hand, a level
    the hand estimate expects (it is close to the double-dummy tricks on average)."""
    if contract == MISER:
        return 1.0 if miser_dangers(kept, discard) <= 1 else DIRTY_MISER
    expected = declarer_tricks(kept, trump(contract), discard)
    return _short(level(contract) - CONTRACT_SLACK - expected)


def _own_levels(bids: list, seat: int) -> list[str]:
    """The seat's calls, a "here" read as the bid it held."""
    out, high = [], None
    for s, call in bids:
        if call not in ("pass", "here"):
            high = call
        if s == seat:
            out.append(high if call == "here" else call)
    return out


def _whist_fit(k: Knowledge, seat: int, hand: list[Card]) -> float:
    calls = [c for s, c in k.view["whists"] if s == seat]
    if not calls or k.contract is None:
        return 1.0
    tricks = defence_tricks(hand, trump(k.contract))
    if calls[-1] == "whist" and tricks < 1:
        return EMPTY_WHIST
    if calls == ["pass"] and tricks >= 3:
        return RICH_PASS
    return 1.0


