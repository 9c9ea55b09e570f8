"""Driving whole deals with a chooser for every seat, checking each action is legal."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from engine.base import DealState, GameSpec
from engine.match import Match

Decide = Callable[[DealState, int], str]


def decision_points(match: Match, decide: Decide) -> Iterator[int]:
    """Play the match's deal to its end with ``decide(state, seat)``; before each action
    yield the seat to act, so that a test may inspect the state there. Every action
    must be legal (the engine would raise otherwise; this names the action)."""
    state = match.state
    assert state is not None
    steps = 0
    while not state.finished:
        seat = state.to_act[0]
        yield seat
        action = decide(state, seat)
        assert action in state.legal_actions(seat), (state.phase, seat, action)
        match.apply(seat, action)
        steps += 1
        assert steps < 500, "the deal does not end"


def play_out(match: Match, decide: Decide) -> None:
    for _ in decision_points(match, decide):
        pass


def robot(choose: Callable[..., str], rules: Any, seed: int = 0) -> Decide:
    """A Decide that asks the robot with the deciding seat's view, sent through JSON
    as the bot would store or pass it."""
    rng = random.Random(seed)

    def decide(state: DealState, seat: int) -> str:
        view = json.loads(json.dumps(state.view(state.controller(seat))))
        return choose(view, rules, rng)

    return decide


def matches(spec: GameSpec, rules: Any, deals: int, seed: str) -> Iterator[Match]:
    """The match with its next deal started, ``deals`` times; a new match when one is
    over. The caller plays each deal out before asking for the next."""
    players = [f"P{i}" for i in range(rules.players)]
    match = Match(spec, rules, players, 0)
    for number in range(deals):
        if match.over:
            match = Match(spec, rules, players, 0)
        match.start_deal(seed=f"{seed}-{number}")
        yield match


def auto_phases(spec: GameSpec, rules: Any, auto_action: Callable[..., str],
                deals: int) -> Counter[str]:
    """Random legal play of ``deals`` deals; at every decision the auto move for the
    deciding seat's view must be legal. The phases where it was asked, counted."""
    rng = random.Random(3)
    phases: Counter[str] = Counter()
    for match in matches(spec, rules, deals, "auto"):
        state = match.state
        for seat in decision_points(match, lambda s, seat: spec.random_action(s, seat, rng)):
            auto = auto_action(state.view(state.controller(seat)), rules)
            assert auto in state.legal_actions(seat), (state.phase, auto)
            phases[state.phase] += 1
    return phases


def check_view_only(spec: GameSpec, rules: Any, choose: Callable[..., str], deals: int,
                    reshuffled: Callable[[Any, int, random.Random], Any]) -> None:
    """At every robot decision of ``deals`` deals, a copy of the state whose concealed
    cards ``reshuffled`` moved gives the deciding seat the same view and the robot the
    same choice; the cards did move at most decisions."""
    rng = random.Random(5)
    moved = decisions = 0
    for match in matches(spec, rules, deals, "view"):
        state = match.state
        for seat in decision_points(match, robot(choose, rules)):
            viewer = state.controller(seat)
            twin = reshuffled(state, viewer, rng)
            assert twin.view(viewer) == state.view(viewer)
            assert (choose(twin.view(viewer), rules, random.Random(0))
                    == choose(state.view(viewer), rules, random.Random(0)))
            moved += twin.deal_record() != state.deal_record() or twin.hands != state.hands
            decisions += 1
    assert moved > decisions / 2
