"""Spec section 14, E1-E20 and E23, entered by buttons and by the text form.

Both ways must give the same entry and the spec's entries, exactly. Seats:
A B C (dealer C) with 3 players; A B C D (dealer D) with 4; A declares unless
the example says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.manual import add_entry, form_for
from tests.manual.helpers import A, B, C, D, by_buttons, match
from tests.preferans_scoring.helpers import entries

# id, rules, buttons (every step, optional open included where the spec says it), text, entries
EXAMPLES: list[tuple[str, dict[str, Any], list[Any], str, dict[str, list]]] = [
    ("E1", {"variant": "sochi"}, ["game", A, "6S", "whist", "whist", 0, 2, 2],
     "6S Ann 6; Bob whist 2; Cid whist 2",
     entries(pool={A: 2}, whists={(B, A): 4, (C, A): 4})),
    ("E2", {"variant": "sochi"}, ["game", A, "7H", "whist", "pass", 0, 6],
     "7H Ann down 1; Bob whist; Cid pass",
     entries(mountain={A: 4}, whists={(B, A): 20})),
    ("E3", {"variant": "leningrad"}, ["game", A, "7H", "whist", "pass", 6],
     "7H Ann 6; Bob whist 3; Cid pass 1",
     entries(mountain={A: 8}, whists={(B, A): 24, (C, A): 16})),
    ("E4", {"variant": "leningrad"},
     ["game", A, "7H", "pass", "halfwhist", "whist", "pass", 6, False],
     "7H Ann 6; Bob whist 3; Cid halfwhist; closed",
     entries(mountain={A: 8}, whists={(B, A): 40})),
    ("E5", {"variant": "sochi"}, ["game", A, "6D", "whist", "whist", 0, 2, 1],
     "6d ann 7; bob whist 2; cid whist 1",
     entries(pool={A: 2}, mountain={C: 2}, whists={(B, A): 4, (C, A): 2})),
    ("E5 own_half", {"variant": "sochi"}, ["game", A, "6D", "whist", "whist", 0, 3, 0],
     "6♦ Ann made; Bob whist 3; Cid whist 0",
     entries(pool={A: 2}, mountain={C: 4}, whists={(B, A): 6})),
    ("E5 capped", {"variant": "sochi", "both_whist_shortfall": "capped"},
     ["game", A, "6D", "whist", "whist", 0, 3, 0], "6D Ann 7; Bob whist 3; Cid whist",
     entries(pool={A: 2}, mountain={C: 2}, whists={(B, A): 6})),
    ("E6", {"variant": "leningrad"}, ["game", A, "8C", "whist", "whist", 0, 0],
     "8C Ann made; Bob whist 0; Cid whist 0",
     entries(pool={A: 6}, mountain={C: 6})),
    ("E7", {"variant": "sochi"}, ["game", A, "9NT", "whist", "pass", 0, 10, True],
     "9NT Ann 10; Bob whist open; Cid pass",
     entries(pool={A: 8}, mountain={B: 8})),
    ("E8 Sochi", {"variant": "sochi"}, ["game", A, "6H", "pass", "halfwhist", "pass", 0],
     "6H Ann; Bob pass; Cid halfwhist",
     entries(pool={A: 2}, whists={(C, A): 4})),
    ("E8 Peter", {"variant": "leningrad"}, ["game", A, "7S", "pass", "halfwhist", "pass"],
     "7S Ann made; Bob pass; Cid halfwhist",
     entries(pool={A: 4}, whists={(C, A): 8})),
    ("E8 both pass", {"variant": "sochi"}, ["game", A, "8S", "pass", "pass", 0],
     "8S Ann; Bob pass; Cid pass", entries(pool={A: 6})),
    ("E9 two", {"variant": "sochi"}, ["miser", A, "miser", 2], "miser Ann 2",
     entries(mountain={A: 20})),
    ("E9 clean", {"variant": "sochi"}, ["miser", A, "miser", 0], "мизер Ann чисто",
     entries(pool={A: 10})),
    ("E9 Peter", {"variant": "leningrad"}, ["miser", A, "miser", 1], "miser Ann без одной",
     entries(mountain={A: 20})),
    ("E10", {"variant": "sochi", "players": 4}, ["game", A, "6S", "whist", "whist", 0, 3, 3],
     "6S Ann 4; Bob whist 3; Cid whist 3",
     entries(4, mountain={A: 4}, whists={(B, A): 10, (C, A): 10, (D, A): 4})),
    ("E11", {"variant": "leningrad", "players": 4},
     ["game", B, "8D", "pass", "whist", 6, False], "8D Bob 6; Cid pass; Ann whist; closed",
     entries(4, mountain={B: 24}, whists={(A, B): 48, (C, B): 24, (D, B): 24})),
    ("E12", {"variant": "rostov"}, ["game", A, "6C", "whist", "pass", 5],
     "6C Ann down 1; Bob whist 4; Cid pass 1",
     entries(mountain={A: 2}, whists={(B, A): 12, (C, A): 2})),
    ("E12 failed whist", {"variant": "rostov"}, ["game", A, "8H", "whist", "whist", 0, 0],
     "8H Ann 10; Bob whist 0; Cid whist 0", entries(pool={A: 6}, mountain={C: 3})),
    ("E13 4p", {"variant": "sochi", "players": 4},
     ["game", A, "7D", "whist", "pass", 2, 7, True],
     "7D Ann 7; Bob whist 2 open; Cid pass 1; talon AH KH",
     entries(4, pool={A: 4}, whists={(B, A): 12, (D, A): 8})),
    ("E13 3p", {"variant": "sochi"}, ["game", A, "6S", "whist", "whist", 3, 3, 1],
     "6S Ann 6; Bob whist 3; Cid whist 1; прикуп AS AD",
     entries(pool={A: 2}, whists={(B, A): 9, (C, A): 5})),
    ("E14", {"variant": "sochi", "players": 4}, ["raspasy", 2, 1, 5, 2],
     "raspasy Ann 2 Bob 1 Cid 5 Dan 2", entries(4, mountain={A: 1, C: 4, D: 1})),
    ("E15", {"variant": "sochi"}, ["raspasy", 0, 4, 6], "распасы Ann 0 Bob 4 Cid 6",
     entries(mountain={A: -1, B: 4, C: 6})),
    ("E15 pool", {"variant": "sochi", "zero_trick_reward": "pool"}, ["raspasy", 0, 4, 6],
     "raspasy Ann 0, Bob 4, Cid 6", entries(pool={A: 1}, mountain={B: 4, C: 6})),
    ("E17", {"variant": "leningrad", "players": 4}, ["raspasy", 1, 4, 5, 0],
     "raspasy Ann 1 Bob 4 Cid 5", entries(4, mountain={A: 2, B: 8, C: 10})),
    ("E18 a", {"variant": "rostov"}, ["raspasy", 1, 3, 6], "raspasy #1 1 #2 3 #3 6",
     entries(whists={(A, B): 15, (A, C): 30})),
    ("E18 b", {"variant": "rostov"}, ["raspasy", 2, 2, 6], "raspasy Ann 2 Bob 2",
     entries(whists={(A, C): 15, (B, C): 15})),
    ("E18 c", {"variant": "rostov"}, ["raspasy", 0, 5, 5], "raspasy an 0 bo 5 ci 5",
     entries(pool={A: 1}, whists={(A, B): 25, (A, C): 25})),
    ("E18 d", {"variant": "rostov", "players": 4}, ["raspasy", 1, 3, 6],
     "raspasy Ann 1 Bob 3 Cid 6",
     entries(4, pool={D: 1}, whists={(A, B): 15, (A, C): 30})),
    ("E19 Sochi", {"variant": "sochi", "walkaway": "no_whists"}, ["walkaway", A, "7S"],
     "walkaway 7S Ann", entries(mountain={A: 12})),
    ("E19 Peter", {"variant": "leningrad", "walkaway": "no_whists"}, ["walkaway", A, "7S"],
     "Ann уход 7S", entries(mountain={A: 24})),
    ("E20 down", {"variant": "leningrad"}, ["game", A, "10NT", 9], "10NT Ann 9",
     entries(mountain={A: 20}, whists={(B, A): 20, (C, A): 20})),
    ("E20 made", {"variant": "leningrad"}, ["game", A, "10NT", 10], "10NT Ann made",
     entries(pool={A: 10})),
]


@pytest.mark.parametrize(("rules", "buttons", "text", "expected"),
                         [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_example_by_buttons_and_text(rules: dict[str, Any], buttons: list[Any], text: str,
                                     expected: dict[str, list]) -> None:
    m = match("preferans", **rules)
    form = form_for(m)
    entry = by_buttons(form, buttons)
    typed = form.parse(text)
    assert typed == entry
    output = add_entry(m, entry)[0].data["output"]
    assert output["entries"] == expected


def test_e16_peter_raspasy_in_state_2() -> None:
    m = match("preferans", first_dealer=B, variant="leningrad")
    form = form_for(m)
    add_entry(m, form.parse("raspasy Ann 2 Bob 3 Cid 5"))
    form = form_for(m)
    assert (form.context.dealer, form.context.raspasy_state, form.context.min_bid) == (C, 2, "7S")
    entry = by_buttons(form, ["raspasy", 0, 3, 7])
    assert form.parse("raspasy Ann 0 Bob 3 Cid 7") == entry
    assert add_entry(m, entry)[0].data["output"]["entries"] == entries(
        mountain={A: -8, B: 12, C: 28})
    assert m.sheet.state == 3


def test_e23_peter_states_sequence() -> None:
    """Each deal's state and opening bid, as the spec's table; the contracts respect them."""
    m = match("preferans", first_dealer=A, variant="leningrad")
    deals = [  # text, state and opening bid of the deal, its mountain or pool for the declarer
        ("raspasy Bob 2 Cid 3 Ann 5", 1, "6S"),
        ("raspasy Bob 2 Cid 3 Ann 5", 2, "7S"),
        ("raspasy Bob 2 Cid 3 Ann 5", 3, "7S"),
        ("8S Ann; Bob pass; Cid pass", 3, "7S"),
        ("miser Ann 0", 3, "7S"),
        ("7H Ann 5; Bob whist 3; Cid whist 2", 3, "7S"),
        ("7C Ann 7; Bob whist 2; Cid pass", 3, "7S"),
        ("6S Ann 6; Bob whist 2; Cid whist 2", 1, "6S"),
    ]
    for text, state, opening in deals:
        form = form_for(m)
        assert (form.context.raspasy_state, form.context.min_bid) == (state, opening), text
        add_entry(m, form.parse(text))
    pool = [out["entries"]["pool"][A] for out in m.outputs]
    assert pool[3:5] == [6, 10] and pool[6] == 4 and m.outputs[5]["entries"]["mountain"][A] == 16


def test_e23_hard_third_state_opens_at_eight() -> None:
    m = match("preferans", first_dealer=A, variant="leningrad", peter_third_state="hard")
    for _ in range(2):
        add_entry(m, form_for(m).parse("raspasy Bob 2 Cid 3 Ann 5"))
    form = form_for(m)
    assert form.context.min_bid == "8S"
    assert form.next_step(form.choose(form.choose(form.empty(), "game"), A)).choices[0] == "8S"
    add_entry(m, form.parse("raspasy Bob 2 Cid 3 Ann 5"))
    assert m.outputs[-1]["entries"]["mountain"] == [24, 0, 8]  # r = 8, amnesty over 2
