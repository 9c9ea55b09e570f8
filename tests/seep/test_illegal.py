"""Every move type's illegal variants, wrong seats, phases and malformed actions: each refused
with its code, and the state unchanged."""

from __future__ import annotations

import copy

import pytest

from engine.base import ActionError, IllegalAction, MalformedAction, NotYourTurn, WrongPhase
from engine.seep import Rules
from tests.seep.helpers import E, N, S, W, house, position


def snapshot(state) -> tuple:
    return (state.version, state.plays, state.turn, copy.deepcopy(state.hands),
            state.view(None), [list(p) for p in state.piles], state.last_capturer)


def refused(state, action: str, error: type[ActionError], code: str, seat: int = S) -> str:
    before = snapshot(state)
    with pytest.raises(error) as err:
        state.apply(seat, action)
    assert err.value.code == code, str(err.value)
    assert snapshot(state) == before
    assert action not in state.legal_actions(seat)
    return str(err.value)


HOUSE9_W = house(9, "5D 4H", {W})


@pytest.mark.parametrize(
    ("hand", "loose", "houses", "action", "error", "code"),
    [
        # building
        ("7S 3H", "4C", (), "build:7S:11:4C", IllegalAction, "must_hold"),
        ("7S JD", "4C", (), "build:7S:8:AC", IllegalAction, "not_on_floor"),
        ("5S 8D", "3C", (), "build:5S:8:3C", IllegalAction, "house_value"),
        ("KS AH", "AC", (), "build:KS:14:AC", IllegalAction, "house_value"),
        ("7S JD", "4C 3D", (), "build:7S:11:3D", IllegalAction, "bad_sum"),
        ("JD JS", "", (), "build:JD:11", IllegalAction, "house_size"),
        ("7S JD JC", "4C", (house(11, "6D 5C", {E}),), "build:7S:11:4C", IllegalAction,
         "house_exists"),
        ("7S JD", "4C 5H 6H", (), "build:7S:11:4C", IllegalAction, "must_absorb"),
        ("7S QD", "4C", (house(9, "5D 4H", {W}), house(10, "6D 4S", {E})), "build:7S:11:4C",
         IllegalAction, "max_houses"),
        # cementing
        ("7S JD", "4C", (), "cement:7S:11:4C", IllegalAction, "no_house"),
        ("7S 2D", "4C", (house(11, "6D 5C", {E}),), "cement:7S:11:4C", IllegalAction,
         "must_hold"),
        ("7S JC", "", (house(11, "6D 5C", {E}),), "cement:7S:11:4H", IllegalAction,
         "not_on_floor"),
        # breaking
        ("2C JH", "", (house(9, "5D 4H", {S}),), "break:2C:9", IllegalAction, "own_house"),
        ("2C JH", "", (house(9, "5D 4H | 9C", {W}),), "break:2C:9", IllegalAction, "cemented"),
        ("2C 8D", "", (HOUSE9_W,), "break:2C:9", IllegalAction, "must_hold"),
        ("8D KH", "", (HOUSE9_W,), "break:8D:9", IllegalAction, "over_13"),
        ("2C JH", "", (), "break:2C:9", IllegalAction, "no_house"),
        ("2C QH", "AD", (HOUSE9_W,), "break:2C:9:AD", IllegalAction, "break_with_floor"),
        # capturing
        ("JD", "2C 3D 5H 6S", (), "cap:JD:6S+5H/3D+2C", IllegalAction, "bad_sum"),
        ("JD", "2C 3D 5H 6S 4C 7D", (), "cap:JD:6S+5H", IllegalAction, "capture_not_maximal"),
        ("JD", "5H 6S", (), "cap:JD", IllegalAction, "capture_not_maximal"),
        ("9C", "", (HOUSE9_W,), "cap:9C:5D+4H", IllegalAction, "part_of_house"),
        ("9C 2S", "3H 6H", (HOUSE9_W,), "cap:9C:6H+3H/5D+4H", IllegalAction, "part_of_house"),
        ("5C", "AC 3D", (), "cap:5C", IllegalAction, "nothing_to_capture"),
        ("JD", "5H 6S", (), "cap:JS:6S+5H", IllegalAction, "not_in_hand"),
        # throwing
        ("JD 2C", "5H 6S", (), "throw:JD", IllegalAction, "can_capture"),
        ("9C 2S", "", (HOUSE9_W,), "throw:9C", IllegalAction, "can_capture"),
        # malformed
        ("JD", "", (), "play:JD", MalformedAction, "bad_action"),
        ("JD", "", (), "cap:ZZ", MalformedAction, "bad_action"),
        ("JD", "", (), "build:JD", MalformedAction, "bad_action"),
        ("JD", "", (), "build:JD:x", MalformedAction, "bad_action"),
        ("JD", "", (), "cap:JD:5H++6S", MalformedAction, "bad_action"),
        ("JD", "", (), "cap:JD:5H:6S", MalformedAction, "bad_action"),
        ("JD", "", (), "throw:JD:5H", MalformedAction, "bad_action"),
        ("JD", "", (), "build:JD:11:absorb", MalformedAction, "bad_action"),
        ("JD", "", (), "cap:JD:JD", MalformedAction, "card_twice"),
        ("JD", "", (), "cap:JD:=AAAA", MalformedAction, "bad_action"),
        ("JD", "", (), "cap:J♦", MalformedAction, "bad_action"),
        ("JD", "", (), "", MalformedAction, "bad_action"),
        ("JD", "", (), "bid:13", WrongPhase, "bidding_over"),
    ],
)
def test_refused(hand, loose, houses, action, error, code) -> None:
    rules = Rules(max_houses=2)
    refused(position(hand, loose, houses, rules=rules), action, error, code)


def test_break_of_partners_house_by_option() -> None:
    houses = (house(9, "5D 4H", {N}),)
    assert "break:2C:9" in position("2C JH", "", houses).legal_actions(S)
    state = position("2C JH", "", houses, rules=Rules(break_partner_house=False))
    refused(state, "break:2C:9", IllegalAction, "partner_house")


def test_wrong_seat_and_finished_deal() -> None:
    state = position("5D", "5C", plays=47, dealer=S)
    assert state.legal_actions(E) == []
    refused(state, "cap:5D:5C", NotYourTurn, "not_your_turn", seat=E)
    state.apply(S, "cap:5D:5C")
    with pytest.raises(WrongPhase) as err:
        state.apply(S, "throw:5D")
    assert err.value.code == "deal_over"
    assert state.legal_actions(S) == [] and state.to_act == ()


def test_messages_name_what_is_wrong() -> None:
    text = refused(position("JD", "2C 3D 5H 6S 4C 7D"), "cap:JD:6S+5H", IllegalAction,
                   "capture_not_maximal")
    assert text == "the capture must also take 7♦+4♣"
    text = refused(position("JD", "2C 3D 5H 6S"), "cap:JD:6S+5H/3D+2C", IllegalAction,
                   "bad_sum")
    assert text == "3♦+2♣ sums to 5, not 11"
    text = refused(position("9C", "", (HOUSE9_W,)), "cap:9C:5D+4H", IllegalAction,
                   "part_of_house")
    assert text.startswith("5♦ lies in the house of 9")
