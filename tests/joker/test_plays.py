"""Legal plays: following, trumping, joker declarations, face value, strict joker (spec 8, 18.3)."""

from __future__ import annotations

import pytest

from engine.base import IllegalAction
from engine.cards import Suit, parse_cards
from engine.joker import Rules
from engine.joker.actions import Play, parse_action
from engine.joker.pack import joker_deck
from engine.joker.tricks import PlayCheck
from tests.joker.helpers import make_state, run, snapshot

LEADS = [f"play:JK:{d}:{s}" for d in ("high", "low") for s in "SHDC"]
FACES = ["play:JK:face:6S", "play:JK:face:6C"]


def legal(hand: str, trick: list[str], trump: str | None = "H", used: str = "", **options):
    plays = [parse_action(a) for a in trick]
    check = PlayCheck(Rules.from_dict(options), parse_cards(hand), plays,
                      None if trump is None else Suit[trump], set(parse_cards(used)))
    return [str(p) for p in check.legal()]


def error(hand: str, trick: list[str], action: str, trump: str | None = "H", **options):
    play = parse_action(action)
    assert isinstance(play, Play)
    check = PlayCheck(Rules.from_dict(options), parse_cards(hand),
                      [parse_action(a) for a in trick], None if trump is None else Suit[trump],
                      set())
    return check.error(play)


# Spec 18.3, L1-L7 (L8 below): hand, trick so far, trump, options, legal plays.
WORKED = [
    ("L1", "KD 8D AS JK", ["play:JK:high:D"], "H", {}, ["play:KD", "play:JK:high", "play:JK:low"]),
    ("L2", "7H QH AS", ["play:10C"], "H", {}, ["play:7H", "play:QH"]),
    ("L3", "9C AC 7H", ["play:JK:low:C"], "H", {}, ["play:9C", "play:AC"]),
    ("L3 option", "9C AC 7H", ["play:JK:low:C"], "H", {"low_lead_demands_highest": True},
     ["play:AC"]),
    ("L4", "AS KD 9S", ["play:10C"], "H", {}, ["play:AS", "play:KD", "play:9S"]),
    ("L5 strict", "JK AD", [], "H", {"strict_joker": True}, ["play:AD"]),
    ("L5", "JK AD", [], "H", {}, ["play:AD", *LEADS, *FACES]),
    ("L5 only jokers", "JK JK", [], "H", {"strict_joker": True}, [*LEADS, *FACES]),
    ("L6", "QS 9S 7H JK", ["play:JK:high:S"], "H", {}, ["play:QS", "play:JK:high", "play:JK:low"]),
    ("L7", "8C JK", ["play:AH"], None, {}, ["play:8C", "play:JK:high", "play:JK:low", *FACES]),
]


@pytest.mark.parametrize(("case", "hand", "trick", "trump", "options", "plays"), WORKED,
                         ids=[w[0] for w in WORKED])
def test_worked_legal_plays(case, hand, trick, trump, options, plays):
    assert legal(hand, trick, trump, **options) == plays


def test_l8_chooser_sees_three_cards_then_bids_and_leads_first():
    deck = ["AH", "KH", "JK"] + [c for c in _all_cards() if c not in ("AH", "KH", "JK")]
    seat1, rest = deck[:9], deck[9:]
    hands = [" ".join(rest[0:9]), " ".join(seat1), " ".join(rest[9:18]), " ".join(rest[18:27])]
    state = make_state(hands, dealer=0, mode="chooser")
    assert state.phase == "trump" and state.to_act == (1,)
    assert state.legal_actions(1) == ["trump:S", "trump:H", "trump:D", "trump:C", "trump:NT"]
    view = state.view(1)
    assert sorted(view["hand"]) == ["AH", "JK", "KH"]
    assert view["hand_counts"] == [3, 3, 3, 3] and view["trump"] is None
    assert len(state.view(2)["hand"]) == 3 and "hand" not in state.view(None)
    events = state.apply(1, "trump:NT")
    assert events[0].kind == "trump_chosen" and events[0].data == {"trump": "NT"}
    assert len(state.view(1)["hand"]) == 9 and state.view(None)["trump"] == "NT"
    assert state.phase == "bid" and state.to_act == (1,)
    run(state, ["bid:1", "bid:1", "bid:1", "bid:1"])
    assert state.phase == "play" and state.to_act == (1,) and state.view(None)["leader"] == 1


def _all_cards() -> list[str]:
    return [str(c) for c in joker_deck()]


def test_void_must_trump_highest_after_a_joker_led_high():
    options = {"void_must_trump_highest": True}
    assert legal("7H QH AS", ["play:JK:high:D"], **options) == ["play:QH"]
    assert legal("7H QH AS", ["play:JK:high:D"]) == ["play:7H", "play:QH"]
    assert legal("7H QH AS", ["play:10D"], **options) == ["play:7H", "play:QH"]
    assert legal("7H QH AS", ["play:JK:low:D"], **options) == ["play:7H", "play:QH"]


def test_low_lead_allows_any_card_of_the_suit_and_high_lead_the_highest():
    assert legal("9C AC 7H", ["play:JK:high:C"]) == ["play:AC"]
    assert legal("9C 7C", ["play:JK:low:C"]) == ["play:9C", "play:7C"]


