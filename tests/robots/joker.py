"""Joker rule sets and a reshuffled twin of a deal, shared by the robot tests."""

from __future__ import annotations

import copy
import random

from engine.joker import State
from tests.joker.helpers import make_state, run

RULE_SETS = [
    {},
    {"players": 3},
    {"players": 2, "nine_card_trump": "turn_up"},
    {"strict_joker": True, "two_jokers": "first", "trump_beats_led_high_joker": True},
    {"face_value": False, "void_must_trump_highest": True, "low_lead_demands_highest": True},
    {"nine_card_trump": "no_trump", "schedule": "nines", "dealer_restriction": False},
    {"pass_limit": 2, "scoring": "negative"},
]


def reshuffled(state: State, viewer: int, rng: random.Random) -> State:
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



def joker_lead(bids: list[str]) -> State:
    """Seat 1 (the first bidder) to play after trick 1, holding a joker and the 8D: seat 0
    took trick 1 with the AS. The bids are made in order from seat 1."""
    state = make_state(["AS 8D", "KS JK", "7S 9D", "8S 10D"], trump_card="6H")
    run(state, bids)
    run(state, ["play:KS", "play:7S", "play:8S", "play:AS", "play:8D"])
    return state


def last_to_play_in_diamonds() -> State:
    """Seat 0, the dealer, last to a diamond trick with QD KD AD, a trick still to take."""
    state = make_state(["QD KD AD", "9D 6C 7C", "10D 8C 9C", "JD 10C JC"], trump_card="6H")
    run(state, ["bid:1", "bid:0", "bid:0", "bid:1", "play:9D", "play:10D", "play:JD"])
    return state
