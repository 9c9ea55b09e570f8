"""Dealing, the bid, the redeal, who receives which cards when, and what each seat sees."""

from __future__ import annotations

import random

import pytest

from engine.base import IllegalAction, RecordError, WrongPhase
from engine.match import Match
from engine.seep import SPEC, Rules, State
from engine.seep.deal import deal_from_record, deal_from_seed, is_void
from engine.seep.result import DealContext
from engine.seep.values import value
from tests.seep.helpers import E, N, S, W

PLAYERS = ["N", "E", "S", "W"]


def seed_where(void: bool, rules: Rules | None = None) -> int:
    rules = rules or Rules()
    return next(k for k in range(200) if deal_from_seed(rules, S, k).void == void)


def test_seeded_deal_gives_the_bidder_four_then_everyone_twelve() -> None:
    rules = Rules()
    dealt = deal_from_seed(rules, S, seed_where(False))
    assert dealt.bidder == E and not is_void(dealt.bidder_cards)
    assert dealt.hands[E][:4] == dealt.bidder_cards
    assert [len(h) for h in dealt.hands] == [12] * 4 and len(dealt.floor) == 4
    assert len({c for h in dealt.hands for c in h} | set(dealt.floor)) == 52
    assert deal_from_seed(rules, S, 5) == deal_from_seed(rules, S, 5)


def test_before_the_bid_only_the_bidder_sees_four_cards() -> None:
    state = State.new(Rules(), PLAYERS, DealContext(S), seed=seed_where(False))
    assert state.phase == "bid" and state.to_act == (E,)
    assert [len(h) for h in state.hands] == [0, 4, 0, 0]
    for seat in (N, S, W, None):
        view = state.view(seat)
        assert view["floor"] is None and view["hand"] in ([], None)
    assert state.view(E)["hand"] == [str(c) for c in sorted(
        state.dealt.bidder_cards, key=lambda c: (-value(c), c.suit))]
    assert state.legal_actions(N) == [] and state.legal_actions(E, "KD") == []


def test_the_bid_turns_the_floor_and_play_one_deals_the_rest() -> None:
    state = State.new(Rules(), PLAYERS, DealContext(S), seed=seed_where(False))
    with pytest.raises(WrongPhase) as err:
        state.apply(E, "throw:2C")
    assert err.value.code == "bid_first"
    with pytest.raises(IllegalAction) as err:
        state.apply(E, "bid:8")
    assert err.value.code == "bid_range"
    missing = next(b for b in range(9, 14) if b not in state.bids())
    with pytest.raises(IllegalAction) as err:
        state.apply(E, f"bid:{missing}")
    assert err.value.code == "bid_card"
    bid = state.bids()[-1]
    events = state.apply(E, f"bid:{bid}")
    assert events[0].kind == "bid" and events[0].data["bid"] == bid
    assert len(state.view(None)["floor"]["loose"]) == 4 and state.version == 1
    events = state.apply(E, random.Random(1).choice(state.legal_actions(E)))
    assert [e.kind for e in events][-1] == "dealt"
    assert [len(h) for h in state.hands] == [12, 11, 12, 12] and state.turn == N


def test_a_void_deal_is_over_at_once_and_scored_as_nothing() -> None:
    seed = seed_where(True)
    match = Match(SPEC, Rules(), PLAYERS, S)
    state = match.start_deal(seed=seed)
    assert state.finished and state.phase == "void" and state.to_act == ()
    assert state.view(None)["bidder_cards"] == [str(c) for c in state.dealt.bidder_cards]
    assert match.deals[0] == {"dealer": S, "bidder": E, "redeal": True, "actions": [],
                              "bidder_cards": [str(c) for c in state.dealt.bidder_cards]}
    assert match.outputs == [{"dealer": S, "bidder": E, "bid": None, "card_points": [0, 0],
                              "sweeps": [[0, 0, 0], [0, 0, 0]], "score": [0, 0], "lead": 0,
                              "bazzi": None, "reason": None}]
    assert match.sheet.next_context().dealer == S
    assert not match.in_deal


def good_deal(dealer: int = S) -> dict:
    return deal_from_seed(Rules(), dealer, seed_where(False)).record()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": N}, "the dealer must be seat 2"),
        ({"bidder": W}, "the bidder must be seat 1"),
        ({"talon": []}, "unknown deal field(s): talon"),
        ({"floor": ["2C", "3C", "4C"]}, "the floor must have 4 cards"),
        ({"hands": [[], [], []]}, "hands must be a list of 4 card lists"),
        ({"redeal": "yes"}, "redeal must be true or absent"),
        ({"redeal": True}, "a redeal lists only the bidder's four cards"),
    ],
)
def test_bad_deal_objects(change, message) -> None:
    with pytest.raises(RecordError) as err:
        deal_from_record(Rules(), S, {**good_deal(), **change})
    assert message in str(err.value)


def test_a_card_dealt_twice_or_a_bidder_without_a_high_card() -> None:
    deal = good_deal()
    deal["hands"][0][0] = deal["floor"][0]
    with pytest.raises(RecordError, match="dealt twice"):
        deal_from_record(Rules(), S, deal)
    deal = good_deal()
    low = [c for h in deal["hands"] for c in h if c[:-1] in "2345678"]
    hands = [[c for c in h if c not in low[:4]] for h in deal["hands"]]
    high = [c for c in deal["hands"][E][:4] if c not in low[:4]]
    hands[E] = low[:4] + [c for c in hands[E] if c not in high]
    spare = iter(high)
    for seat in range(4):
        while len(hands[seat]) < 12:
            hands[seat].append(next(spare))
    with pytest.raises(RecordError, match="record the deal as a redeal"):
        deal_from_record(Rules(), S, {**deal, "hands": hands})


def test_void_record_form() -> None:
    dealt = deal_from_record(Rules(), S, {"dealer": S, "bidder_cards": ["2C", "3D", "8H", "AS"],
                                          "redeal": True})
    assert dealt.void and dealt.bidder == E
    with pytest.raises(RecordError, match="no redeal"):
        deal_from_record(Rules(), S, {"dealer": S, "bidder_cards": ["9C", "3D", "8H", "AS"],
                                      "redeal": True})


def test_two_players_halves() -> None:
    rules = Rules(players=2)
    state = State.new(rules, ["A", "B"], DealContext(0), seed=seed_where(False, rules))
    assert state.bidder == 1 and [len(h) for h in state.hands] == [4, 4]
    assert [len(h) for h in state.dealt.hands] == [24, 24]
    rng = random.Random(3)
    sizes = []
    while not state.finished:
        seat = state.to_act[0]
        state.apply(seat, SPEC.random_action(state, seat, rng))
        sizes.append([len(h) for h in state.hands])
    assert sizes[0] == [4, 4] and sizes[1] == [12, 11]  # after the bid, after play #1
    assert sizes[23] == [1, 0] and sizes[24] == [12, 12]  # the second half after play #24
    assert sizes[-1] == [0, 0] and len(sizes) == 49  # the bid and 48 plays
