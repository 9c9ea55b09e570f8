"""What seats see, the English labels of moves, and the events the bot announces."""

from __future__ import annotations

from engine.seep import Rules
from tests.seep.helpers import E, N, S, W, house, position


def test_labels_of_every_kind() -> None:
    state = position("JD 7S 3H", "2C 3D 5H 6S 4C")
    assert state.describe("cap:JD:6S+5H") == "capture 6♠+5♥ = 11"
    assert state.describe("cap:7S:4C+3D") == "capture 4♣+3♦ = 7"
    assert state.describe("build:7S:11:4C") == "build house 11 with 4♣"
    assert state.describe("build:7S:13:4C+2C:absorb:5H+6S") == (
        "build house 13 with 4♣+2♣, absorbing 6♠+5♥")
    assert state.describe("throw:3H") == "throw"
    assert state.describe("bid:13") == "bid 13"
    houses = (house(9, "5D 4H", {W}), house(12, "8C 4S", {S}), house(13, "9C 4D", {E}))
    state = position("3S 2C QD KC", "", houses)
    assert state.describe("break:2C:9") == "break house 9 to 11"
    assert state.describe("break:3S:9") == "break house 9 into house 12"
    assert state.describe("cement:QD:12") == "cement house 12"
    assert state.describe("cap:KC") == "capture house 13"
    state = position("9C", "6H 3H", (house(9, "5D 4H", {W}),))
    assert state.describe("cap:9C:6H+3H") == "capture house 9, 6♥+3♥ = 9"


def test_legal_actions_by_card() -> None:
    state = position("7S JD 3H", "4C 7H")
    assert state.legal_actions(S, "7S") == ["cap:7S:7H", "build:7S:11:4C"]
    assert state.legal_actions(S, "7s") == state.legal_actions(S, "7S")
    assert state.legal_actions(S, "2C") == [] and state.legal_actions(S, "XX") == []
    assert state.controller(S) == S


def test_view_of_the_floor_and_the_last_capture() -> None:
    state = position("JD 5C", "2C 3D 5H 6S", (house(10, "6D 4C", {N}),), hands={E: "8H 5S"})
    view = state.view(S)
    assert view["hand"] == ["JD", "5C"] and view["to_act"] == [S] and view["seat"] == S
    assert view["floor"] == {"loose": ["6S", "5H", "3D", "2C"], "houses": [
        {"value": 10, "groups": [["6D", "4C"]], "owners": [N], "cemented": False}]}
    assert view["capture_points"] is None and view["captured_cards"] is None
    state.apply(S, "cap:JD:6S+5H")
    seen = state.view(None)
    assert seen["hand"] is None
    assert seen["last_capture"] == {"seat": S, "cards": ["JD", "6S", "5H"]}
    assert seen["last_capturer"] == S
    state.apply(E, "throw:8H")
    assert state.view(None)["last_capture"] is None


def test_capture_totals_only_by_option() -> None:
    state = position("JD", "5S 6S", rules=Rules(show_capture_totals=True))
    state.apply(S, "cap:JD:6S+5S")
    view = state.view(W)
    assert view["capture_points"] == [11, 0] and view["captured_cards"] == [3, 0]
    assert view["sweeps"] == [[1, 0, 0], [0, 0, 0]] and view["sweep_points"] == [50, 0]


def test_events_of_a_move_and_the_end_of_the_deal() -> None:
    state = position("5D", "5C", plays=47, dealer=S)
    events = state.apply(S, "cap:5D:5C")
    assert [e.kind for e in events] == ["move", "sweep", "deal_end"]
    assert events[0].data == {"kind": "capture", "card": "5D", "action": "cap:5D:5C",
                              "label": "capture 5♣"}
    assert events[1].data == {"team": 0, "points": 0, "counted": True}
    assert events[2].data == {"card_points": [0, 0], "sweeps": [[0, 0, 1], [0, 0, 0]]}
    view = state.view(E)
    assert view["phase"] == "done" and view["piles"] == [["5D", "5C"], []]
    assert view["capture_points"] == [0, 0]


def test_sweep_cancel_counts_at_most_two_and_cancels() -> None:
    rules = Rules(sweep_cancel=True)
    state = position("5D", "5C", rules=rules)
    state.sweeps, state._counted = [[0, 0, 0], [2, 0, 0]], [[], [0, 0]]
    events = state.apply(S, "cap:5D:5C")
    assert events[-1].data == {"team": 0, "points": 0, "counted": False}
    assert state.sweeps == [[0, 0, 0], [1, 0, 0]]
    state = position("5D", "5C", rules=rules)
    state.sweeps, state._counted = [[2, 0, 0], [0, 0, 0]], [[0, 0], []]
    state.apply(S, "cap:5D:5C")
    assert state.sweeps == [[2, 0, 0], [0, 0, 0]]
    state = position("5D", "5C", rules=rules)
    state.sweeps, state._counted = [[1, 0, 0], [0, 0, 0]], [[0], []]
    state.apply(S, "cap:5D:5C")
    assert state.sweeps == [[2, 0, 0], [0, 0, 0]]
