"""Seep drawn: sides, the bid, the floor's loose cards and houses, the last capture."""

from __future__ import annotations

from typing import Any

from bot.games.drawing import Drawing, action, area, drawing, seat
from bot.games.seep.table import action_card, house_line, move_label
from bot.ui.context import RenderContext


def draw(view: dict[str, Any], ctx: RenderContext) -> Drawing:
    tr = ctx.tr
    team = {s: t for t, members in enumerate(view["teams"]) for s in members}
    bid = tr("Bid {n}", n=view["bid"]) if view["bid"] is not None else ""
    seats = [seat(view, ctx.names, s, count=n, note=bid if s == view["bidder"] else "",
                  team=team[s])
             for s, n in enumerate(view["hand_sizes"])]
    floor = view["floor"] or {"loose": [], "houses": []}
    houses = {h["value"] for h in floor["houses"]}
    areas = [area(tr("Floor"), ("", floor["loose"]),
                  *((house_line(h, ctx), [c for g in h["groups"] for c in g])
                    for h in floor["houses"]), middle=True)]
    last = view["last_capture"]
    if last:
        areas.append(area(tr("Last capture: {name}", name=seats[last["seat"]]["name"]),
                          ("", last["cards"]), middle=True))
    actions = []
    for s, legal in view["actions"].items():
        for a in legal:
            played = action_card(a)
            actions.append(action(s, a, move_label(a, houses, ctx),
                                  None if played is None else [str(played)]))
    return drawing(seats, hand=view["hand"] or [], actions=actions, areas=areas)
