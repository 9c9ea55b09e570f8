"""The Preferans table as everyone may see it: the group's table message, and the lines a
player's panel starts with. Everything here reads a view, never the state."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.preferans.options import OPTIONS
from bot.ui.cards import card, cards, hand_lines
from bot.ui.context import RenderContext
from bot.ui.screen import Screen
from engine.preferans.bids import LADDER, MISER
from engine.preferans.bids import display as bid_display


def call_text(call: str, ctx: RenderContext) -> str:
    tr = ctx.tr
    if call in LADDER:
        return tr("misère") if call == MISER else bid_display(call)
    return {"pass": tr("pass"), "here": tr("here"), "whist": tr("whist"),
            "halfwhist": tr("half-whist"), "walkaway": tr("walk away")}.get(call, call)


def header(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    rules = ctx.rules
    line = tr("<b>Preferans</b> · {variant} · pool {pool} · deal {deal}",
              variant=tr(OPTIONS.name("variant", rules["variant"])), pool=rules["pool"],
              deal=ctx.deal_no)
    if view["raspasy_state"] > 1:
        line += " · " + tr("raspasy state {n}", n=view["raspasy_state"])
    return line


def seat_name(ctx: RenderContext, seat: int | None) -> str:
    return escape(ctx.names[seat]) if seat is not None else ctx.tr("talon")


def table_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """What everyone may see of the deal: bids, talon, contract, whists, trick, tricks."""
    tr = ctx.tr
    lines = [header(view, ctx)]
    lines.append(tr("Dealer: {name}", name=seat_name(ctx, view["dealer"])))
    if view["bids"]:
        lines.append(tr("Bids: {bids}", bids=", ".join(
            f"{seat_name(ctx, s)} {call_text(c, ctx)}" for s, c in view["bids"])))
    if view["talon"]:
        lines.append(tr("Talon: {cards}", cards=cards(view["talon"])))
    if view["declarer"] is not None and view["contract"]:
        contract = call_text(view["contract"], ctx)
        lines.append(tr("Contract: <b>{contract}</b> by {name}", contract=contract,
                        name=seat_name(ctx, view["declarer"])))
    elif view["declarer"] is not None:
        lines.append(tr("{name} won the auction with {bid}", name=seat_name(ctx, view["declarer"]),
                        bid=call_text(view["high_bid"], ctx)))
    elif view["phase"] in ("play", "done"):
        lines.append(tr("<b>Raspasy</b>: everyone passed"))
    if view["whists"]:
        lines.append(tr("Whists: {calls}", calls=", ".join(
            f"{seat_name(ctx, s)} {call_text(c, ctx)}" for s, c in view["whists"])))
    if view["open"] is not None:
        lines.append(tr("Open play") if view["open"] else tr("Closed play"))
    for seat, held in sorted(view["exposed"].items()):
        lines.append(tr("{name} (face up): {cards}", name=seat_name(ctx, int(seat)),
                        cards=" · ".join(hand_lines(held)) or "—"))
    if view["phase"] in ("play", "done") and (view["tricks_done"] or view["trick"]):
        if view["last_trick"]:
            lines.append(tr("Last trick: {cards}", cards=_trick(view["last_trick"], ctx)))
        if view["trick"]:
            lines.append(tr("On the table: {cards}", cards=_trick(view["trick"], ctx)))
        lines.append(tr("Tricks: {counts}", counts=", ".join(
            f"{seat_name(ctx, s)} {view['tricks'][s]}" for s in _counted(view))))
    return lines


def _counted(view: dict[str, Any]) -> list[int]:
    """Active seats, plus the 4-player dealer once his talon card took a trick."""
    seats = list(view["active"])
    if len(view["players"]) == 4 and view["tricks"][view["dealer"]]:
        seats.append(view["dealer"])
    return seats


def _trick(plays: list[list[Any]], ctx: RenderContext) -> str:
    return ", ".join(f"{seat_name(ctx, s)} {card(c)}" for s, c in plays)


def waiting_line(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    if view["phase"] == "done":
        return tr("The deal is over.")
    names = ", ".join(seat_name(ctx, view["controllers"][s]) for s in view["to_act"])
    what = {"bidding": tr("bid"), "discard": tr("discard two cards"),
            "contract": tr("name the contract"), "whist": tr("whist or pass"),
            "open": tr("choose open or closed play"), "play": tr("play a card")}[view["phase"]]
    return tr("Waiting for {names} to {what}.", names=names, what=what)


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal, for players and spectators."""
    lines = table_lines(view, ctx)
    lines.append("")
    lines.append(waiting_line(view, ctx))
    return Screen("\n".join(lines))
