"""Hypothesis: random legal play always ends a deal, conserves the 32 cards, never shows a
seat a concealed card, and a deal replayed from its record is the same deal."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, CardError, parse_card
from engine.preferans.codec import decode_action, encode_action
from engine.preferans.pack import preferans_deck
from engine.preferans.policy import random_action
from engine.preferans.result import DealContext
from engine.preferans.rules import Rules
from engine.preferans.state import State

NOT_CARDS = {"bids", "high_bid", "contract", "min_bid", "whists", "phase", "game", "players"}

rules_st = st.fixed_dictionaries({
    "variant": st.sampled_from(["sochi", "leningrad", "rostov"]),
    "players": st.sampled_from([3, 4]),
}, optional={
    "walkaway": st.sampled_from([False, "no_whists", "with_consolation"]),
    "here_rule": st.sampled_from(["senior_two_left", "seed_literal", "off"]),
    "bid_jumps": st.booleans(),
    "open_reveal": st.sampled_from(["after_first_lead", "before_declarer_lead"]),
    "ten_mode": st.sampled_from(["whisted", "checked"]),
    "stalingrad": st.booleans(),
    "miser_bidder_after_outbid": st.sampled_from(["pass_only", "may_raise"]),
})


def _cards_in(value: Any, key: str = "") -> set[Card]:
    """Every card mentioned anywhere in a view, bid fields aside."""
    if key in NOT_CARDS:
        return set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v, str(k)) for k, v in value.items()), set())
    if isinstance(value, list):
        return set().union(*(_cards_in(v, key) for v in value), set())
    if isinstance(value, str):
        kind, _, rest = value.rpartition(":")
        if kind and kind not in ("play", "discard"):
            return set()  # a bid or contract such as "bid:7S" is not a card
        found = set()
        for token in rest.split(","):
            with contextlib.suppress(CardError):
                found.add(parse_card(token))
        return found
    return set()


def _concealed_from(state: State, seat: int | None, public: set[Card]) -> set[Card]:
    hidden: set[Card] = set()
    for other in range(state.n):
        if other != seat:
            hidden |= set(state.hands[other])
    if seat != state.declarer:
        hidden |= set(state.discarded)
    hidden |= set(state.talon) - set(state.view(None)["talon"])
    return hidden - public


def _play(rules: Rules, seed: int, choice_seed: int, check_views: bool):
    dealer = seed % rules.players
    state = State.new(rules, ["A", "B", "C", "D"][:rules.players], DealContext(dealer),
                      seed=seed)
    rng = random.Random(choice_seed)
    actions: list[dict[str, Any]] = []
    played: list[Card] = []
    public: set[Card] = set()
    steps = 0
    while not state.finished:
        seat = state.to_act[0]
        action = random_action(state, seat, rng)
        assert action in state.legal_actions(seat)
        for event in state.apply(seat, action):
            if event.kind in ("card", "talon_card"):
                played.append(parse_card(event.data["card"]))
        actions.append(encode_action(seat, action))
        steps += 1
        assert steps < 200
        if check_views:
            public |= set(played) | {parse_card(c) for c in state.view(None)["talon"]}
            for cards in state.view(None)["exposed"].values():
                public |= {parse_card(c) for c in cards}
            for viewer in [*range(state.n), None]:
                leaked = _cards_in(state.view(viewer)) & _concealed_from(state, viewer, public)
                assert not leaked, (viewer, leaked)
    return state, actions, played


@settings(max_examples=150, deadline=None)
@given(rules_st, st.integers(0, 10**9), st.integers(0, 10**9))
def test_random_play_ends_and_conserves_cards(rules_data, seed, choice_seed) -> None:
    rules = Rules.from_dict(rules_data)
    state, _, played = _play(rules, seed, choice_seed, check_views=False)
    r = state.result()
    assert sum(r.tricks) == (10 if r.played else 0)
    remaining = [c for h in state.hands for c in h]
    talon_left = list(state.talon) if r.kind == "raspasy" and not state.talon_turned else []
    # Every card exactly once: played, discarded, still held, or an unused raspasy talon.
    every = Counter(played + list(state.discarded) + remaining + talon_left)
    assert every == Counter(preferans_deck())


@settings(max_examples=60, deadline=None)
@given(rules_st, st.integers(0, 10**9), st.integers(0, 10**9))
def test_views_never_show_concealed_cards(rules_data, seed, choice_seed) -> None:
    _play(Rules.from_dict(rules_data), seed, choice_seed, check_views=True)


@settings(max_examples=100, deadline=None)
@given(rules_st, st.integers(0, 10**9), st.integers(0, 10**9))
def test_replaying_the_record_reproduces_the_deal(rules_data, seed, choice_seed) -> None:
    rules = Rules.from_dict(rules_data)
    live, actions, _ = _play(rules, seed, choice_seed, check_views=False)
    again = State.new(rules, live.players, live.context, deal=live.deal_record())
    for item in actions:
        again.apply(*decode_action(item))
    assert again.result() == live.result()
    assert again.version == live.version
    for viewer in [*range(live.n), None]:
        assert again.view(viewer) == live.view(viewer)
