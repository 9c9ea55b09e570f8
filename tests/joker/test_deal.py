"""Dealing, trump, views, events and the deal's record and output (spec 6, 10, 17)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.base import RecordError, WrongPhase
from engine.cards import ACE, format_cards, parse_cards, shuffled, sorted_hand
from engine.joker import Rules, Scoresheet, State
from engine.joker.pack import joker_deck
from engine.joker.policy import first_dealer
from tests.joker.helpers import NAMES, context_at, make_state, run


def seeded(options: dict | None = None, *, deals_before: int = 0, seed: object = 1) -> State:
    rules = Rules.from_dict(options or {})
    return State.new(rules, NAMES[: rules.players], context_at(rules, deals_before), seed=seed)


@pytest.mark.parametrize(("options", "deal", "cards", "turned"), [
    ({}, 0, 1, True), ({}, 7, 8, True), ({}, 8, 9, False), ({}, 23, 9, False),
    ({"players": 3}, 4, 5, True), ({"players": 3}, 8, 9, False),
    ({"players": 3, "nine_card_trump": "turn_up"}, 8, 9, True),
    ({"players": 2, "nine_card_trump": "turn_up"}, 20, 9, True),
    ({"nine_card_trump": "no_trump"}, 8, 9, False),
])
def test_seeded_deal_uses_the_schedule(options, deal, cards, turned):
    state = seeded(options, deals_before=deal)
    n = state.n
    assert [len(h) for h in state.hands] == [cards] * n
    dealt = [c for h in state.dealt for c in h] + ([state.trump_card] if turned else [])
    assert not Counter(dealt) - Counter(joker_deck())  # no card twice, jokers at most two
    assert (state.trump_card is not None) == turned
    assert state.context.dealer == deal % n
    mode = options.get("nine_card_trump", "chooser") if cards == 9 else "turn_up"
    assert state.phase == ("trump" if mode == "chooser" else "bid")
    if mode == "no_trump":
        assert state.view(None)["trump"] == "NT"


def test_same_seed_same_deal_and_dealing_starts_left_of_the_dealer():
    a, b = seeded(seed="x"), seeded(seed="x")
    assert a.deal_record() == b.deal_record()
    pack = [str(c) for c in shuffled(joker_deck(), "x")]
    record = a.deal_record()
    assert record["hands"][1] == [pack[0]]  # dealer 0: seat 1 gets the first card
    assert record["trump_card"] == pack[4]


def test_turned_joker_means_no_trump():
    state = make_state(["AS", "KS", "QS", "JS"], trump_card="JK")
    assert state.view(None)["trump"] == "NT" and state.view(None)["trump_card"] == "JK"


def test_views_show_only_the_own_hand():
    state = make_state(["AS 7D", "KS 8D", "QS 9D", "JS 10D"], trump_card="QH", dealer=3)
    for seat in range(4):
        view = state.view(seat)
        assert view["hand"] == [str(c) for c in state.hands[seat]]
        others = {str(c) for s in range(4) if s != seat for c in state.hands[s]}
        assert not others & set(str(view).replace("'", " ").split())
    spectator = state.view(None)
    assert "hand" not in spectator and spectator["hand_counts"] == [2, 2, 2, 2]
    assert spectator["trump_card"] == "QH" and spectator["trump"] == "H"
    assert (spectator["deal"], spectator["pulka"], spectator["cards"]) == (1, 1, 2)


def test_view_of_a_trick_with_joker_declarations_and_last_trick():
    state = make_state(["JK 7D", "AS 8D", "QS 9D", "JK 10D"], trump_card="QH", dealer=3)
    run(state, ["bid:1", "bid:1", "bid:0", "bid:1"])
    assert state.view(None)["bids"] == [1, 1, 0, 1]
    run(state, ["play:JK:high:D", "play:8D"])
    view = state.view(2)
    assert view["trick"] == [{"seat": 0, "play": "JK", "joker": "high", "suit": "D"},
                             {"seat": 1, "play": "8D"}]
    assert view["leader"] == 0 and view["to_act"] == [2]
    events = run(state, ["play:9D", "play:JK:high"])
    assert [e.kind for e in events] == ["play", "play", "trick"]
    assert events[-1].seat == 3 and events[-1].data["winner"] == 3
    view = state.view(None)
    assert view["trick"] == [] and view["tricks"] == [0, 0, 0, 1]
    assert view["last_trick"]["plays"][3] == {"seat": 3, "play": "JK", "joker": "high"}


def test_deal_over_result_record_and_output():
    state = make_state(["AS", "KS", "QS", "JS"], trump_card="7D", dealer=0)
    with pytest.raises(WrongPhase):
        state.result()
    events = run(state, ["bid:1", "bid:0", "bid:0", "bid:1", "play:KS", "play:QS", "play:JS",
                         "play:AS"])
    assert events[-1].kind == "deal_over"
    assert state.finished and state.to_act == () and state.legal_actions(0) == []
    assert state.version == 8
    result = state.result()
    assert (result.bids, result.tricks, result.trump) == ((1, 1, 0, 0), (1, 0, 0, 0), "D")
    assert state.deal_record() == {"dealer": 0, "cards": 1, "hands": [["AS"], ["KS"], ["QS"],
                                   ["JS"]], "trump_card": "7D"}
    with pytest.raises(WrongPhase):
        state.apply(0, "play:AS")


def test_progress_of_an_unfinished_chooser_deal():
    state = seeded(deals_before=8)
    assert state.progress() == {"dealer": 0, "cards": 9, "trump": None,
                                "bids": [None] * 4, "tricks": [0] * 4, "points": [0] * 4,
                                "unfinished": True}
    state.apply(1, "trump:S")
    state.apply(1, "bid:2")
    assert state.progress()["bids"] == [None, 2, None, None]
    assert state.progress()["trump"] == "S"


def test_describe_and_controller():
    state = make_state(["AS", "KS", "QS", "JS"], trump_card="7D")
    assert state.describe("play:JK:high:H") == "🃏 high: wants ♥"
    assert state.describe("bid:2") == "bid 2"
    assert state.controller(2) == 2


RECORD_HANDS = [["AS"], ["KS"], ["QS"], ["JS"]]


@pytest.mark.parametrize(("deal", "reason"), [
    ({"dealer": 1, "hands": RECORD_HANDS, "trump_card": "7D"}, "dealer must be seat 0"),
    ({"dealer": 0, "cards": 2, "hands": RECORD_HANDS, "trump_card": "7D"}, "has 1 cards"),
    ({"dealer": 0, "hands": RECORD_HANDS[:3], "trump_card": "7D"}, "list of 4 hands"),
    ({"dealer": 0, "hands": [["AS", "KD"], *RECORD_HANDS[1:]], "trump_card": "7D"}, "1 cards"),
    ({"dealer": 0, "hands": RECORD_HANDS}, "turned trump_card"),
    ({"dealer": 0, "hands": [["AS"], ["AS"], ["QS"], ["JS"]], "trump_card": "7D"}, "2 times"),
    ({"dealer": 0, "hands": [["6S"], *RECORD_HANDS[1:]], "trump_card": "7D"}, "not in the Joker"),
    ({"dealer": 0, "hands": [["JK"], ["JK"], ["QS"], ["JS"]], "trump_card": "JK"}, "3 times"),
    ({"dealer": 0, "hands": RECORD_HANDS, "trump_card": "AS"}, "2 times"),
    ({"dealer": 0, "hands": RECORD_HANDS, "trump_card": "7D", "talon": []}, "unknown deal"),
])
def test_record_deal_is_checked(deal, reason):
    sheet = Scoresheet(Rules(), 0)
    with pytest.raises((RecordError, ValueError)) as err:
        State.new(Rules(), NAMES, sheet.next_context(), deal=deal)
    assert reason in str(err.value)


def test_chooser_deal_takes_no_trump_card():
    rules = Rules()
    hands = [[str(c) for c in joker_deck()[i::4]] for i in range(4)]
    deal = {"dealer": 0, "hands": hands, "trump_card": "AS"}
    with pytest.raises(RecordError, match="must be null"):
        State.new(rules, NAMES, context_at(rules, 8), deal=deal)
    state = State.new(rules, NAMES, context_at(rules, 8), deal={**deal, "trump_card": None})
    assert state.view(1)["hand"] == format_cards(sorted_hand(parse_cards(hands[1][:3])))


def test_first_dealer_by_tuzovanie_is_the_first_to_receive_an_ace():
    dealers = set()
    for seed in range(40):
        rng, copy = random.Random(seed), random.Random(seed)
        dealer = first_dealer(Rules(), 1, rng)
        pack = joker_deck()
        copy.shuffle(pack)
        first_ace = next(k for k, card in enumerate(pack) if card.rank == ACE)
        assert dealer == (1 + first_ace) % 4
        dealers.add(dealer)
    assert dealers == {0, 1, 2, 3}
