"""The robot answers a claim (issue 34) from its own view: with the claimer's hand shown
it deals the cards it cannot see and accepts when the claim holds in every deal it
solved; otherwise it refuses and play goes on. The hint for a learner is the same answer
with its figures."""

from __future__ import annotations

import json
import random

from engine.preferans import Rules
from engine.preferans.robot import Budget, choose, hint
from engine.preferans.state import State
from tests.preferans.helpers import act, deal

QUICK = Budget(samples=12, seconds=None)
# Seat 0 (first hand) holds every spade and the top hearts: ten sure tricks in spades.
STRONG = {0: "AS KS QS JS 10S 9S 8S 7S AH KH"}
# Seat 0 with a middling hand: the defence can take several tricks.
MIDDLING = {0: "AS KS QS 7S 8S AH 7H 8H 7D 8D"}


def _claimed(hands: dict[int, str], tricks: int, *, first: bool = False) -> State:
    """Seat 0 declares 6♠, both defenders whist; seat 0 claims ``tricks`` of those left
    (after one trick when ``first``)."""
    state = deal(hands, claims=True)
    act(state, "bid:6S", "bid:pass", "bid:pass")
    act(state, "discard:" + ",".join(str(c) for c in state.talon), "contract:6S",
        "whist:whist", "whist:whist")
    if first:
        act(state, "play:AS")
        act(state, state.legal_actions(1)[0])
        act(state, state.legal_actions(2)[0])
    state.apply(0, f"claim:{tricks}")
    assert state.phase == "claim"
    return state


def _answer(state: State, seat: int) -> str:
    view = json.loads(json.dumps(state.view(seat)))  # as a robot receives it
    return choose(view, Rules.from_dict({"claims": True}), random.Random(seat), QUICK)


def test_a_claim_that_holds_in_every_deal_is_accepted() -> None:
    state = _claimed(STRONG, 10)
    assert _answer(state, 1) == _answer(state, 2) == "answer:accept"
    state = _claimed(STRONG, 9, first=True)
    assert _answer(state, 1) == "answer:accept"


def test_a_claim_the_defence_can_beat_is_refused() -> None:
    state = _claimed(MIDDLING, 10)
    assert _answer(state, 1) == _answer(state, 2) == "answer:refuse"


def test_a_modest_claim_of_a_middling_hand_is_accepted() -> None:
    # Three top spades and the ace of hearts: four tricks whatever the defence does.
    state = _claimed(MIDDLING, 4)
    assert _answer(state, 1) == "answer:accept"


def test_the_hint_is_the_robots_answer_with_its_figures() -> None:
    rules = Rules.from_dict({"claims": True})
    for hands, n, accepted in ((STRONG, 10, True), (MIDDLING, 10, False)):
        state = _claimed(hands, n)
        view = json.loads(json.dumps(state.view(1)))
        given = hint(view, rules, random.Random(1), QUICK)
        assert given.action == _answer(state, 1)
        assert given.why == "claim" and given.figures["deals"] >= 1
        assert (given.figures["beaten"] == 0) == accepted
        assert given.figures["beaten"] <= given.figures["deals"]
