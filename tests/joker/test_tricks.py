"""Who wins a trick (spec 9): every worked example of 18.4, played through real deals."""

from __future__ import annotations

import pytest

from engine.joker import Rules
from engine.joker.actions import parse_action
from engine.joker.tricks import trick_winner
from tests.joker.helpers import make_state, run

# (case, plays of P1..P4, trump card turned up, winner by default, {option: winner}).
# P1..P4 are seats 1, 2, 3, 0 (seat 0 deals); a 1-card deal holds just the card played.
WORKED = [
    ("J1", ["JK:high:S", "AS", "7H", "KS"], "10H", 1, {"trump_beats_led_high_joker": 3}),
    ("J2", ["JK:high:H", "AH", "KH", "QH"], "10H", 1,
     {"trump_beats_led_high_joker": 1, "two_jokers": 1}),
    ("J3", ["JK:low:C", "9C", "AC", "7H"], "10H", 4, {}),
    ("J4", ["JK:low:D", "KS", "AC", "QS"], "10H", 1, {}),
    ("J5", ["10S", "JK:high", "AS", "JK:high"], "10H", 4, {"two_jokers": 2}),
    ("J6", ["KD", "JK:low", "7D", "6D"], "JK", 1, {}),
    ("J7", ["QC", "6H", "JK:high", "AC"], "10H", 3,
     {"trump_beats_led_high_joker": 3, "two_jokers": 3}),
    ("J8", ["JK:high:S", "JK:high", "KS", "8D"], "10H", 2, {"two_jokers": 1}),
    ("J9", ["7S", "JK:face:6S", "8S", "AD"], "JK", 3, {}),
    ("J10", ["JK:low:S", "AD", "7S", "KC"], "9S", 3, {}),
    ("J11", ["JK:high:S", "7H", "JK:high", "QS"], "10H", 3, {"two_jokers": 1}),
    ("J12", ["JK:high:D", "9C", "6H", "AD"], "10H", 1, {"trump_beats_led_high_joker": 3}),
]
SEATS = [1, 2, 3, 0]  # P1..P4


def play_trick(plays: list[str], trump_card: str, options: dict) -> int:
    """Deal each player the card they play, bid, play the trick; the winner as P1..P4."""
    hands = [""] * 4
    for seat, play in zip(SEATS, plays, strict=True):
        hands[seat] = play.split(":")[0]
    state = make_state(hands, trump_card=trump_card, dealer=0, rules=Rules.from_dict(options))
    run(state, ["bid:0"] * 4)
    events = run(state, [f"play:{p}" for p in plays])
    trick = next(e for e in events if e.kind == "trick")
    assert state.finished and state.tricks[trick.seat] == 1
    return SEATS.index(trick.seat) + 1


@pytest.mark.parametrize(("case", "plays", "trump_card", "winner", "options"), WORKED,
                         ids=[w[0] for w in WORKED])
def test_worked_trick(case, plays, trump_card, winner, options):
    assert play_trick(plays, trump_card, {}) == winner
    for option, option_winner in options.items():
        value = "first" if option == "two_jokers" else True
        assert play_trick(plays, trump_card, {option: value}) == option_winner, option


@pytest.mark.parametrize(("plays", "winner"), [
    (["JK:high:S", "JK:high", "KS", "8D"], 2),  # J8: the joker followed high beats the led one
    (["10S", "JK:high", "AS", "JK:high"], 2),  # J5: among followers two_jokers decides
    (["JK:high:S", "7H", "JK:high", "QS"], 3),
])
def test_trump_beats_led_high_joker_with_first_joker(plays, winner):
    # Spec 18.7.2.
    options = {"trump_beats_led_high_joker": True, "two_jokers": "first"}
    assert play_trick(plays, "10H", options) == winner


def test_trump_beats_led_high_joker_needs_a_trump():
    options = {"trump_beats_led_high_joker": True}
    assert play_trick(["JK:high:S", "AS", "KS", "QS"], "10H", options) == 1
    assert play_trick(["JK:high:S", "AS", "KS", "QH"], "10H", options) == 4
    assert play_trick(["JK:high:S", "AS", "KS", "QH"], "JK", options) == 1  # no trump deal


def test_joker_followed_low_never_wins_even_alone_in_suit():
    assert play_trick(["7D", "JK:low", "AS", "KC"], "JK", {}) == 1
    assert play_trick(["JK:low:D", "JK:low", "AS", "KC"], "JK", {}) == 1


def test_led_low_joker_is_beaten_by_any_card_of_its_suit():
    assert play_trick(["JK:low:H", "AS", "7H", "KC"], "10D", {}) == 3
    assert play_trick(["JK:low:H", "AS", "7H", "8D"], "10D", {}) == 4  # a trump beats both


def test_face_value_six_is_an_ordinary_trump():
    assert play_trick(["AD", "JK:face:6C", "KD", "QD"], "10C", {}) == 2


def test_trick_winner_is_pure():
    plays = [parse_action(f"play:{p}") for p in ["KD", "JK:low", "7D", "6D"]]
    assert trick_winner(plays, None, Rules()) == 0  # J6
