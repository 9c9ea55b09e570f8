"""Bidding: order, range, the dealer's restriction (spec 7, 18.2) and the pass limit."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.joker import Rules
from tests.joker.helpers import make_state, run, snapshot

HANDS_4 = {  # N cards each, four seats, no card twice
    1: ["AS", "KS", "QS", "JS"],
    3: ["AS KS QS", "AH KH QH", "AD KD QD", "AC KC QC"],
    5: ["AS KS QS JS 10S", "AH KH QH JH 10H", "AD KD QD JD 10D", "AC KC QC JC 10C"],
    6: ["AS KS QS JS 10S 9S", "AH KH QH JH 10H 9H", "AD KD QD JD 10D 9D",
        "AC KC QC JC 10C 9C"],
    9: ["AS KS QS JS 10S 9S 8S 7S JK", "AH KH QH JH 10H 9H 8H 7H 6H",
        "AD KD QD JD 10D 9D 8D 7D 6D", "AC KC QC JC 10C 9C 8C 7C JK"],
}


# (N, players, bids before the dealer, forbidden, dealer's legal bids): spec 18.2.
RESTRICTION = [
    (6, 4, [2, 1, 2], 1, [0, 2, 3, 4, 5, 6]),
    (3, 4, [2, 2, 0], None, [0, 1, 2, 3]),
    (1, 4, [0, 0, 0], 1, [0]),
    (9, 4, [3, 3, 3], 0, list(range(1, 10))),
    (9, 4, [0, 0, 0], 9, list(range(0, 9))),
    (5, 3, [2, 2], 1, [0, 2, 3, 4, 5]),
]


def bidding_state(cards: int, players: int, **kw):
    hands = HANDS_4[cards][:players]
    mode = "no_trump" if cards == 9 else "turn_up"
    return make_state(hands, trump_card="7D" if cards < 9 else None, mode=mode, dealer=0, **kw)


@pytest.mark.parametrize(("cards", "players", "before", "forbidden", "legal"), RESTRICTION)
def test_dealers_restriction(cards, players, before, forbidden, legal):
    state = bidding_state(cards, players)
    run(state, [f"bid:{b}" for b in before])
    assert state.to_act == (0,)  # the dealer bids last
    assert state.view(None)["forbidden_bid"] == forbidden
    assert state.legal_actions(0) == [f"bid:{b}" for b in legal]
    if forbidden is not None:
        before_refusal = snapshot(state)
        with pytest.raises(IllegalAction) as err:
            state.apply(0, f"bid:{forbidden}")
        assert err.value.code == "forbidden_bid"
        assert f"may not bid {forbidden}" in str(err.value)
        assert snapshot(state) == before_refusal


def test_forced_pass_is_the_only_bid_and_bidding_goes_on_to_play():
    state = bidding_state(1, 4)
    events = run(state, ["bid:0", "bid:0", "bid:0", "bid:0"])
    assert [e.kind for e in events][-1] == "bids_done"
    assert events[-1].data == {"total": 0, "cards": 1, "balance": "under"}
    assert state.phase == "play" and state.to_act == (1,)


def test_bidding_order_starts_left_of_the_dealer_and_only_the_dealer_is_restricted():
    state = make_state(HANDS_4[6], trump_card="7D", dealer=2)
    assert state.to_act == (3,)
    assert state.legal_actions(3) == [f"bid:{b}" for b in range(7)]
    run(state, ["bid:6", "bid:0"])
    assert state.to_act == (1,)
    assert state.view(None)["forbidden_bid"] is None
    run(state, ["bid:0"])
    assert state.view(None)["forbidden_bid"] == 0 and state.to_act == (2,)
    events = run(state, ["bid:3"])
    assert events[-1].data == {"total": 9, "cards": 6, "balance": "over"}
    assert state.bids == [0, 0, 3, 6]


def test_without_dealer_restriction_every_bid_is_legal():
    state = bidding_state(1, 4, rules=Rules.from_dict({"dealer_restriction": False}))
    run(state, ["bid:0", "bid:0", "bid:0"])
    assert state.legal_actions(0) == ["bid:0", "bid:1"]
    assert run(state, ["bid:1"])[-1].data["balance"] == "even"


def test_bid_above_the_card_count_is_refused():
    state = bidding_state(3, 4)
    with pytest.raises(IllegalAction) as err:
        state.apply(1, "bid:4")
    assert err.value.code == "bid_range"


def test_pass_limit_refuses_a_pass_once_used_up():
    rules = Rules.from_dict({"pass_limit": 2})
    state = bidding_state(3, 4, rules=rules, passes=(0, 2, 1, 0))
    assert "bid:0" not in state.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        state.apply(1, "bid:0")
    assert err.value.code == "pass_limit"
    run(state, ["bid:1"])
    assert "bid:0" in state.legal_actions(2)


def test_pass_limit_keeps_the_forced_pass():
    rules = Rules.from_dict({"pass_limit": 1})
    state = bidding_state(1, 4, rules=rules, passes=(1, 0, 0, 0))
    run(state, ["bid:0", "bid:0", "bid:0"])
    assert state.legal_actions(0) == ["bid:0"]
    run(state, ["bid:0"])
    assert state.bids == [0, 0, 0, 0]


def test_pass_limit_with_the_dealer_not_forced():
    rules = Rules.from_dict({"pass_limit": 1})
    state = bidding_state(3, 4, rules=rules, passes=(1, 0, 0, 0))
    run(state, ["bid:1", "bid:1", "bid:0"])  # forbidden 1 for the dealer
    assert state.legal_actions(0) == ["bid:2", "bid:3"]
