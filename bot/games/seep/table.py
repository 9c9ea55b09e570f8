"""The Seep table as everyone may see it: the group's table message, the lines a player's
panel starts with, and how moves are named. Everything here reads a view."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from bot.ui.cards import cards, shown
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Screen
from engine.cards import Card, parse_card
from engine.seep.moves import BREAK, BUILD, CAPTURE, CEMENT
from engine.seep.notation import BID, Written, parse_action
from engine.seep.values import ordered, total, value

BACK = "back"


def team_names(names: list[str], teams: list[list[int]]) -> list[str]:
    """Each side as players read it: "Ann & Cid" (or a name alone with two players)."""
    return [" &amp; ".join(escape(names[s]) for s in team) for team in teams]


def seat_name(ctx: RenderContext, seat: int) -> str:
    return escape(ctx.names[seat])


def action_card(action: str) -> Card | None:
    """The card an action plays (None for a bid)."""
    return parse_action(action).card


def move_label(action: str, houses: set[int], ctx: RenderContext) -> str:
    """A move as a button says it: "capture 5♠+4♦ · 9♣", "build house 11 with 7♠", "throw"."""
    tr = ctx.tr
    w = parse_action(action)
    if w.kind == BID:
        return tr("Bid {n}", n=w.number)
    if w.kind == CAPTURE:
        return _capture_label(w, houses, ctx)
    if w.kind in (BUILD, CEMENT, BREAK):
        return _house_label(w, houses, ctx)
    return tr("throw")


def added(cards: Iterable[Card], tr: Translate) -> str:
    """Cards that add up, as a label says them: ``5♠+4♦``."""
    return "+".join(shown(c, tr) for c in ordered(cards))


def _groups(w: Written, tr: Translate) -> str:
    return " · ".join(added(g, tr) for g in w.groups)


def _capture_label(w: Written, houses: set[int], ctx: RenderContext) -> str:
    tr = ctx.tr
    assert w.card is not None
    v = value(w.card)
    if v in houses and w.groups:
        return tr("capture house {v} and {cards}", v=v, cards=_groups(w, tr))
    if v in houses:
        return tr("capture house {v}", v=v)
    return tr("capture {cards}", cards=_groups(w, tr))


def _house_label(w: Written, houses: set[int], ctx: RenderContext) -> str:
    tr = ctx.tr
    assert w.card is not None and w.number is not None
    if w.kind == BREAK:
        target = w.number + value(w.card) + total(w.with_)
        text = (tr("raise house {v} into house {t}", v=w.number, t=target) if target in houses
                else tr("raise house {v} to {t}", v=w.number, t=target))
    elif w.kind == CEMENT:
        text = tr("cement house {v}", v=w.number)
    else:
        text = tr("build house {v}", v=w.number)
    if w.with_:
        text += " " + tr("with {cards}", cards=added(w.with_, tr))
    if w.groups:
        text += ", " + tr("absorbing {cards}", cards=_groups(w, tr))
    return text


# -- what everyone sees ------------------------------------------------------------------

def header(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    sides = team_names(ctx.names, view["teams"])
    return tr("<b>Seep</b> · deal {deal} · {one} vs {other}", deal=ctx.deal_no, one=sides[0],
              other=sides[1])


def table_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The deal as everyone may see it: bid, floor, houses, last capture, sweeps, totals."""
    tr = ctx.tr
    lines = [header(view, ctx)]
    bidder = seat_name(ctx, view["bidder"])
    if view["bid"] is None:
        lines.append(tr("Dealer: {dealer} · {bidder} bids", dealer=seat_name(ctx, view["dealer"]),
                        bidder=bidder))
        lines.append(tr("Floor: four cards face down until the bid"))
        return lines
    lines.append(tr("Dealer: {dealer} · {bidder} bid <b>{bid}</b>",
                    dealer=seat_name(ctx, view["dealer"]), bidder=bidder, bid=view["bid"]))
    floor = view["floor"]
    if floor is not None:
        loose = cards(floor["loose"], tr)
        lines.append(tr("Floor: {cards}", cards=loose) if loose else
                     tr("Floor: no loose cards") if floor["houses"] else tr("Floor: empty"))
        lines.extend(house_line(h, ctx) for h in floor["houses"])
    last = last_play(view, ctx)
    if last:
        lines.append(last)
    lines.extend(_side_lines(view, ctx))
    counts = " · ".join(f"{seat_name(ctx, s)} {n}" for s, n in enumerate(view["hand_sizes"]))
    lines.append(tr("Cards in hand: {counts}", counts=counts))
    return lines


def last_play(view: dict[str, Any], ctx: RenderContext) -> str | None:
    """The last capture and who made it."""
    last = view["last_capture"]
    if not last:
        return None
    return ctx.tr("Last capture: {name} took {cards}", name=seat_name(ctx, last["seat"]),
                  cards=cards(last["cards"], ctx.tr))


def house_line(house: dict[str, Any], ctx: RenderContext) -> str:
    """One house: value, its groups, cemented or not, its owners."""
    tr = ctx.tr
    groups = " · ".join(added((parse_card(c) for c in g), tr) for g in house["groups"])
    owners = ", ".join(seat_name(ctx, s) for s in house["owners"])
    if house["cemented"]:
        return tr("🏠 House {v}, cemented: {groups} ({owners})", v=house["value"], groups=groups,
                  owners=owners)
    return tr("🏠 House {v}: {groups} ({owners})", v=house["value"], groups=groups, owners=owners)


def _side_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """Sweeps so far, and the capture totals when the rules show them."""
    tr = ctx.tr
    sides = team_names(ctx.names, view["teams"])
    lines = []
    if any(map(sum, view["sweeps"])):
        lines.append(tr("Sweeps: {list}", list=" · ".join(
            f"{side} {sum(n)} (+{points})"
            for side, n, points in zip(sides, view["sweeps"], view["sweep_points"], strict=True))))
    if view["capture_points"] is not None:
        lines.append(tr("Captured: {list}", list=" · ".join(
            tr("{side} {points} points in {n} card", "{side} {points} points in {n} cards",
               side=side, points=p, n=n)
            for side, p, n in zip(sides, view["capture_points"], view["captured_cards"],
                                  strict=True))))
    return lines


def waiting_line(view: dict[str, Any], ctx: RenderContext, *, mention: bool = False) -> str:
    """Whom the table waits for; ``mention``: the name links to the player."""
    tr = ctx.tr
    if view["phase"] in ("done", "void"):
        return tr("The deal is over.")
    seat = view["to_act"][0]
    name = ctx.mention(seat) if mention else seat_name(ctx, seat)
    return (tr("Waiting for {name} to bid.", name=name) if view["bid"] is None else
            tr("Waiting for {name} to play.", name=name))


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal."""
    return Screen("\n".join([*table_lines(view, ctx), "", waiting_line(view, ctx, mention=True)]))
