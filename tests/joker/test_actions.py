"""Action text, record form and labels (spec section 17)."""

from __future__ import annotations

import pytest

from engine.base import MalformedAction
from engine.joker.actions import decode_action, describe, encode_action, parse_action

# text form, record form, label
FORMS = [
    ("trump:H", {"trump": "H"}, "trump ♥"),
    ("trump:NT", {"trump": "NT"}, "no trump"),
    ("bid:0", {"bid": 0}, "pass (bid 0)"),
    ("bid:3", {"bid": 3}, "bid 3"),
    ("play:QH", {"play": "QH"}, "Q♥"),
    ("play:10S", {"play": "10S"}, "10♠"),
    ("play:JK:high:H", {"play": "JK", "joker": "high", "suit": "H"}, "🃏 high: wants ♥"),
    ("play:JK:low:C", {"play": "JK", "joker": "low", "suit": "C"}, "🃏 low: lets ♣ take"),
    ("play:JK:high", {"play": "JK", "joker": "high"}, "🃏 high: takes"),
    ("play:JK:low", {"play": "JK", "joker": "low"}, "🃏 low: under"),
    ("play:JK:face:6S", {"play": "JK", "joker": "face", "as": "6S"}, "🃏 as 6♠"),
    ("play:JK:face:6C", {"play": "JK", "joker": "face", "as": "6C"}, "🃏 as 6♣"),
]


@pytest.mark.parametrize(("text", "record", "label"), FORMS)
def test_forms(text, record, label):
    assert str(parse_action(text)) == text
    assert encode_action(2, text) == {"seat": 2, **record}
    assert decode_action({"seat": 2, **record}) == (2, text)
    assert describe(parse_action(text)) == label
    assert len(text.encode()) < 40


@pytest.mark.parametrize(("text", "canonical"), [
    ("PLAY:jk:HIGH:h", "play:JK:high:H"), ("play:th", "play:10H"), (" bid:07 ", "bid:7"),
    ("trump:nt", "trump:NT"), ("play:jk:face:6s", "play:JK:face:6S"),
])
def test_text_is_read_leniently_and_written_canonically(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize("text", [
    "", "bid", "bid:-1", "bid:x", "bid:1:2", "trump:X", "trump", "play:", "play:1S", "play:JK",
    "play:JK:up", "play:JK:high:X", "play:JK:face", "play:JK:face:7S", "play:JK:face:6H",
    "play:QH:high", "play:JK:high:H:H", "deal:1", 5, None,
])
def test_malformed_text(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


@pytest.mark.parametrize(("item", "reason"), [
    ({"bid": 1}, "seat"),
    ({"seat": "1", "bid": 1}, "seat"),
    ({"seat": 1}, "exactly one"),
    ({"seat": 1, "bid": 1, "trump": "H"}, "exactly one"),
    ({"seat": 1, "bid": True}, "whole number"),
    ({"seat": 1, "bid": -2}, "whole number"),
    ({"seat": 1, "bid": "2"}, "whole number"),
    ({"seat": 1, "bid": 1, "suit": "H"}, "unknown field"),
    ({"seat": 1, "play": "QH", "comment": "x"}, "unknown field"),
    ({"seat": 1, "play": "JK"}, "declaration"),
    ({"seat": 1, "play": "QH", "suit": "H"}, "belong to a joker"),
    ({"seat": 1, "play": "QH", "joker": "high"}, "only a joker"),
    ({"seat": 1, "play": "JK", "joker": "high", "as": "6S"}, "as goes with joker face"),
    ({"seat": 1, "play": "JK", "joker": "face", "suit": "S"}, "names its six with as"),
    ({"seat": 1, "play": "JK", "joker": "face"}, "6S or the 6C"),
    ({"seat": 1, "play": "JK", "joker": 1}, "high, low or face"),
    ({"seat": 1, "play": "JK", "joker": "low", "suit": 3}, "must be a string"),
    ({"seat": 1, "play": 7}, "must be a string"),
    ({"seat": 1, "trump": "X"}, "not a suit"),
    ({"seat": 1, "play": "JK:high:H"}, "separate fields"),
])
def test_malformed_records(item, reason):
    with pytest.raises(MalformedAction) as err:
        decode_action(item)
    assert reason in str(err.value)
