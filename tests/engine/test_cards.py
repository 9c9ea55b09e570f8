from collections import Counter

import pytest

from engine.cards import (
    JOKER,
    Card,
    CardError,
    Suit,
    parse_card,
    parse_cards,
    parse_written_card,
    shuffled,
)
from engine.joker.pack import joker_deck
from engine.preferans.pack import preferans_deck
from engine.seep.pack import seep_deck


@pytest.mark.parametrize(
    ("text", "canonical", "shown"),
    [("7S", "7S", "7♠"), ("10h", "10H", "10♥"), ("th", "10H", "10♥"), ("qd", "QD", "Q♦"),
     ("Ac", "AC", "A♣"), ("2s", "2S", "2♠"), ("jk", "JK", "🃏"), (" KD ", "KD", "K♦")],
)
def test_parse_format_display(text: str, canonical: str, shown: str) -> None:
    card = parse_card(text)
    assert str(card) == canonical
    assert card.display == shown
    assert parse_card(canonical) == card


@pytest.mark.parametrize("bad", ["", "7", "1S", "11H", "7X", "ZZ", "10", "JKK", "S7", "0S"])
def test_bad_cards_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(bad)
    assert str(err.value)


def test_non_string_card() -> None:
    with pytest.raises(CardError):
        parse_card(7)  # type: ignore[arg-type]


def test_parse_cards_list_and_string() -> None:
    assert parse_cards("7S, 10h qd") == [Card(7, Suit.S), Card(10, Suit.H), Card(12, Suit.D)]
    assert parse_cards(["as", "JK"]) == [Card(14, Suit.S), JOKER]
    assert [c.display for c in parse_cards("AS KH")] == ["A♠", "K♥"]


def test_decks() -> None:
    pref = preferans_deck()
    assert len(pref) == len(set(pref)) == 32
    assert {c.rank for c in pref} == {7, 8, 9, 10, 11, 12, 13, 14}
    jok = joker_deck()
    assert len(jok) == 36
    assert Counter(jok)[JOKER] == 2
    assert Card(6, Suit.S) not in jok and Card(6, Suit.C) not in jok
    assert Card(6, Suit.H) in jok and Card(6, Suit.D) in jok
    seep = seep_deck()
    assert len(seep) == len(set(seep)) == 52


def test_shuffle_is_reproducible() -> None:
    assert shuffled(preferans_deck(), 5) == shuffled(preferans_deck(), 5)
    assert shuffled(preferans_deck(), 5) != shuffled(preferans_deck(), 6)
    assert sorted(map(str, shuffled(preferans_deck(), 5))) == sorted(map(str, preferans_deck()))


def test_suit_order_for_bidding() -> None:
    assert Suit.S < Suit.C < Suit.D < Suit.H


def test_cards_written_by_hand_in_russian_letters() -> None:
    assert [str(parse_written_card(w)) for w in ("тч", "Т♥", "кп", "дб", "вт", "10б", "AH")] == \
        ["AH", "AH", "KS", "QD", "JC", "10D", "AH"]
    with pytest.raises(CardError):
        parse_written_card("жч")
