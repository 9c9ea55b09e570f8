"""Joker and Seep entered by hand: the specs' worked examples, the choices, refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.base import ActionError, IllegalAction
from engine.manual import add_entry, form_for
from engine.match import Match
from tests.manual.helpers import A, B, C, D, by_buttons, enter, match, random_game

N, E, S, W = 0, 1, 2, 3  # Seep seats

# Joker spec 18.5, deals 9-12: dealer, trump (the chooser's, not given by the spec),
# bids in bidding order, tricks A B C D, points A B C D.
PULKA_2 = [
    (A, "H", [2, 3, 1, 2], [3, 2, 3, 1], [30, 150, 200, 100]),
    (B, "S", [4, 0, 3, 1], [5, 0, 4, 0], [50, -200, 250, 50]),
    (C, "NT", [1, 0, 2, 5], [1, 2, 5, 1], [10, 150, 300, 100]),
    (D, "D", [2, 3, 2, 0], [2, 3, 2, 2], [150, 200, 150, 20]),
]


def joker_at_pulka_2(**options: Any) -> Match:
    """A Joker game whose first pulka (deals 1-8) is entered, first dealer A."""
    m = match("joker", first_dealer=A, **options)
    random_game(m, 8, random.Random(18))
    return m


def enter_pulka_2(m: Match) -> list[list[int]]:
    """Deals 9-12 by buttons, each dealt by the spec's dealer; their points."""
    points = []
    for dealer, trump, bids, tricks, _ in PULKA_2:
        form = form_for(m)
        assert (form.dealer, form.cards, form.context.trump_mode) == (dealer, 9, "chooser")
        order = [(dealer + i) % 4 for i in range(1, 5)]
        points.append(enter(m, [trump, *bids, *(tricks[s] for s in order)])["points"])
    return points


@pytest.mark.parametrize(("options", "totals"), [
    ({}, [90, 100, 1200, 170]),
    ({"premium_excludes_last_deal": True}, [190, 150, 1200, 170]),
    ({"khishti": "per_pulka"}, [90, -200, 1200, 170]),
    ({"premium_penalty_basis": "exact_only"}, [90, 100, 1200, 170]),
])
def test_joker_pulka_with_premium_entered_by_hand(options: dict[str, Any],
                                                  totals: list[int]) -> None:
    m = joker_at_pulka_2(**options)
    points = enter_pulka_2(m)
    pulka = m.report()["pulkas"][1]
    assert pulka["totals"] == totals
    if not options:
        assert points == [deal[-1] for deal in PULKA_2]
        assert pulka["sums"] == [240, 300, 900, 270]
        assert pulka["premium"] == [-150, -200, 300, -100]


def test_joker_dealer_restriction_and_counts() -> None:
    m = joker_at_pulka_2()
    form = form_for(m)
    entry = form.choose(form.empty(), "h")
    assert form.next_step(entry).choices == tuple(range(10))
    for bid in (2, 3, 1):  # B, C, D
        entry = form.choose(entry, bid)
    step = form.next_step(entry)
    assert (step.name, step.seat, step.choices) == ("bid", A, (0, 1, 2, 4, 5, 6, 7, 8, 9))
    with pytest.raises(IllegalAction, match="Ann: the dealer may not bid 3: the bids would add "
                                            "up to 9"):
        form.choose(entry, 3)
    with pytest.raises(IllegalAction, match="Ann: a bid is 0 to 9 tricks in this deal"):
        form.choose(entry, 10)
    entry = form.choose(entry, 2)
    for taken in (3, 2, 3):
        entry = form.choose(entry, taken)
    assert form.next_step(entry).choices == (1,)  # A's tricks: the rest of the 9
    with pytest.raises(IllegalAction, match="Ann cannot have taken 2 tricks here: 1-1"):
        form.choose(entry, 2)
    before = m.report(), m.record()
    with pytest.raises(ActionError, match=r"not entered completely: Ann's tricks\?"):
        add_entry(m, entry)
    with pytest.raises(ActionError, match="the tricks add up to 9"):
        form.from_dict({"trump": "H", "bids": [2, 2, 3, 1], "tricks": [1, 3, 3, 3]})
    assert (m.report(), m.record()) == before


def test_joker_no_trump_deals_and_pass_limit() -> None:
    m = match("joker", first_dealer=A, schedule="nines", nine_card_trump="no_trump",
              pass_limit=1)
    form = form_for(m)
    assert form.next_step(form.empty()).choices == ("NT",)
    enter(m, ["NT", 0, 2, 2, 2, 3, 2, 2, 2])  # B passes: his one pass of the game
    form = form_for(m)
    entry = form.choose(form.empty(), "NT")
    entry = form.choose(entry, 1)  # C
    entry = form.choose(entry, 1)  # D
    assert 0 in form.next_step(entry).choices  # A has not passed yet
    entry = form.choose(entry, 0)
    step = form.next_step(entry)
    assert step.seat == B and 0 not in step.choices
    with pytest.raises(IllegalAction, match="Bob: you have used all 1 passes of this game"):
        form.choose(entry, 0)


