"""Joker drawn: bids and tricks at each seat, the trick with its jokers' declarations, the
turned-up trump."""

from __future__ import annotations

from typing import Any

from bot.games.drawing import Drawing, action, area, drawing, play, seat
from bot.games.joker.table import action_label, bid_text, item_label
from bot.ui.context import RenderContext
from engine.joker.actions import Play, parse_action


def draw(view: dict[str, Any], ctx: RenderContext) -> Drawing:
    tr = ctx.tr
    playing = view["phase"] in ("play", "over")
    seats = [seat(view, ctx.names, s, count=n,
                  note=bid_text(b, tr) if b is not None and not playing else "",
                  taken=f"{view['tricks'][s]}/{bid_text(b, tr)}" if playing else "")
             for s, (n, b) in enumerate(zip(view["hand_counts"], view["bids"], strict=True))]
    last = view["last_trick"]
    actions = []
    for s, legal in view["actions"].items():
        for a in legal:
            parsed = parse_action(a)
            actions.append(action(s, a, action_label(a, tr),
                                  [str(parsed.card)] if isinstance(parsed, Play) else None))
    return drawing(
        seats, hand=view.get("hand", []), actions=actions,
        trick=[play(p["seat"], p["play"], item_label(p, tr)) for p in view["trick"]],
        last_trick=[play(p["seat"], p["play"], item_label(p, tr))
                    for p in (last["plays"] if last else [])],
        areas=[area(tr("Trump"), ("", [view["trump_card"]] if view["trump_card"] else []))])
