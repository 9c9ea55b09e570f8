"""Properties over random entries: every button path reads back through records and text."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import ActionError
from engine.manual import add_entry, form_for
from tests.manual.helpers import match, random_entry, random_game

PREFERANS = [
    {"variant": "sochi"},
    {"variant": "sochi", "players": 4, "sochi_progression": True},
    {"variant": "leningrad", "players": 4, "walkaway": "with_consolation"},
    {"variant": "leningrad", "peter_third_state": "hard"},
    {"variant": "rostov", "stalingrad": True},
]
GAMES = [*(("preferans", r) for r in PREFERANS), ("joker", {}), ("joker", {"players": 2}),
         ("seep", {}), ("seep", {"players": 2, "majority_bonus": 4})]


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(PREFERANS), seed=st.integers(0, 10**9))
def test_preferans_text_form_reads_back_any_entry(rules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    m = match("preferans", first_dealer=rng.randrange(3), **rules)
    random_game(m, rng.randrange(6), rng)
    form = form_for(m)
    entry = random_entry(form, rng)
    assert form.parse(form.to_text(entry)) == entry


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**9))
def test_record_form_reads_back_and_scores_the_same(game: tuple[str, dict[str, Any]],
                                                     seed: int) -> None:
    name, rules = game
    rng = random.Random(seed)
    m = match(name, first_dealer=rng.randrange(2), **rules)
    random_game(m, rng.randrange(8), rng)
    if m.over:
        return
    form = form_for(m)
    entry = random_entry(form, rng)
    assert form.from_dict(form.to_dict(entry)) == entry
    assert form.result(form.from_dict(form.to_dict(entry))) == form.result(entry)
    add_entry(m, entry)
    assert m.deals[-1]["entry"] == form.to_dict(entry)


WORDS = ["7H", "6S", "10NT", "8♦", "miser", "raspasy", "walkaway", "Ann", "Bob", "Cid", "Dan",
         "#1", "#5", "whist", "pass", "halfwhist", "made", "down", "-2", "0", "3", "10", "11",
         "open", "closed", "talon", "AS", "KS", ";", ",", "без", "двух", "вист", "x", "an"]


@settings(max_examples=200, deadline=None)
@given(rules=st.sampled_from(PREFERANS), words=st.lists(st.sampled_from(WORDS), max_size=12))
def test_any_text_gives_an_entry_or_a_reason(rules: dict[str, Any], words: list[str]) -> None:
    form = form_for(match("preferans", **rules))
    try:
        entry = form.parse(" ".join(words))
    except ActionError as exc:
        assert exc.message
    else:
        assert form.parse(form.to_text(entry)) == entry
