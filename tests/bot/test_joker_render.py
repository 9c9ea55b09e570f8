"""The Joker panel from views (no bot): the spec's dealer restriction (18.2) as the dealer's
buttons and the line everyone reads, the trump lines, the joker's declarations, three
players; deal summaries with khishti, the pulka's end with its premium (18.5)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.joker.panel import panel, step
from bot.games.joker.summary import after_deal, deal_summary, history_line, score_text
from bot.games.joker.table import table_screen
from bot.ui.context import RenderContext
from bot.ui.i18n import translator
from bot.ui.screen import Screen
from engine.cards import JOKER, Card, Suit
from engine.joker import SPEC
from engine.joker.policy import random_action
from engine.joker.result import DealContext, DealResult
from engine.joker.rules import Rules
from engine.joker.state import State
from engine.match import Match

NAMES = ["Ann", "Bob", "Cid", "Dan"]


def context(rules: Rules, selection: frozenset[str] = frozenset()) -> RenderContext:
    return RenderContext(3, NAMES[:rules.players], rules.to_dict(), 5, translator("en"), 9,
                         selection)


def deal(cards: int, *, players: int = 4, dealer: int = 0, seed: int = 1,
         mode: str = "turn_up") -> State:
    rules = Rules(players=players)
    ctx = DealContext(5, 1, cards, dealer, mode, (0,) * players)
    return State.new(rules, NAMES[:players], ctx, seed=seed)


def shown(state: State, seat: int, selection: frozenset[str] = frozenset()) -> Screen:
    return panel(state.view(seat), context(state.rules, selection))


def labels(screen: Screen) -> list[str]:
    return [b.text for row in screen.rows for b in row]


@pytest.mark.parametrize(("cards", "players", "bids", "forbidden", "allowed"), [
    (6, 4, (2, 1, 2), 1, ["pass", "2", "3", "4", "5", "6"]),
    (3, 4, (2, 2, 0), None, ["pass", "1", "2", "3"]),
    (1, 4, (0, 0, 0), 1, ["pass"]),
    (9, 4, (3, 3, 3), 0, [str(n) for n in range(1, 10)]),
    (5, 3, (2, 2), 1, ["pass", "2", "3", "4", "5"]),
])
def test_the_dealers_restriction(cards: int, players: int, bids: tuple[int, ...],
                                 forbidden: int | None, allowed: list[str]) -> None:
    state = deal(cards, players=players, mode="turn_up" if cards < 9 else "no_trump")
    for seat, bid in zip(range(1, players), bids, strict=True):
        state.apply(seat, f"bid:{bid}")
    screen = shown(state, 0)
    assert labels(screen) == allowed
    line = f"Ann (dealer) may not bid {forbidden}: the bids would add up to {cards}."
    assert (line in screen.text) == (forbidden is not None)
    assert (line in table_screen(state.view(None), context(state.rules)).text) == (
        forbidden is not None)


def test_trump_lines() -> None:
    chooser = deal(9, mode="chooser")
    seen = shown(chooser, 1)
    assert "Trump: Bob chooses after seeing three cards" in seen.text
    assert labels(seen) == ["♠", "♥", "♦", "♣", "no trump"]
    assert len(seen.text.split("Your hand</b>:")[1].split()) >= 3
    assert "You see your first three cards" in shown(chooser, 2).text
    chooser.apply(1, "trump:NT")
    assert "Trump: no trump, chosen by Bob" in shown(chooser, 2).text
    assert "No trump in this deal" in shown(deal(9, mode="no_trump"), 1).text
    turned = deal(4)
    card = turned.trump_card
    assert card is not None
    expected = ("No trump: 🃏 turned up" if card == JOKER else
                f"Trump: {card.suit.symbol} ({card.display} turned up)")  # type: ignore[union-attr]
    assert expected in shown(turned, 1).text


def test_the_joker_is_declared_in_a_second_step() -> None:
    state = deal(2)
    state.hands[1] = [Card(10, Suit.H), JOKER]
    for seat in range(1, 4):
        state.apply(seat, "bid:0")
    state.apply(0, "bid:0" if state.forbidden_bid() != 0 else "bid:1")
    cards = shown(state, 1)
    assert labels(cards) == ["10♥", "🃏"]
    view = state.view(1)
    assert step(view, frozenset(), "JK").selection == {"JK"}
    declared = shown(state, 1, frozenset({"JK"}))
    assert "how does it play?" in declared.text
    assert labels(declared) == [
        "🃏 wants ♠", "🃏 wants ♥", "🃏 wants ♦", "🃏 wants ♣",
        "🃏 low ♠", "🃏 low ♥", "🃏 low ♦", "🃏 low ♣", "🃏 as 6♠", "🃏 as 6♣", "« Back"]
    assert step(view, frozenset({"JK"}), "back").selection == frozenset()
    with pytest.raises(ValueError):
        step(view, frozenset(), "10H")


SPEC_18_5 = [  # bids and tricks by seat A, B, C, D; dealers A, B, C, D
    ((2, 2, 3, 1), (3, 2, 3, 1)), ((3, 1, 4, 0), (5, 0, 4, 0)),
    ((0, 2, 5, 1), (1, 2, 5, 1)), ((2, 3, 2, 0), (2, 3, 2, 2))]


def test_a_pulka_end_with_its_premium() -> None:
    """Spec 18.5: C alone is exact in every deal; the pulka totals are 90 100 1200 170.
    Both pulkas of the short schedule are that pulka, entered as results."""
    rules = Rules(schedule="short")
    match = Match(SPEC, rules, NAMES, 0)
    for number in range(1, 9):
        bids, tricks = SPEC_18_5[(number - 1) % 4]
        dealer = (number - 1) % 4
        match.add_entered({"dealer": dealer, "cards": 9}, DealResult(
            number, 1 + (number > 4), 9, dealer, "H", bids, tricks))
    ctx = context(rules)
    assert after_deal(Match(SPEC, rules, NAMES, 0), ctx) == ""
    text = after_deal(match, ctx)
    assert text.startswith("<b>Pulka 2 is over</b>")
    assert "Ann: 240 -150 = 90" in text and "Bob: 300 -200 = 100" in text
    assert "Cid: 900 +300 = 1200 ⭐ premium" in text and "Dan: 270 -100 = 170" in text
    assert "Game totals: Ann 180 · Bob 200 · Cid 2400 · Dan 340" in text
    score = score_text(match, ctx)
    assert "Pulka 2: Ann 90 · Bob 100 · Cid 1200 · Dan 170" in score
    assert "premium: Ann -150, Bob -200, Cid +300, Dan -100" in score
    assert deal_summary(match.outputs[1], {}, ctx).splitlines()[2] == (
        "Bob: bid 1, took 0 → -200 (khishti)")
    assert history_line(match.outputs[1], 2, NAMES, translator("en")) == (
        "Deal 2 (9-card deal, ♥): Ann 3/5 +50 · Bob 1/0 -200 · Cid 4/4 +250 · Dan pass/0 +50")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 9))
def test_every_button_of_a_random_deal_fits_in_64_bytes(seed: int, cards: int) -> None:
    """Every panel of a random deal (and the joker's declarations), for a table id and a
    version as large as a busy bot reaches: the callback data stays within 64 bytes."""
    state = deal(cards, seed=seed, dealer=seed % 4, mode="turn_up" if cards < 9 else "chooser")
    rng = random.Random(seed)
    ctx = RenderContext(9_999_999, NAMES, state.rules.to_dict(), 24, translator("en"), 99_999)
    while not state.finished:
        seat = state.to_act[0]
        view = state.view(seat)
        for selection in (frozenset(), frozenset({"JK"})):
            screen = panel(view, replace(ctx, selection=selection))
            found = [b.data for row in screen.rows for b in row if b.data]
            assert found and all(len(d.encode()) <= 64 for d in found), found
        state.apply(seat, random_action(state, seat, rng))