# Seep spec 16.3, bazzis = 3, first dealer S: bid (informational), NS and EW card
# points, the bidder's first-play sweep, the dealer's last-play sweep, NS and EW
# other sweeps; then the output's dealer, score, lead and bazzi.
LEDGER = [
    ([13, 62, 38, 1, 0, 1, 0], S, [112, 63], 49, None),
    ([10, 30, 70, 0, 1, 0, 1], E, [30, 120], -41, None),
    ([12, 88, 12, 0, 0, 2, 0], N, [188, 12], 0, "NS"),
    ([9, 95, 5, 0, 0, 0, 0], E, [95, 5], 0, "NS"),
    ([11, 3, 97, 0, 0, 1, 0], W, [53, 97], -44, None),
    ([13, 60, 40, 0, 0, 0, 0], S, [60, 40], -24, None),
]


def test_seep_bazzi_ledger_entered_by_hand() -> None:
    m = match("seep", first_dealer=S, bazzis=3)
    for answers, dealer, score, lead, bazzi in LEDGER:
        assert form_for(m).dealer == dealer
        out = enter(m, answers)
        assert (out["score"], out["lead"], out["bazzi"]) == (score, lead, bazzi)
    assert form_for(m).dealer == S
    report = m.report()
    assert report["sheet"]["bazzis"] == [2, 0] and report["settlement"] == [2, -2, 2, -2]
    assert m.outputs[0]["sweeps"] == [[1, 0, 0], [0, 1, 0]]  # EW's bidder E swept on play 1
    assert m.outputs[1]["sweeps"] == [[0, 0, 0], [1, 0, 1]]  # EW's dealer E on play 48


def test_seep_under_nine_on_card_points() -> None:
    m = match("seep", first_dealer=S, bazzis=3, under_nine_counts="cards")
    for answers, *_ in LEDGER[:4]:
        enter(m, answers)
    out = enter(m, LEDGER[4][0])
    assert (out["bazzi"], out["reason"]) == ("EW", "under9")


def seep_step(rules: dict[str, Any], answers: list[Any]) -> Any:
    form = form_for(match("seep", first_dealer=S, **rules))
    entry = form.empty()
    for value in answers:
        entry = form.choose(entry, value)
    return form, entry, form.next_step(entry)


def test_seep_steps_and_limits() -> None:
    form, entry, step = seep_step({}, [])
    assert (step.name, step.seat, step.choices) == ("bid", E, (9, 10, 11, 12, 13))
    form, entry, step = seep_step({}, [13, 62])
    assert (step.name, step.seat, step.choices) == ("points", 1, (38,))
    with pytest.raises(IllegalAction, match="EW's card points: 40 is not possible, 38-38"):
        form.choose(entry, 40)
    form, entry, step = seep_step({"ten_of_diamonds_points": 2}, [13])
    assert step.choices == tuple(range(97))
    form, entry, step = seep_step({}, [13, 62, 38])
    assert (step.name, step.seat, step.choices) == ("first_sweep", E, (0, 1))
    form, entry, step = seep_step({}, [13, 62, 38, 1, 1])
    assert (step.name, step.seat, step.choices) == ("sweeps", 0, tuple(range(23)))
    with pytest.raises(IllegalAction, match="NS cannot have 23 more sweeps: 0-22"):
        form.choose(entry, 23)
    form, entry, step = seep_step({}, [13, 62, 38, 0, 0, 20])
    assert step.choices == (0, 1, 2, 3)  # no two plays in a row sweep: 23 in plays 2-47
    form, entry, step = seep_step({"sweep_cancel": True}, [13, 62, 38, 1, 0, 2])
    assert step.choices == (0, 1)  # EW (the bidder's team) holds its first-play sweep
    form, entry, step = seep_step({"majority_bonus": 4}, [13, 62, 38])
    assert (step.name, step.choices) == ("cards", tuple(range(1, 52)))
    form, entry, step = seep_step({}, [])
    with pytest.raises(IllegalAction, match="a bid is 9 to 13, not 8"):
        form.choose(entry, 8)


def test_seep_bad_records_change_nothing() -> None:
    m = match("seep", first_dealer=S, bazzis=3)
    enter(m, LEDGER[0][0])
    before = m.report(), m.record()
    form = form_for(m)
    with pytest.raises(IllegalAction, match=r"NS's card points\?"):
        form.from_dict({"bid": 10})
    with pytest.raises(IllegalAction, match="EW's card points: 71 is not possible"):
        form.from_dict({"bid": 10, "card_points": [30, 71], "first_sweep": 0, "last_sweep": 0,
                        "sweeps": [0, 0]})
    with pytest.raises(IllegalAction, match="first sweep is 0 or 1"):
        form.from_dict({"bid": 10, "card_points": [30, 70], "first_sweep": 2, "last_sweep": 0,
                        "sweeps": [0, 0]})
    entry = by_buttons(form, [10, 30, 70, 0, 1, 0, 1])
    assert form.from_dict(form.to_dict(entry)) == entry
    assert (m.report(), m.record()) == before
