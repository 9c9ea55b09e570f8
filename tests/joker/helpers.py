"""Building Joker deals from explicit cards for the tests."""

from __future__ import annotations

from typing import Any

from engine.base import Event
from engine.cards import parse_card, parse_cards
from engine.joker import Rules, Scoresheet, State
from engine.joker.result import DealContext, DealResult

NAMES = ["A", "B", "C", "D"]


def make_state(
    hands: list[str], *, trump_card: str | None = None, dealer: int = 0,
    mode: str | None = None, rules: Rules | None = None, passes: tuple[int, ...] | None = None,
    number: int = 1, pulka: int = 1,
) -> State:
    """A deal with these hands (one string of cards per seat), the card turned up or a mode."""
    rules = rules or Rules.from_dict({"players": len(hands)})
    cards = [parse_cards(h) for h in hands]
    mode = mode or ("turn_up" if trump_card else "chooser")
    context = DealContext(number, pulka, len(cards[0]), dealer, mode,
                          passes or (0,) * len(hands))
    turned = parse_card(trump_card) if trump_card else None
    return State(rules, NAMES[: len(hands)], context, cards, turned)


def run(state: State, actions: list[str]) -> list[Event]:
    """Apply actions in turn order; the events of all of them."""
    events: list[Event] = []
    for action in actions:
        events += state.apply(state.to_act[0], action)
    return events


def snapshot(state: State) -> dict[str, Any]:
    """Everything observable, to show that a refused action changed nothing."""
    return {"views": [state.view(s) for s in [None, *range(state.n)]],
            "hands": [list(h) for h in state.hands], "version": state.version,
            "sixes": set(state.sixes_used),
            "legal": [state.legal_actions(s) for s in range(state.n)]}


def context_at(rules: Rules, deals_before: int) -> DealContext:
    """The context of a game's deal after ``deals_before`` deals (all passes, seat 0 took all)."""
    sheet = Scoresheet(rules, 0)
    for _ in range(deals_before):
        ctx = sheet.next_context()
        sheet.add(DealResult(ctx.number, ctx.pulka, ctx.cards, ctx.dealer, "NT",
                             (0,) * rules.players, (ctx.cards,) + (0,) * (rules.players - 1)))
    return sheet.next_context()
