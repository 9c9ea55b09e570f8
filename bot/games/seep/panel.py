"""A Seep player's panel: the table, his hand, and buttons for what he may do now.

Drawn from the seat's view, with its legal actions. A move is chosen in two
steps: tap a card (a UI step), then one of that card's moves by its label, or
« Back.
"""

from __future__ import annotations

from typing import Any

from bot.games.seep.table import BACK, action_card, move_label, table_lines, waiting_line
from bot.service.play import StepResult
from bot.ui.callbacks import action_data, step_data
from bot.ui.cards import shown
from bot.ui.context import RenderContext
from bot.ui.screen import Button, Screen, rows_of
from engine.cards import Card, CardError, parse_card
from engine.seep.values import ordered

CARD_ROW = 6
NAMED_ROW = 2  # cards whose button names their only move


def panel(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The table, the hand, and the buttons for what the player may do now."""
    tr = ctx.tr
    seat = view["seat"]
    legal: list[str] = view["actions"].get(seat, [])
    lines = table_lines(view, ctx)  # the floor and the last capture: a waiting player
    # follows the deal here, without switching to the group
    lines.append("")
    hand = [parse_card(c) for c in view["hand"]]
    if hand:
        lines.append(tr("<b>Your hand</b>: {cards}", cards=" ".join(shown(c, tr) for c in hand)))
    elif view["bid"] is None:
        lines.append(tr("Your cards come once the bid is made."))
    if not legal:
        lines.append(waiting_line(view, ctx))
        return Screen("\n".join(lines))

    def button(action: str, houses: set[int]) -> Button:
        return Button(move_label(action, houses, ctx),
                      action_data(ctx.table_id, ctx.version, seat, action))

    if view["bid"] is None:
        lines.append(tr("<b>Your turn</b>: bid the value of a card you hold (9 to 13). Your "
                        "first move must then play to it: build a house of that value, capture "
                        "with such a card, or, if nothing else is possible, throw one."))
        return Screen("\n".join(lines), tuple(rows_of([button(a, set()) for a in legal], 5)))
    if view["plays"] == 0:
        lines.append(tr("<b>Your first move</b> plays to your bid of {bid}: build a house of "
                        "{bid}, capture with a card of {bid}, or throw one only if nothing else "
                        "is possible.", bid=view["bid"]))
    chosen = _chosen(legal, ctx)
    houses = {h["value"] for h in view["floor"]["houses"]}
    if chosen is None:
        lines.append(tr("<b>Your turn</b>: tap a card (a card with one move names it and "
                        "plays at once), then choose its move."))
        return Screen("\n".join(lines), tuple(_card_rows(seat, legal, houses, ctx)))
    lines.append(tr("<b>You play {card}</b>: choose the move.", card=shown(chosen, tr)))
    rows = [(button(a, houses),) for a in legal if action_card(a) == chosen]
    rows.append((Button(tr("« Back"), step_data(ctx.table_id, ctx.version, seat, BACK)),))
    return Screen("\n".join(lines), tuple(rows))


def choice_label(action: str, ctx: RenderContext) -> str:
    """An action as its button says it: "Bid 9", "capture 5♠+4♦"."""
    return move_label(action, set(), ctx)


def _chosen(legal: list[str], ctx: RenderContext) -> Card | None:
    """The card the player tapped, if it still has a move."""
    for token in ctx.selection:
        chosen = parse_card(token)
        if any(action_card(a) == chosen for a in legal):
            return chosen
    return None


def _card_rows(seat: int, legal: list[str], houses: set[int],
               ctx: RenderContext) -> list[tuple[Button, ...]]:
    """One button per card that has a move, highest value first: a card with several moves
    opens them (a UI step); a card with one names it and plays it at once."""
    playable = ordered({c for a in legal if (c := action_card(a)) is not None})
    moves = {c: [a for a in legal if action_card(a) == c] for c in playable}
    buttons = []
    for c in playable:
        if len(moves[c]) == 1:
            buttons.append(Button(f"{shown(c, ctx.tr)} · {move_label(moves[c][0], houses, ctx)}",
                                  action_data(ctx.table_id, ctx.version, seat, moves[c][0])))
        else:
            buttons.append(Button(shown(c, ctx.tr),
                                  step_data(ctx.table_id, ctx.version, seat, str(c))))
    named = any(len(m) == 1 for m in moves.values())
    return rows_of(buttons, NAMED_ROW if named else CARD_ROW)


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """In play: tap a card (it must have a move), or « Back to the cards. A move is then
    its own button (an action: Seep's texts stay under 40 bytes, so they fit)."""
    legal: list[str] = view["actions"].get(view["seat"], [])
    if view["phase"] != "play":
        raise ValueError("nothing to pick now")
    if token == BACK:
        return StepResult()
    try:
        card = parse_card(token)
    except CardError:
        raise ValueError("not a card") from None
    if not any(action_card(a) == card for a in legal):
        raise ValueError("that card has no move")
    return StepResult(frozenset({str(card)}))
