"""Properties over random legal play (hypothesis): games finish, tricks and cards add up,
illegal actions change nothing, replay reproduces live play."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import ActionError
from engine.cards import JOKER
from engine.joker import SPEC, Rules
from engine.joker.actions import SUITS
from engine.joker.pack import joker_deck
from engine.match import Match
from engine.records import replay
from tests.joker.helpers import snapshot

OPTIONS = st.fixed_dictionaries({
    "players": st.sampled_from([4, 3, 2]),
    "schedule": st.sampled_from(["standard", "nines", "short"]),
    "dealer_restriction": st.booleans(),
    "pass_limit": st.sampled_from(["none", 1, 3]),
    "strict_joker": st.booleans(),
    "face_value": st.booleans(),
    "two_jokers": st.sampled_from(["last", "first"]),
    "trump_beats_led_high_joker": st.booleans(),
    "low_lead_demands_highest": st.booleans(),
    "void_must_trump_highest": st.booleans(),
    "scoring": st.sampled_from(["standard", "negative"]),
    "khishti": st.sampled_from([200, 500, "per_pulka", "dynamic"]),
    "premium_excludes_last_deal": st.booleans(),
    "multi_premium_penalises": st.booleans(),
    "premium_penalty_basis": st.sampled_from(["best_deal", "exact_only"]),
}).map(lambda o: {**o, "nine_card_trump": "chooser" if o["players"] == 4 else "turn_up"})

# Every action text a seat could try: the universe illegal actions are drawn from.
UNIVERSE = (
    [f"trump:{t}" for t in ("S", "H", "D", "C", "NT")] + [f"bid:{b}" for b in range(11)]
    + [f"play:{c}" for c in joker_deck() if c != JOKER]
    + [f"play:JK:{d}{s}" for d in ("high", "low") for s in ("", ":S", ":H", ":D", ":C")]
    + ["play:JK:face:6S", "play:JK:face:6C"]
)


def play_game(rules: Rules, seed: int, probe: random.Random | None = None) -> Match:
    """A whole game of random legal play, checking the deal invariants on the way."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rules.players)]
    match = Match(SPEC, rules, players, SPEC.first_dealer(rules, 0, rng))
    k = 0
    while not match.over:
        state = match.start_deal(seed=f"{seed}/{k}")
        dealt = Counter(str(c) for hand in state.hands for c in hand)
        played: Counter = Counter()
        while match.in_deal:
            (seat,) = state.to_act
            legal = state.legal_actions(seat)
            assert legal and all(not state.legal_actions(s) for s in range(state.n) if s != seat)
            if probe is not None and probe.random() < 0.05:
                check_refusals(state, seat, legal, probe)
            action = SPEC.random_action(state, seat, rng)
            assert action in legal
            events = match.apply(seat, action)
            played.update(e.data["play"] for e in events if e.kind == "play")
        assert sum(state.tricks) == state.cards
        assert played == dealt
        assert all(not hand for hand in state.hands)
        k += 1
    return match


def check_refusals(state, seat: int, legal: list[str], rng: random.Random) -> None:
    """Illegal actions, and legal ones from the wrong seat, raise and change nothing."""
    before = snapshot(state)
    for action in rng.sample([a for a in UNIVERSE if a not in legal], 3):
        try:
            state.apply(seat, action)
        except ActionError:
            pass
        else:
            raise AssertionError(f"{action} was applied though not listed as legal")
        assert snapshot(state) == before
    other = (seat + 1) % state.n
    try:
        state.apply(other, legal[0])
    except ActionError as exc:
        assert exc.code == "not_your_turn"
    else:
        raise AssertionError("an action from the wrong seat was applied")
    assert snapshot(state) == before
    for s in range(state.n):  # a seat sees its own cards (three before the trump choice)
        own = state.dealt[s][:3] if state.phase == "trump" else state.hands[s]
        assert sorted(state.view(s)["hand"]) == sorted(str(c) for c in own)
        json.dumps(state.view(s))


@settings(max_examples=60, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 10**6))
def test_random_games_finish_and_replay_reproduces_them(options, seed):
    rules = Rules.from_dict(options)
    match = play_game(rules, seed, random.Random(seed))
    report = match.report()
    assert report["complete"] is True
    assert len(report["deals"]) == len(match.sheet.plan)
    assert all(sum(d["tricks"]) == d["cards"] for d in report["deals"])
    assert sum(report["settlement"]) == 0
    assert report["sheet"]["totals"] == [sum(p["totals"][s] for p in report["pulkas"])
                                         for s in range(rules.players)]
    again = replay(match.record())
    assert again.record() == match.record()
    assert again.report() == report


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 300))
def test_replay_of_a_game_stopped_anywhere(seed, stop):
    rules = Rules()
    rng = random.Random(seed)
    match = Match(SPEC, rules, ["A", "B", "C", "D"], 0)
    k = 0
    while stop > 0 and not match.over:
        state = match.start_deal(seed=f"{seed}/{k}")
        k += 1
        while match.in_deal and stop > 0:
            seat = state.to_act[0]
            match.apply(seat, SPEC.random_action(state, seat, rng))
            stop -= 1
    report = replay(match.record()).report()
    assert report == match.report()
    assert sum(report["settlement"]) == 0


def test_random_policy_makes_every_bid_and_declaration_occur():
    seen: Counter = Counter()
    for seed in range(4):
        match = play_game(Rules(), seed)
        for deal in match.record()["deals"]:
            for item in deal["actions"]:
                item = {k: v for k, v in item.items() if k != "seat"}
                if item.get("play") not in (None, "JK"):
                    item["play"] = "card"
                seen[tuple(sorted(item.items()))] += 1
    bids = {dict(k)["bid"] for k in seen if "bid" in dict(k)}
    assert bids == set(range(10))
    trumps = {dict(k)["trump"] for k in seen if "trump" in dict(k)}
    assert trumps == {"S", "H", "D", "C", "NT"}
    jokers = {(d.get("joker"), d.get("suit"), d.get("as")) for d in map(dict, seen)
              if d.get("play") == "JK"}
    assert jokers == ({(j, s.letter, None) for j in ("high", "low") for s in SUITS}
                      | {("high", None, None), ("low", None, None)}
                      | {("face", None, "6S"), ("face", None, "6C")})
