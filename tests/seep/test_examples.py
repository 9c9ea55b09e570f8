"""Spec section 16.1: every worked example of moves and legality, S1-S14."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.match import Match
from engine.seep import SPEC, Rules
from engine.seep.pack import seep_deck
from tests.seep.helpers import E, N, S, W, cards, house, position


def legal(state, card=None) -> set[str]:
    return set(state.legal_actions(state.turn, card))


def floor_of(state) -> dict:
    return state.floor.as_dict()


def test_s1_both_maximal_families_and_nothing_else() -> None:
    state = position("JD", "2C 3D 5H 6S")
    assert legal(state) == {"cap:JD:6S+5H", "cap:JD:6S+3D+2C"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "throw:JD")
    assert err.value.code == "can_capture"
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "cap:JD:6S+5H/3D+2C")
    assert err.value.code == "bad_sum"


def test_s2_one_family_takes_everything_a_sweep() -> None:
    state = position("8H", "AC 7H 3S 5D 8S")
    assert [a for a in legal(state) if a.startswith("cap")] == ["cap:8H:8S/7H+AC/5D+3S"]
    events = state.apply(S, "cap:8H:8S/7H+AC/5D+3S")
    assert state.floor.empty
    assert state.sweeps[0] == [1, 0, 0]
    assert [e.data["points"] for e in events if e.kind == "sweep"] == [50]
    assert state.capture_points() == [12, 0]


def test_s3_capture_build_capture_throw() -> None:
    state = position("7S JD 3H", "4C 7H")
    assert legal(state) == {"cap:7S:7H", "build:7S:11:4C", "cap:JD:7H+4C", "throw:3H"}
    assert legal(state, "3H") == {"throw:3H"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "cement:JD:11:absorb:7H+4C")
    assert err.value.code == "no_house"
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "build:JD:11:absorb:7H+4C")
    assert err.value.code == "must_hold"
    state.apply(S, "cap:JD:7H+4C")
    assert state.sweeps[0] == [1, 0, 0]


def test_s4_owner_must_keep_the_card_of_the_house() -> None:
    state = position("JH 4S", "2D", (house(11, "6D 5C", {S}),))
    assert legal(state) == {"cap:JH", "throw:4S"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "cement:JH:11")
    assert err.value.code == "must_hold"
    state.apply(S, "cap:JH")
    assert floor_of(state) == {"loose": ["2D"], "houses": []}
    assert sorted(map(str, state.piles[0])) == ["5C", "6D", "JH"]


def test_s5_break_an_opponents_house() -> None:
    state = position("2C JH 8D", "", (house(9, "5D 4H", {W}),))
    assert legal(state) == {"break:2C:9", "throw:2C", "throw:JH", "throw:8D"}
    state.apply(S, "break:2C:9")
    assert floor_of(state)["houses"] == [
        {"value": 11, "groups": [["5D", "4H", "2C"]], "owners": [S], "cemented": False}]


@pytest.mark.parametrize(
    ("houses", "hand", "code"),
    [
        ((house(9, "5D 4H", {S}),), "2C JH 8D", "own_house"),
        ((house(9, "5D 4H | 9C", {W}),), "2C JH 8D", "cemented"),
        ((house(9, "5D 4H", {W}),), "2C 8D", "must_hold"),
    ],
    ids=["own", "cemented", "no-jack"],
)
def test_s5_variants_make_the_break_illegal(houses, hand, code) -> None:
    state = position(hand, "", houses)
    assert "break:2C:9" not in legal(state)
    before = state.view(S)
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "break:2C:9")
    assert err.value.code == code
    assert state.view(S) == before


def test_s6_capture_or_cement_with_either_jack() -> None:
    state = position("JC JS 3D", "", (house(11, "6D 5C", {E}),))
    assert legal(state) == {"cap:JC", "cement:JC:11", "cap:JS", "cement:JS:11", "throw:3D"}
    state.apply(S, "cement:JC:11")
    assert floor_of(state)["houses"] == [
        {"value": 11, "groups": [["6D", "5C"], ["JC"]], "owners": [E, S], "cemented": True}]


def test_s6_with_one_jack_only_the_capture() -> None:
    state = position("JC 3D", "", (house(11, "6D 5C", {E}),))
    assert legal(state) == {"cap:JC", "throw:3D"}


def test_s7_cement_a_partners_house_without_its_card() -> None:
    state = position("7H 2S", "3C", (house(10, "6D 4C", {N}),))
    assert legal(state) == {"cement:7H:10:3C", "throw:7H", "throw:2S"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "break:2S:10")
    assert err.value.code == "must_hold"
    state.apply(S, "cement:7H:10:3C")
    assert floor_of(state)["houses"] == [
        {"value": 10, "groups": [["6D", "4C"], ["7H", "3C"]], "owners": [N], "cemented": True}]


def test_s8_a_13_house_is_only_captured() -> None:
    state = position("KD 5S", "", (house(13, "9C 4D", {E}),))
    assert legal(state) == {"cap:KD", "throw:5S"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "break:5S:13")
    assert err.value.code == "over_13"


def test_s9_a_build_must_absorb_the_loose_single() -> None:
    state = position("4D QS", "QH 8C")
    assert legal(state) == {"build:4D:12:8C:absorb:QH", "throw:4D", "cap:QS:QH"}
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "build:4D:12:8C")
    assert err.value.code == "must_absorb"
    assert "Q♥" in str(err.value)
    state.apply(S, "build:4D:12:8C:absorb:QH")
    assert floor_of(state)["houses"] == [
        {"value": 12, "groups": [["8C", "4D"], ["QH"]], "owners": [S], "cemented": True}]


def test_s10_break_and_merge_into_own_house() -> None:
    houses = (house(9, "5D 4H", {W}), house(12, "8C 4S", {S}))
    state = position("3S QD", "", houses)
    assert "break:3S:9" in legal(state)
    state.apply(S, "break:3S:9")
    assert floor_of(state)["houses"] == [
        {"value": 12, "groups": [["8C", "4S"], ["5D", "4H", "3S"]], "owners": [S],
         "cemented": True}]


def test_s10a_merge_into_partners_house_needs_no_queen() -> None:
    houses = (house(9, "5D 4H", {W}), house(12, "8C 4S", {N}))
    state = position("3S 2C", "", houses)
    assert "break:3S:9" in legal(state)
    state.apply(S, "break:3S:9")
    assert floor_of(state)["houses"][0]["owners"] == [N]


def test_s10b_merge_into_opponents_house_needs_a_queen() -> None:
    houses = (house(9, "5D 4H", {W}), house(12, "8C 4S", {E}))
    state = position("3S 2C", "", houses)
    assert "break:3S:9" not in legal(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(S, "break:3S:9")
    assert err.value.code == "must_hold"


def _bid_deal(bidder_cards: str, floor: str, dealer: int = S) -> Match:
    """A match whose first deal gives the bidder these four cards and the floor these four."""
    rules = Rules()
    first, table = cards(bidder_cards), cards(floor)
    rest = [c for c in seep_deck() if c not in first + table]
    bidder = rules.next_seat(dealer)
    hands = [[] for _ in range(4)]
    hands[bidder] = first + rest[:8]
    others = [s for s in range(4) if s != bidder]
    for i, seat in enumerate(others):
        hands[seat] = rest[8 + 12 * i: 20 + 12 * i]
    deal = {"dealer": dealer, "bidder": bidder, "hands": [[str(c) for c in h] for h in hands],
            "floor": [str(c) for c in table]}
    match = Match(SPEC, rules, ["N", "E", "S", "W"], dealer)
    match.start_deal(deal=deal)
    return match


def test_s11_the_bid_move_has_exactly_three_choices() -> None:
    match = _bid_deal("KD 9C 5S 2H", "8D 3C 10H 6S")
    state = match.state
    assert state.legal_actions(E) == ["bid:9", "bid:13"]
    assert state.view(S)["floor"] is None and state.view(E)["hand"] == ["KD", "9C", "5S", "2H"]
    match.apply(E, "bid:13")
    assert legal(state) == {"build:5S:13:8D:absorb:10H+3C", "build:2H:13:8D+3C", "cap:KD:10H+3C"}
    for action, code in (("throw:9C", "bid_move"), ("throw:KD", "can_capture"),
                         ("build:KD:13:absorb:10H+3C", "must_hold"),
                         ("build:9C:13:AS", "bad_sum"), ("build:2H:11:6S+3C", "bid_move")):
        with pytest.raises(IllegalAction) as err:
            match.apply(E, action)
        assert err.value.code == code, action
    match.apply(E, "build:5S:13:8D:absorb:10H+3C")
    assert floor_of(state) == {"loose": ["6S"], "houses": [
        {"value": 13, "groups": [["8D", "5S"], ["10H", "3C"]], "owners": [E], "cemented": True}]}
    assert match.record()["deals"][0]["actions"][1] == {
        "seat": E, "build": "5S", "value": 13, "with": ["8D"], "absorb": [["10H", "3C"]]}


@pytest.mark.parametrize("action", ["build:2H:13:8D+3C", "cap:KD:10H+3C"])
def test_s11_the_other_two_moves(action) -> None:
    match = _bid_deal("KD 9C 5S 2H", "8D 3C 10H 6S")
    match.apply(E, "bid:13")
    match.apply(E, action)
    assert len(match.state.hands[E]) == 11 and match.state.turn == N  # the dealer's partner


def test_s11_bid_card_thrown_only_as_a_last_resort() -> None:
    match = _bid_deal("KD 9C 5S 2H", "AC 2C 3C 4C")
    match.apply(E, "bid:13")
    assert legal(match.state) == {"build:9C:13:4C", "build:9C:13:3C+AC", "build:5S:13:4C+3C+AC"}
    with pytest.raises(IllegalAction) as err:
        match.apply(E, "throw:KD")
    assert err.value.code == "bid_throw"
    match.state.rules = Rules(bid_throw_last_resort=False)
    assert "throw:KD" in legal(match.state)


def test_s11_bid_card_thrown_when_nothing_else_is_possible() -> None:
    match = _bid_deal("KD 5S 6C 7H", "QC QD JH 10D")
    match.apply(E, "bid:13")
    assert legal(match.state) == {"throw:KD"}


def test_s12_first_play_sweep_scores_25() -> None:
    match = _bid_deal("KC 2D 3D 4H", "4D 9S 6C 7H")
    match.apply(E, "bid:13")
    events = match.apply(E, "cap:KC:9S+4D/7H+6C")
    state = match.state
    assert state.floor.empty
    assert state.sweeps == [[0, 0, 0], [0, 1, 0]]
    assert [e.data["points"] for e in events if e.kind == "sweep"] == [25]
    assert state.capture_points() == [0, 9]


def test_s13_last_play_sweep_scores_0() -> None:
    state = position("5D", "5C", seat=S, plays=47, dealer=S)
    events = state.apply(S, "cap:5D:5C")
    assert state.finished and state.last_capturer == S
    assert [e.data["points"] for e in events if e.kind == "sweep"] == [0]
    assert state.result().sweeps == ((0, 0, 1), (0, 0, 0))


def test_s14_the_last_capturer_takes_the_rest() -> None:
    state = position("8H", "3S", seat=S, plays=47, dealer=S)
    state.last_capturer = W
    events = state.apply(S, "throw:8H")
    assert state.finished and state.floor.empty
    assert [(e.kind, e.data["cards"]) for e in events if e.kind == "floor_taken"] == [
        ("floor_taken", ["8H", "3S"])]
    assert state.capture_points() == [0, 3]
    assert state.result().sweeps == ((0, 0, 0), (0, 0, 0))
