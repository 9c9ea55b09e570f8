"""The Seep robot and auto move: legal everywhere (its moves rebuilt from the view are the
engine's), reading only the view, captures and sweeps taken, none given away."""

from __future__ import annotations

import copy
import random

import pytest

from engine.seep import SPEC, Rules, State
from engine.seep.robot import auto_action, choose
from engine.seep.robot.seat import Seat
from tests.robots.helpers import (
    auto_phases,
    check_view_only,
    decision_points,
    matches,
    play_out,
    robot,
)
from tests.seep.helpers import E, S, position

RULE_SETS = [
    {},
    {"players": 2},
    {"absorb_sets": "optional", "capture_must_be_maximal": False, "bid_throw_last_resort": False},
    {"absorb_sets": "singles", "break_partner_house": False, "break_with_floor_cards": True,
     "max_houses": 2, "sweep_cancel": True},
]
RNG = random.Random(0)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_robots_in_every_seat_finish_deals_with_legal_actions(rules_data) -> None:
    rules = Rules.from_dict(rules_data)
    for match in matches(SPEC, rules, 12, "legal"):
        state = match.state
        for seat in decision_points(match, robot(choose, rules)):
            assert Seat(state.view(seat), rules).legal == state.legal_actions(seat)


def test_robots_outplay_random_play() -> None:
    """Robots as NS against random legal play as EW: more card points, far more sweeps."""
    rules = Rules.from_dict({})
    rng = random.Random(2)
    decide = robot(choose, rules)
    points, sweeps = [0, 0], [0, 0]
    for match in matches(SPEC, rules, 40, "versus"):
        play_out(match, lambda s, seat: decide(s, seat) if rules.team(seat) == 0
                 else SPEC.random_action(s, seat, rng))
        result = match.state.result()
        if not result.void:
            points = [p + q for p, q in zip(points, result.card_points, strict=True)]
            sweeps = [n + sum(s) for n, s in zip(sweeps, result.sweeps, strict=True)]
    assert points[0] / sum(points) >= 0.53, points
    assert sweeps[0] >= 3 * sweeps[1] + 10, sweeps


def _reshuffled(state: State, viewer: int, rng: random.Random) -> State:
    """A copy of ``state`` in which the other seats' hands exchange their cards."""
    twin = copy.deepcopy(state)
    others = [s for s in range(len(twin.hands)) if s != viewer]
    pool = [c for s in others for c in twin.hands[s]]
    rng.shuffle(pool)
    for s in others:
        twin.hands[s] = [pool.pop() for _ in twin.hands[s]]
    return twin


def test_decisions_depend_only_on_the_view() -> None:
    check_view_only(SPEC, Rules.from_dict({}), choose, 4, _reshuffled)


@pytest.mark.parametrize("rules_data", RULE_SETS)
def test_auto_action_is_legal_in_every_phase(rules_data) -> None:
    phases = auto_phases(SPEC, Rules.from_dict(rules_data), auto_action, 8)
    assert set(phases) == {"bid", "play"}


def test_auto_moves_alone_finish_deals() -> None:
    rules = Rules.from_dict({})
    for match in matches(SPEC, rules, 6, "auto-only"):
        play_out(match, lambda s, seat: auto_action(s.view(seat), rules))


def test_a_view_of_another_seats_turn_is_refused() -> None:
    state = position("7S JD 3H", "4C 7H")
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose(state.view(E), state.rules, RNG)


# -- the choices themselves (spec 16.1 positions; S to move) ----------------------------------

def _choice(state: State) -> str:
    return choose(state.view(S), state.rules, RNG)


def test_takes_the_sweep() -> None:
    state = position("7S JD 3H", "4C 7H")  # spec S3: JD takes both loose cards
    assert _choice(state) == "cap:JD:7H+4C"


def test_takes_the_points() -> None:
    state = position("JD 3C", "5H 6D 4S 2S")  # JD takes 5H+6D, or 5H+4S+2S: 6 points
    assert _choice(state) == "cap:JD:5H+4S+2S"
    assert auto_action(state.view(S), state.rules) == "cap:JD:5H+4S+2S"


def test_does_not_leave_the_next_opponent_a_sweep() -> None:
    # Building 12 from 7D+5C, or throwing 7D, leaves a floor one queen takes whole;
    # E, next to play, holds twelve unseen cards. Throwing the queen leaves nothing to sweep.
    state = position("QH 7D", "5C", hands={E: "2S 3S 4S 6S 8S 10S 2C 3C 4C 6C 8C 10C"})
    assert _choice(state) == "throw:QH"


def test_bids_the_value_it_holds_most() -> None:
    for hand, bid in (("KD 9C 5S 2H", "bid:13"), ("9C 9D KH 2S", "bid:9")):
        state = position(hand)
        state.phase, state.bid, state.plays = "bid", None, 0
        assert _choice(state) == bid
        assert auto_action(state.view(S), state.rules) == "bid:9"
