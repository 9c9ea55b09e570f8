"""A Joker player's panel: the table, his hand, and buttons for what he may do now.

Drawn from the seat's view, with its legal actions. A joker is played in two
steps: tap it (a UI step), then choose its declaration, or « Back.
"""

from __future__ import annotations

from typing import Any

from bot.games.joker.table import BACK, JOKER, action_label, table_lines, waiting_line
from bot.service.play import StepResult
from bot.ui.callbacks import action_data, step_data
from bot.ui.cards import by_suit, hand_lines
from bot.ui.context import RenderContext
from bot.ui.screen import Button, Screen, rows_of


def panel(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The table, the hand, and the buttons for what the player may do now."""
    tr = ctx.tr
    seat = view["seat"]
    legal: list[str] = view["actions"].get(seat, [])
    lines = [*table_lines(view, ctx, live=bool(legal)), ""]
    if view["hand"]:
        lines.append(tr("<b>Your hand</b>:"))
        lines.extend(hand_lines(view["hand"], tr))
    if view["phase"] == "trump" and seat != view["chooser"]:
        lines.append(tr("You see your first three cards; the rest come once the trump is "
                        "chosen."))
    if not legal:
        lines.append(tr("Not your turn: the group's table message follows the trick.")
                     if view["phase"] == "play" else waiting_line(view, ctx))
        return Screen("\n".join(lines))

    def button(action: str) -> Button:
        return Button(action_label(action, tr), action_data(ctx.table_id, ctx.version, seat,
                                                             action))

    phase = view["phase"]
    if phase == "trump":
        lines.append(tr("<b>Your turn</b>: name the trump from your first three cards."))
        return Screen("\n".join(lines), tuple(rows_of([button(a) for a in legal], 5)))
    if phase == "bid":
        lines.append(tr("<b>Your turn</b>: bid the tricks you will take (pass is 0)."))
        return Screen("\n".join(lines), tuple(rows_of([button(a) for a in legal], 5)))
    jokers = [a for a in legal if a.startswith(f"play:{JOKER}")]
    if JOKER in ctx.selection and jokers:
        lines.append(tr("<b>Your joker</b>: how does it play?"))
        rows = rows_of([button(a) for a in jokers], 2)
        rows.append((Button(tr("« Back"), step_data(ctx.table_id, ctx.version, seat, BACK)),))
        return Screen("\n".join(lines), tuple(rows))
    lines.append(tr("<b>Your turn</b>: play a card."))
    naturals = [a.removeprefix("play:") for a in legal if a not in jokers]
    rows = [tuple(button(f"play:{c}") for c in group) for group in by_suit(naturals)]
    if jokers:
        rows.append((Button("🃏", step_data(ctx.table_id, ctx.version, seat, JOKER)),))
    return Screen("\n".join(lines), tuple(rows))


def choice_label(action: str, ctx: RenderContext) -> str:
    """An action as its button says it: "♥", "pass", "2", "Q♥"."""
    return action_label(action, ctx.tr)


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """Tap the joker to see its declarations, or « Back to the cards."""
    legal: list[str] = view["actions"].get(view["seat"], [])
    if view["phase"] != "play":
        raise ValueError("nothing to pick now")
    if token == BACK:
        return StepResult()
    if token == JOKER and any(a.startswith(f"play:{JOKER}") for a in legal):
        return StepResult(frozenset({JOKER}))
    raise ValueError("not a choice")
