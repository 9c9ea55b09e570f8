"""Undo and edit rebuild the sheet from the entries, exactly; a refused edit changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import IllegalAction
from engine.manual import add_entry, edit, form_at, form_for, undo
from engine.match import Match
from tests.manual.helpers import A, match, random_entry, random_game


def built(template: Match, entries: list[Any]) -> Match:
    """The same game entered deal by deal from scratch, as if nothing had been corrected."""
    m = Match(template.spec, template.rules, template.players, template.first_dealer)
    for entry in entries:
        add_entry(m, entry)
    return m


def snapshot(m: Match) -> tuple[Any, ...]:
    return m.report(), m.record(), m.version


def built_from_texts(template: Match, texts: list[str]) -> Match:
    m = Match(template.spec, template.rules, template.players, template.first_dealer)
    for text in texts:
        add_entry(m, form_for(m).parse(text))
    return m


def test_undo_removes_the_last_deal() -> None:
    texts = ["raspasy Bob 2 Cid 3 Ann 5", "7S Cid 7; Ann whist 3; Bob pass",
             "miser Ann 1", "8H Bob 8; Cid whist 1; Ann whist 1"]
    m = built_from_texts(match("preferans", variant="leningrad", first_dealer=A), texts)
    before = snapshot(m)
    shorter = undo(m)
    assert snapshot(m) == before  # the match given is not changed
    expected = built_from_texts(m, texts[:3])
    assert snapshot(shorter)[:2] == snapshot(expected)[:2]
    assert shorter.sheet.next_context() == expected.sheet.next_context()
    assert undo(undo(undo(shorter))).deals == []
    with pytest.raises(IllegalAction, match="no deal has been entered yet"):
        undo(undo(undo(undo(shorter))))


def test_edit_rescores_every_later_deal() -> None:
    """Deal 1 was a game, not raspasy: deals 2-3 now fall in states 1 and 2, not 2 and 3."""
    texts = ["raspasy Bob 2 Cid 3 Ann 5", "raspasy Cid 2 Ann 3 Bob 5",
             "raspasy Ann 2 Bob 3 Cid 5", "7S Bob 7; Cid whist 2; Ann whist 1"]
    m = built_from_texts(match("preferans", variant="leningrad", first_dealer=A), texts)
    assert [out["entries"]["mountain"] for out in m.outputs[:3]] == [
        [6, 0, 2], [4, 12, 0], [0, 6, 18]]  # r = 2, 4, 6
    form = form_at(m, 1)
    assert form.context.raspasy_state == 1 and form.dealer == A
    fixed = edit(m, 1, form.parse("6S Bob 6; Cid whist 2; Ann whist 2"))
    expected = built_from_texts(m, ["6S Bob 6; Cid whist 2; Ann whist 2", *texts[1:]])
    assert snapshot(fixed)[:2] == snapshot(expected)[:2]
    assert [out["entries"]["mountain"] for out in fixed.outputs[1:3]] == [[2, 6, 0], [0, 4, 12]]
    assert m.outputs[0]["kind"] == "raspasy"  # the match given is not changed


def test_an_edit_that_breaks_a_later_deal_is_refused() -> None:
    """Deal 1 becomes raspasy: deal 2, a 6♠, is then below state 2's opening bid 7♠."""
    texts = ["6S Bob 6; Cid whist 2; Ann whist 2", "6S Cid 6; Ann whist 2; Bob whist 2"]
    m = built_from_texts(match("preferans", variant="leningrad", first_dealer=A), texts)
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="deal 2: the contract cannot be below 7♠"):
        edit(m, 1, form_at(m, 1).parse("raspasy Bob 2 Cid 3 Ann 5"))
    with pytest.raises(IllegalAction, match="not entered completely: what was played"):
        edit(m, 2, form_at(m, 2).empty())
    with pytest.raises(IllegalAction, match="there is no deal 3: deals are 1 to 2"):
        form_at(m, 3)
    assert snapshot(m) == before


GAMES = [
    ("preferans", {"variant": "sochi", "pool": 6}),
    ("preferans", {"variant": "leningrad", "players": 4, "pool": 8, "walkaway": "no_whists"}),
    ("preferans", {"variant": "rostov", "pool": 6}),
    ("preferans", {"variant": "sochi", "sochi_progression": True, "peter_third_state": "hard"}),
    ("joker", {}),
    ("joker", {"players": 3, "pass_limit": 2}),
    ("seep", {"bazzis": 2}),
    ("seep", {"players": 2, "majority_bonus": 4, "sweep_cancel": True}),
]


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**9), deals=st.integers(1, 14),
       data=st.data())
def test_undo_and_edit_equal_entering_from_scratch(game: tuple[str, dict[str, Any]], seed: int,
                                                   deals: int, data: st.DataObject) -> None:
    name, rules = game
    rng = random.Random(seed)
    m = match(name, first_dealer=rng.randrange(2), **rules)
    entries = random_game(m, deals, rng)
    before = snapshot(m)
    assert snapshot(undo(m))[:2] == snapshot(built(m, entries[:-1]))[:2]
    number = data.draw(st.integers(1, len(entries)))
    correction = random_entry(form_at(m, number), rng)
    corrected = [*entries[:number - 1], correction, *entries[number:]]
    try:
        expected = built(m, corrected)
    except IllegalAction:  # the correction changed a later deal's context: refused either way
        with pytest.raises(IllegalAction, match=r"^deal \d+: "):
            edit(m, number, correction)
    else:
        fixed = edit(m, number, correction)
        assert snapshot(fixed)[:2] == snapshot(expected)[:2]
        assert sum(fixed.report()["settlement"]) == pytest.approx(0, abs=0.05)  # rounded
    assert snapshot(m) == before
