"""The Monte-Carlo Joker robot (the benchmark's candidate): legal everywhere, deciding from
the view alone, the deals it samples fitting what it has seen, sound bids and cards.

A small budget without a clock keeps the decisions quick and reproducible."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from engine.joker import SPEC, Rules, State
from engine.joker.pack import joker_deck
from engine.joker.robot.montecarlo import choose
from engine.joker.robot.sampling import Dealer, voids
from engine.joker.robot.seat import Seat
from engine.robot_budget import Budget
from tests.joker.helpers import make_state
from tests.robots.helpers import check_view_only, decision_points, matches, play_out, robot
from tests.robots.joker import RULE_SETS, joker_lead, last_to_play_in_diamonds, reshuffled

QUICK = Budget(samples=4, seconds=None)
quick = functools.partial(choose, budget=QUICK)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_robots_in_every_seat_finish_deals_with_legal_actions(rules_data) -> None:
    """Default rules: the first twelve deals of a game (one to eight cards, then four nines
    with a chosen trump); the other rule sets, the first four."""
    rules = Rules.from_dict(rules_data)
    for match in matches(SPEC, rules, 4 if rules_data else 12, "legal"):
        play_out(match, robot(quick, rules))


@pytest.mark.parametrize("rules_data", [{}, RULE_SETS[3]])
def test_decisions_depend_only_on_the_view(rules_data) -> None:
    check_view_only(SPEC, Rules.from_dict(rules_data), quick, 5, reshuffled)


def test_sampled_deals_hold_the_unseen_cards_and_respect_voids() -> None:
    rules = Rules.from_dict({})
    rng = random.Random(4)
    deck = Counter(joker_deck())
    checked = 0
    for match in matches(SPEC, rules, 24, "samples"):
        state = match.state
        for seat in decision_points(match, lambda s, seat: SPEC.random_action(s, seat, rng)):
            if state.phase == "trump":
                continue
            view = state.view(seat)
            sample = Dealer(Seat(view, rules)).deal(rng)
            assert sample is not None
            assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
            assert sample.hands[seat] == state.hands[seat]
            gone = Counter(p.card for _, p in Seat(view, rules).played + Seat(view, rules).trick)
            held = Counter(c for h in sample.hands for c in h)
            assert held + gone <= deck  # every card once at most: jokers are two
            shown = voids(Seat(view, rules))
            for other, suits in shown.items():
                assert not any(c.suit in suits for c in state.hands[other])  # true voids
                assert not any(c.suit in suits for c in sample.hands[other])
            checked += 1
    assert checked > 150


# -- the choices themselves (dealer 0: seat 1 bids and leads first) --------------------------

def _choice(state: State) -> str:
    seat = state.to_act[0]
    return choose(state.view(seat), state.rules, random.Random(0), Budget(16, None))


def test_bids_its_sure_tricks() -> None:
    hands = ["7S 8S 9S", "AH KH JK", "AS KS QS", "7C 8C 9C"]
    state = make_state(hands, trump_card="6H")
    assert _choice(state) == "bid:3"  # trumps A K and a joker


def test_with_its_bid_made_it_ducks_and_short_of_it_takes() -> None:
    assert _choice(joker_lead(["bid:0", "bid:0", "bid:0", "bid:1"])) == "play:JK:low"
    assert _choice(joker_lead(["bid:1", "bid:0", "bid:0", "bid:0"])) == "play:JK:high"


def test_to_take_a_trick_it_plays_a_card_that_wins() -> None:
    assert _choice(last_to_play_in_diamonds()) in ("play:QD", "play:KD", "play:AD")