def test_joker_led_high_in_trumps_wants_the_highest_trump():
    assert legal("7H QH AS JK", ["play:JK:high:H"]) == ["play:QH", "play:JK:high", "play:JK:low"]


def test_joker_may_be_played_whatever_the_hand_holds():
    assert legal("9S JK", ["play:10S"]) == ["play:9S", "play:JK:high", "play:JK:low",
                                            "play:JK:face:6S"]
    assert legal("9S JK", ["play:10S", "play:JK:high"]) == ["play:9S", "play:JK:high",
                                                            "play:JK:low", "play:JK:face:6S"]


@pytest.mark.parametrize(("hand", "trick", "trump", "faces"), [
    ("JK 8D", ["play:JK:high:S"], "H", FACES),  # no spade: 6S is the highest; 6C any card
    ("JK 9S", ["play:JK:high:S"], "H", []),  # 9S is higher than the six
    ("JK 9C", ["play:10D"], "C", ["play:JK:face:6C"]),  # void in diamonds: must trump
    ("JK 8S", ["play:10D"], "C", FACES),  # no trump held: either six follows
    ("JK 8S", ["play:10D"], "S", ["play:JK:face:6S"]),
    ("JK 8C", ["play:QC"], "H", ["play:JK:face:6C"]),  # follows clubs like any club
    ("JK", ["play:QC"], "H", FACES),  # nothing else held: any card
])
def test_face_value_counts_as_the_natural_six(hand, trick, trump, faces):
    assert [a for a in legal(hand, trick, trump) if "face" in a] == faces


def test_face_value_off_and_each_six_once_per_deal():
    assert not [a for a in legal("8C JK", ["play:AH"], None, face_value=False) if "face" in a]
    assert legal("8C JK", ["play:AH"], None, used="6S")[-1:] == ["play:JK:face:6C"]
    err = error("8C JK", [], "play:JK:face:6S", face_value=False)
    assert err is not None and err.code == "no_face_value"


def test_strict_joker_also_covers_face_value_leads_but_not_following():
    err = error("JK AD", [], "play:JK:face:6S", strict_joker=True)
    assert err is not None and err.code == "strict_joker"
    assert "play:JK:high" in legal("JK AD", ["play:KD"], strict_joker=True)


@pytest.mark.parametrize(("hand", "trick", "action", "code", "text"), [
    ("KD 8D AS JK", ["play:JK:high:D"], "play:8D", "must_play_highest", "play K♦"),
    ("KD 8D AS", ["play:QD"], "play:AS", "must_follow", "follow suit"),
    ("7H AS", ["play:QD"], "play:AS", "must_trump", "must play a trump"),
    ("7H AS", ["play:QD"], "play:KS", "not_in_hand", "do not hold KS"),
    ("7H AS", ["play:QD"], "play:JK:high", "not_in_hand", "no joker"),
    ("7H JK", [], "play:JK:high", "joker_needs_suit", "names a suit"),
    ("7H JK", ["play:QD"], "play:JK:low:D", "joker_takes_no_suit", "only a led joker"),
    ("JK 9S", ["play:JK:high:S"], "play:JK:face:6S", "must_play_highest", "counts as that card"),
])
def test_illegal_plays_say_why(hand, trick, action, code, text):
    err = error(hand, trick, action)
    assert isinstance(err, IllegalAction) and err.code == code and text in str(err)


def test_illegal_play_leaves_the_state_unchanged():
    state = make_state(["AS KD", "KS 8D", "7H QS", "JK 10D"], trump_card="9H", dealer=3)
    run(state, ["bid:1", "bid:0", "bid:0", "bid:0", "play:AS"])
    before = snapshot(state)
    for seat, action, code in [(1, "play:8D", "must_follow"), (1, "play:7H", "not_in_hand"),
                               (2, "play:QS", "not_your_turn"), (1, "bid:1", "wrong_phase"),
                               (1, "play:JK:high", "not_in_hand"), (1, "play:ZZ", "bad_card"),
                               (1, "hello", "bad_action")]:
        with pytest.raises(Exception) as err:
            state.apply(seat, action)
        assert getattr(err.value, "code", None) == code
        assert snapshot(state) == before
    run(state, ["play:KS", "play:QS", "play:JK:high"])
    assert state.tricks == [0, 0, 0, 1] and state.to_act == (3,)
    assert state.view(None)["last_trick"]["winner"] == 3


def test_face_value_six_is_used_up_for_the_deal():
    state = make_state(["8S 9C", "JK 7D", "10S 8D", "JK JS"], trump_card="AH", dealer=3)
    run(state, ["bid:0", "bid:0", "bid:0", "bid:0"])
    run(state, ["play:8S", "play:JK:face:6S", "play:10S", "play:JS"])
    assert state.view(None)["sixes_used"] == ["6S"]
    assert state.tricks == [0, 0, 0, 1]
    assert "play:JK:face:6C" in state.legal_actions(3)
    assert "play:JK:face:6S" not in state.legal_actions(3)
    with pytest.raises(IllegalAction) as err:
        state.apply(3, "play:JK:face:6S")
    assert err.value.code == "six_used"
