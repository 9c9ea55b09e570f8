"""What the Monte-Carlo robot reads back from a view: the tricks played seat by seat and
the voids they show, the same as the engine's; and the deals it samples hold the unseen
cards exactly, in the right sizes, never a card of a suit a seat has shown void in."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.preferans import SPEC, Rules
from engine.preferans.pack import preferans_deck
from engine.preferans.robot.history import tricks_played, voids
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.robot.sampling import OUT, Dealer
from tests.robots.helpers import decision_points, matches
from tests.robots.preferans import RULE_SETS

DECK = Counter(preferans_deck())


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_tricks_and_voids_read_from_the_view_are_the_engines(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    rng = random.Random(1)
    checked = 0
    for match in matches(SPEC, rules, 25, "history"):
        state = match.state
        tricks: list[list] = []  # the engine's completed tricks, logged as they end
        for seat in decision_points(match, lambda s, seat: SPEC.random_action(s, seat, rng)):
            if state.phase != "play":
                continue
            if state.tricks_done > len(tricks):
                tricks.append([(s, str(c)) for s, c in state.last_trick])
            k = Knowledge(state.view(state.controller(seat)), rules)
            assert [[(s, str(c)) for s, c in t] for t in tricks_played(k)] == tricks
            for holder, suits in voids(k).items():
                assert not any(c.suit in suits for c in state.hands[holder]), (holder, suits)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_sampled_deals_place_every_unseen_card_once(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    rng = random.Random(2)
    sampled = 0
    for match in matches(SPEC, rules, 12, "samples"):
        state = match.state
        for seat in decision_points(match, lambda s, seat: SPEC.random_action(s, seat, rng)):
            viewer = state.controller(seat)
            k = Knowledge(state.view(viewer), rules)
            dealer = Dealer(k)
            sample = dealer.deal(rng)
            assert sample is not None
            for s in k.active:
                assert len(sample.hands[s]) == len(state.hands[s])
            for s, cards in k.hands.items():
                if s in k.active:
                    assert sample.hands[s] == cards  # what the seat sees is kept
            dealt = Counter(c for s in k.active for c in sample.hands[s]) + Counter(sample.out)
            assert dealt + Counter(k.gone) == DECK  # every card once, the hidden ones dealt
            shown = voids(k)
            for s in dealer.seats:
                assert not any(c.suit in shown[s] for c in sample.hands[s])
            if k.declarer is not None and k.declarer != viewer and k.phase != "discard":
                held = set(sample.hands[k.declarer]) | set(sample.out)
                assert set(k.talon) - set(k.gone) <= held  # the talon went to the declarer
            assert dealer.sizes[OUT] == len(sample.out)
            sampled += 1
    assert sampled > 200
