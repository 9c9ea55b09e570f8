"""Positions for Seep tests: a deal state set up with the cards an example names."""

from __future__ import annotations

import random
from typing import Any

from engine.cards import Card, parse_cards
from engine.match import Match
from engine.seep import SPEC, Rules, State
from engine.seep.deal import deal_from_seed
from engine.seep.floor import Floor, House
from engine.seep.pack import seep_deck
from engine.seep.values import value

N, E, S, W = 0, 1, 2, 3


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def house(value_: int, groups: str, owners: set[int]) -> House:
    """A house from groups written ``"6D 5C | JC"``."""
    return House(value_, [tuple(cards(g)) for g in groups.split("|")], set(owners))


def position(
    hand: str,
    loose: str = "",
    houses: tuple[House, ...] = (),
    *,
    seat: int = S,
    plays: int = 10,
    rules: Rules | None = None,
    hands: dict[int, str] | None = None,
    dealer: int = W,
) -> State:
    """A deal in play: ``seat`` to move holding ``hand``, the floor as given.

    Every other owner of a house is given a card of its value (invariant I3),
    taken from the cards the position does not use.
    """
    rules = rules or Rules()
    state = State(rules, deal_from_seed(rules, dealer, 7), 0)
    assert not state.dealt.void
    state.bid, state.phase, state.plays, state.turn = 13, "play", plays, seat
    state.floor = Floor(cards(loose), houses)
    state.hands = [[] for _ in range(rules.players)]
    state.hands[seat] = cards(hand)
    for other, text in (hands or {}).items():
        state.hands[other] = cards(text)
    used = set(state.hands[seat]) | set(state.floor.loose)
    used |= {c for h in houses for c in h.cards} | {c for h in state.hands for c in h}
    spare = [c for c in seep_deck() if c not in used]
    for h in houses:
        for owner in h.owners - {seat}:
            if not any(value(c) == h.value for c in state.hands[owner]):
                card = next(c for c in spare if value(c) == h.value)
                spare.remove(card)
                state.hands[owner].append(card)
    return state


def play_random(rules_data: dict[str, Any], seed: int, deals: int = 1) -> Match:
    """A match of ``deals`` deals dealt from ``seed`` and played by random legal choices."""
    rules = Rules.from_dict(rules_data)
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rules.players)]
    match = Match(SPEC, rules, players, rng.randrange(rules.players))
    for k in range(deals):
        if match.over:
            break
        state = match.start_deal(seed=f"{seed}/{k}")
        while not state.finished:
            seat = state.to_act[0]
            match.apply(seat, SPEC.random_action(state, seat, rng))
    return match
