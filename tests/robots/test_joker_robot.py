"""The Joker robot and auto move: legal everywhere (its legal actions rebuilt from the view
are the engine's), reading only the view, bids it makes often, rule-aware cards."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from bench.robot_bench import exact_bids
from engine.joker import SPEC, Rules, State
from engine.joker.robot import auto_action, choose
from engine.joker.robot.seat import Seat
from tests.joker.helpers import make_state, run
from tests.robots.helpers import (
    auto_phases,
    check_view_only,
    decision_points,
    matches,
    play_out,
    robot,
)

RULE_SETS = [
    {},
    {"players": 3},
    {"players": 2, "nine_card_trump": "turn_up"},
    {"strict_joker": True, "two_jokers": "first", "trump_beats_led_high_joker": True},
    {"face_value": False, "void_must_trump_highest": True, "low_lead_demands_highest": True},
    {"nine_card_trump": "no_trump", "schedule": "nines", "dealer_restriction": False},
    {"pass_limit": 2, "scoring": "negative"},
]
RNG = random.Random(0)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_robots_in_every_seat_finish_deals_with_legal_actions(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    for match in matches(SPEC, rules, 40, "legal"):
        state = match.state
        for seat in decision_points(match, robot(choose, rules)):
            rebuilt = Seat(state.view(seat), rules).legal
            if rules.max_passes is None:
                assert rebuilt == state.legal_actions(seat)
            else:  # the view does not tell the passes left: never a voluntary pass
                assert set(rebuilt) <= set(state.legal_actions(seat))


def test_robots_make_most_of_their_bids() -> None:
    """The bench measures 1,000 deals (about 60% of bids made exactly; random play
    makes about 20%); 150 deals here, with margin."""
    rules = Rules.from_dict({})
    made: Counter[bool] = Counter()
    for match in matches(SPEC, rules, 150, "bids"):
        play_out(match, robot(choose, rules))
        made.update(exact_bids(match.state.result()))
    assert made[True] / (made[True] + made[False]) >= 0.5, made


def _reshuffled(state: State, viewer: int, rng: random.Random) -> State:
    """A copy of ``state`` in which the cards ``viewer`` cannot see change hands."""
    twin = copy.deepcopy(state)
    if twin.phase == "trump":  # every seat sees the first three cards dealt to it
        places = [d[3:] if s == viewer else d for s, d in enumerate(twin.dealt)]
    else:
        places = [h for s, h in enumerate(twin.hands) if s != viewer]
    pool = [c for place in places for c in place]
    rng.shuffle(pool)
    refilled = [[pool.pop() for _ in place] for place in places]
    if twin.phase == "trump":
        twin.dealt = [twin.dealt[s][:3] * (s == viewer) + cards for s, cards in enumerate(refilled)]
    else:
        others = iter(refilled)
        twin.hands = [h if s == viewer else sorted(next(others), key=lambda c: c.sort_key())
                      for s, h in enumerate(twin.hands)]
    return twin


@pytest.mark.parametrize("rules_data", [{}, RULE_SETS[3]])
def test_decisions_depend_only_on_the_view(rules_data) -> None:
    check_view_only(SPEC, Rules.from_dict(rules_data), choose, 30, _reshuffled)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_auto_action_is_legal_in_every_phase(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    phases = auto_phases(SPEC, rules, auto_action, 40)
    assert set(phases) >= {"bid", "play"}


def test_auto_moves_alone_finish_deals() -> None:
    rules = Rules.from_dict({})
    for match in matches(SPEC, rules, 30, "auto-only"):
        play_out(match, lambda s, seat: auto_action(s.view(seat), rules))


def test_a_view_of_another_seats_turn_is_refused() -> None:
    state = make_state(["AS", "KS", "QS", "JS"], trump_card="7D")
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose(state.view(0), state.rules, RNG)


# -- the choices themselves (dealer 0: seat 1 bids and leads first) --------------------------

def _choice(state: State) -> str:
    seat = state.to_act[0]
    return choose(state.view(seat), state.rules, RNG)


def test_the_chooser_names_the_suit_of_its_strength() -> None:
    hands = ["6D 7D 8D 9D 10D JD QD KD AD", "AH KH JK 6H 7H 8H 9H 10H JH",
             "AS KS QS JS 10S 9S 8S 7S QH", "AC KC QC JC 10C 9C 8C 7C JK"]
    state = make_state(hands, mode="chooser")
    assert _choice(state) == "trump:H"
    assert auto_action(state.view(1), state.rules) == "trump:H"


def test_bids_its_sure_tricks_and_the_dealer_avoids_the_forbidden_total() -> None:
    hands = ["7S 8S 9S", "AH KH JK", "AS KS QS", "7C 8C 9C"]
    state = make_state(hands, trump_card="6H")
    assert _choice(state) == "bid:3"  # trumps A K and a joker
    run(state, ["bid:3", "bid:0"])
    assert _choice(state) == "bid:0"  # seat 3: three low clubs
    run(state, ["bid:0"])
    # The dealer (seat 0, three low spades) would pass, but 3 + 0 + 0 + 0 = 3 is forbidden.
    assert _choice(state) == "bid:1"
    assert auto_action(state.view(0), state.rules) == "bid:1"


def test_with_its_bid_made_it_ducks_with_a_joker_played_low() -> None:
    hands = ["AS 8D", "KS JK", "7S 9D", "8S 10D"]
    state = make_state(hands, trump_card="6H")
    run(state, ["bid:1", "bid:0", "bid:0", "bid:0"])
    run(state, ["play:KS", "play:7S", "play:8S", "play:AS", "play:8D"])  # seat 0 took trick 1
    assert _choice(state) == "play:JK:high"  # seat 1 still needs its trick
    hands = ["AS 8D", "KS JK", "7S 9D", "8S 10D"]
    state = make_state(hands, trump_card="6H")
    run(state, ["bid:0", "bid:0", "bid:0", "bid:1"])
    run(state, ["play:KS", "play:7S", "play:8S", "play:AS", "play:8D"])
    assert _choice(state) == "play:JK:low"  # seat 1 made its bid: the joker ducks


def test_to_take_a_trick_it_plays_the_cheapest_card_that_wins_last() -> None:
    hands = ["QD KD AD", "9D 6C 7C", "10D 8C 9C", "JD 10C JC"]
    state = make_state(hands, trump_card="6H")
    run(state, ["bid:1", "bid:0", "bid:0", "bid:1", "play:9D", "play:10D", "play:JD"])
    assert _choice(state) == "play:QD"
