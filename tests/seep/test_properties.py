"""Hypothesis: random legal play under random conventions, four and two players."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.records import replay
from engine.seep import SPEC, Rules, State
from engine.seep.notation import MAX_TEXT
from engine.seep.pack import seep_deck
from engine.seep.result import DealContext
from engine.seep.scoring import deal_score
from engine.seep.values import points, value
from tests.seep.helpers import play_random

CONVENTIONS = st.fixed_dictionaries({
    "players": st.sampled_from([4, 4, 2]),
    "ten_of_diamonds_points": st.sampled_from([6, 2]),
    "sweep_cancel": st.booleans(),
    "capture_must_be_maximal": st.booleans(),
    "bid_throw_last_resort": st.booleans(),
    "absorb_sets": st.sampled_from(["mandatory", "optional", "singles"]),
    "break_partner_house": st.booleans(),
    "break_with_floor_cards": st.booleans(),
    "max_houses": st.sampled_from(["unlimited", 2]),
    "show_capture_totals": st.booleans(),
})


def cards_in(doc: Any) -> set[str]:
    """Every card string anywhere in a JSON-able document."""
    if isinstance(doc, dict):
        return set().union(*(cards_in(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(cards_in(v) for v in doc)) if doc else set()
    if isinstance(doc, str):
        try:
            return {str(parse_card(doc))}
        except ValueError:
            return set()
    return set()


def check_position(state: State) -> None:
    """Owners hold a card of their house (6.6); no seat sees another's hand."""
    for house in state.floor.houses.values():
        for owner in house.owners:
            assert any(value(c) == house.value for c in state.hands[owner])
    for seat in [*range(state.rules.players), None]:
        view = state.view(seat)
        json.dumps(view)
        others = {str(c) for s, h in enumerate(state.hands) if s != seat for c in h}
        assert not cards_in(view) & others


@settings(max_examples=80, deadline=None)
@given(CONVENTIONS, st.integers(0, 10**6))
def test_random_deals_end_clean_and_add_up(conventions: dict[str, Any], seed: int) -> None:
    rules = Rules.from_dict(conventions)
    rng = random.Random(seed)
    state = State.new(rules, ["P"] * rules.players, DealContext(0), seed=seed)
    kinds = set()
    while not state.finished:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        assert actions and all(len(a.encode()) < MAX_TEXT and a.isascii() for a in actions)
        if state.phase == "play":
            for card in state.hands[seat]:
                labels = [state.describe(a) for a in state.legal_actions(seat, card)]
                assert len(labels) == len(set(labels))
        action = SPEC.random_action(state, seat, rng)
        version = state.version
        state.apply(seat, action)
        assert state.version == version + 1
        kinds.add(action.split(":")[0])
        check_position(state)
    if state.dealt.void:
        return
    assert state.plays == 48 and not any(state.hands) and state.floor.empty
    taken = [c for p in state.piles for c in p] + state.unclaimed
    assert sorted(map(str, taken)) == sorted(map(str, seep_deck()))
    result = state.result()
    pack = 100 if rules.ten_of_diamonds_points == 6 else 96
    assert sum(result.card_points) + sum(points(c, rules.ten_of_diamonds_points)
                                         for c in state.unclaimed) == pack
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    sweeps = sum(n * w for team in result.sweeps for n, w in zip(team, worth, strict=True))
    assert sum(deal_score(rules, result)) == sum(result.card_points) + sweeps
    assert kinds >= {"bid", "cap"}


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([4, 2]))
def test_matches_replay_from_their_records(seed: int, players: int) -> None:
    match = play_random({"players": players, "bazzis": 3}, seed, deals=4)
    record = json.loads(json.dumps(match.record()))
    again = replay(record)
    assert again.report() == match.report()
    assert again.record() == record
    settlement = match.report()["settlement"]
    assert sum(settlement) == 0 and len(settlement) == players


def test_random_play_makes_every_move_kind() -> None:
    kinds = set()
    match = play_random({"bazzis": 20}, 5, deals=6)
    for deal in match.record()["deals"]:
        for action in deal["actions"]:
            kinds |= set(action) - {"seat", "groups", "value", "with", "absorb", "house"}
    assert kinds == {"bid", "capture", "build", "cement", "break", "throw"}
