"""The Seep panel from views (no bot): the spec's bid move S11 as buttons and labels, houses
with value, owners and cement, the last capture while it may be inspected, capture totals
only with ``show_capture_totals``, two players, and every deal summary's figures."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.seep.panel import panel, step
from bot.games.seep.summary import deal_summary, history_line
from bot.games.seep.table import table_screen
from bot.ui.context import RenderContext
from bot.ui.i18n import translator
from bot.ui.screen import Screen
from engine.cards import format_cards, parse_cards
from engine.seep.pack import seep_deck
from engine.seep.policy import random_action
from engine.seep.result import DealContext
from engine.seep.rules import Rules
from engine.seep.state import State
from tests.seep.helpers import E, S, house, position

NAMES = ["Ann", "Bob", "Cid", "Dan"]
TABLE, VERSION = 7, 12


def context(rules: Rules, selection: frozenset[str] = frozenset()) -> RenderContext:
    return RenderContext(TABLE, NAMES[:rules.players], rules.to_dict(), 3, translator("en"),
                         VERSION, selection)


def s11(rules: Rules | None = None) -> State:
    """Spec S11: dealer S, bidder E holds KD 9C 5S 2H; the floor is 8D 3C 10H 6S."""
    rules = rules or Rules()
    first, floor = parse_cards("KD 9C 5S 2H"), parse_cards("8D 3C 10H 6S")
    rest = [c for c in seep_deck() if c not in first + floor]
    hands = [rest[0:12], first + rest[12:20], rest[20:32], rest[32:44]]
    deal = {"dealer": S, "bidder": E, "hands": [format_cards(h) for h in hands],
            "floor": format_cards(floor)}
    return State.new(rules, NAMES, DealContext(S), deal=deal)


def shown(state: State, seat: int, selection: frozenset[str] = frozenset()) -> Screen:
    return panel(state.view(seat), context(state.rules, selection))


def data(screen: Screen) -> list[str]:
    return [b.data for row in screen.rows for b in row if b.data]


def labels(screen: Screen) -> list[str]:
    return [b.text for row in screen.rows for b in row]


def test_the_bid_and_the_first_move_of_s11() -> None:
    state = s11()
    bid = shown(state, E)
    assert "Your hand</b>: K♦ 9♣ 5♠ 2♥" in bid.text
    assert "bid the value of a card you hold" in bid.text
    assert labels(bid) == ["Bid 9", "Bid 13"]
    assert data(bid) == [f"a:{TABLE}:{VERSION}:{E}:bid:9", f"a:{TABLE}:{VERSION}:{E}:bid:13"]
    assert "Your cards come once the bid is made." in shown(state, S).text
    assert "four cards face down" in table_screen(state.view(None), context(state.rules)).text

    state.apply(E, "bid:13")
    first = shown(state, E)
    assert "Floor: 10♥ 8♦ 6♠ 3♣" in first.text
    assert "Your first move</b> plays to your bid of 13" in first.text
    # 9♣ has no move on play #1; each other card has one, which its button names and plays
    assert labels(first) == ["K♦ · capture 10♥+3♣",
                             "5♠ · build house 13 with 8♦, absorbing 10♥+3♣",
                             "2♥ · build house 13 with 8♦+3♣"]
    assert all(d.startswith(f"a:{TABLE}:{VERSION}:{E}:") for d in data(first))
    moves = {card: labels(shown(state, E, frozenset({card}))) for card in ("KD", "5S", "2H")}
    assert moves == {"KD": ["capture 10♥+3♣", "« Back"],
                     "5S": ["build house 13 with 8♦, absorbing 10♥+3♣", "« Back"],
                     "2H": ["build house 13 with 8♦+3♣", "« Back"]}
    view = state.view(E)
    assert step(view, frozenset(), "5S").selection == {"5S"}
    assert step(view, frozenset({"5S"}), "back").selection == frozenset()
    for bad in ("9C", "AS", "nonsense"):
        try:
            step(view, frozenset(), bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_houses_last_capture_and_totals() -> None:
    state = s11(Rules(show_capture_totals=True))
    state.apply(E, "bid:13")
    state.apply(E, "build:5S:13:8D:absorb:10H+3C")
    waiting = shown(state, S).text  # a waiting panel shows the floor and the last capture
    assert "Floor: 6♠" in waiting and "🏠 House 13, cemented" in waiting
    assert waiting.endswith("Waiting for Ann to play.")
    seen = table_screen(state.view(None), context(state.rules)).text
    assert "🏠 House 13, cemented: 8♦+5♠ · 10♥+3♣ (Bob)" in seen
    assert "Floor: 6♠" in seen
    assert "Captured: Ann &amp; Cid 0 points in 0 cards" in seen
    hidden = s11()
    hidden.apply(E, "bid:13")
    hidden.apply(E, "cap:KD:10H+3C")
    seen = table_screen(hidden.view(None), context(hidden.rules)).text
    assert "Last capture: Bob took K♦ 10♥ 3♣" in seen
    assert "Captured:" not in seen  # the totals only with the option
    nxt = hidden.to_act[0]  # once the next player has played, the capture is out of sight
    legal = hidden.legal_actions(nxt)
    action = next((a for a in legal if not a.startswith("cap")), legal[0])
    hidden.apply(nxt, action)
    seen = table_screen(hidden.view(None), context(hidden.rules)).text
    assert (f"Last capture: {NAMES[nxt]} took" in seen if action.startswith("cap") else
            "Last capture" not in seen)


def test_an_ordinary_house_and_two_players() -> None:
    state = position("JH 4S", "2D", (house(11, "6D 5C", {S}),))
    seen = shown(state, S).text
    assert "🏠 House 11: 6♦+5♣ (Cid)" in seen
    assert shown(state, S, frozenset({"JH"})).rows[0][0].text == "capture house 11"
    two = position("9C", "", (), seat=0, rules=Rules(players=2), dealer=1)
    assert "<b>Seep</b> · deal 3 · Ann vs Bob" in shown(two, 0).text


def summary(output: dict[str, Any], rules: Rules) -> str:
    return deal_summary(output, {}, context(rules))


def test_deal_summaries_name_every_figure() -> None:
    rules = Rules()
    out = {"dealer": 2, "bidder": 1, "bid": 13, "card_points": [62, 38],
           "sweeps": [[1, 0, 0], [0, 1, 0]], "score": [112, 63], "lead": 49, "bazzi": None,
           "reason": None}
    text = summary(out, rules)
    assert "Cid dealt, Bob bid 13" in text
    assert "Ann &amp; Cid: 62 card points, 1 × sweep (+50) → <b>112</b>" in text
    assert "Bob &amp; Dan: 38 card points, first-play sweep (+25) → <b>63</b>" in text
    assert "Lead: Ann &amp; Cid +49" in text
    under = {**out, "card_points": [95, 5], "sweeps": [[0, 0, 0], [0, 0, 0]], "score": [95, 5],
             "lead": 0, "bazzi": "NS", "reason": "under9"}
    assert "A bazzi to Ann &amp; Cid: Bob &amp; Dan scored under 9." in summary(under, rules)
    bonus = {**out, "card_points": [60, 40], "sweeps": [[0, 0, 0], [0, 0, 0]],
             "score": [64, 40], "lead": 24}
    assert "60 card points, most cards (+4) → <b>64</b>" in summary(
        bonus, Rules(majority_bonus=4))
    redeal = {"dealer": 2, "bidder": 1, "bid": None}
    assert "Redeal: Bob's first four cards (7♠ 5♦ 3♣ 2♥) have no 9 or higher." in deal_summary(
        redeal, {"bidder_cards": ["7S", "5D", "3C", "2H"]}, context(rules))
    assert history_line(redeal, 4, NAMES, translator("en")) == "Deal 4: redeal"
    assert history_line(under, 5, NAMES, translator("en")) == (
        "Deal 5: Bob bid 13; Ann &amp; Cid 95, Bob &amp; Dan 5; lead level · "
        "🏆 bazzi to Ann &amp; Cid")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_every_button_of_a_random_deal_fits_in_64_bytes(seed: int) -> None:
    """Every panel of a random deal (each card tapped in turn), for a table id and a version
    as large as a busy bot reaches: the callback data stays within Telegram's 64 bytes."""
    rules = Rules(break_with_floor_cards=seed % 2 == 1, absorb_sets="optional")
    state = State.new(rules, NAMES, DealContext(seed % 4), seed=seed)
    rng = random.Random(seed)
    ctx = RenderContext(9_999_999, NAMES, rules.to_dict(), 999, translator("en"), 99_999)
    while not state.finished:
        seat = state.to_act[0]
        view = state.view(seat)
        for card in [None, *view["hand"]]:
            selection = frozenset() if card is None else frozenset({card})
            screen = panel(view, replace(ctx, selection=selection))
            assert all(len(d.encode()) <= 64 for d in data(screen)), data(screen)
        state.apply(seat, random_action(state, seat, rng))
