"""Preferans drawn: calls and tricks at each seat, the trick, the talon, exposed hands."""

from __future__ import annotations

from typing import Any

from bot.games.drawing import Drawing, action, area, drawing, play, seat
from bot.games.preferans.panel import DISCARD_PREFIX, choice_label
from bot.games.preferans.table import call_text
from bot.ui.cards import card, cards
from bot.ui.context import RenderContext


def draw(view: dict[str, Any], ctx: RenderContext) -> Drawing:
    tr = ctx.tr
    calls = {s: call_text(c, ctx) for s, c in [*view["bids"], *view["whists"]]}  # the last
    playing = view["phase"] in ("play", "done")
    exposed = {int(s): held for s, held in view["exposed"].items()}
    seats = [seat(view, ctx.names, s, count=n, note=calls.get(s, ""),
                  taken=str(view["tricks"][s]) if playing and s in view["active"] else "",
                  shown=exposed.get(s))
             for s, n in enumerate(view["hand_sizes"])]
    return drawing(
        seats, hand=view["hand"], actions=_actions(view, ctx),
        trick=[play(s, c, card(c, tr)) for s, c in view["trick"]],
        last_trick=[play(s, c, card(c, tr)) for s, c in view["last_trick"]],
        areas=[area(tr("Talon"), ("", view["talon"])),
               area(tr("Your discard"), ("", view["discard"]))])


def _actions(view: dict[str, Any], ctx: RenderContext) -> list[dict[str, Any]]:
    tr = ctx.tr
    found = []
    for s, legal in view["actions"].items():
        for a in legal:
            kind, _, value = a.partition(":")
            if a.startswith(DISCARD_PREFIX):
                two = value.split(",")
                found.append(action(s, a, tr("Discard {cards}", cards=cards(two, tr)), two))
            elif kind == "play":
                found.append(action(s, a, card(value, tr), [value]))
            else:
                found.append(action(s, a, choice_label(a, ctx, 10 - view["tricks_done"])))
    return found
