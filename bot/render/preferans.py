"""Preferans panels (a player's private message) and the group's table message.

Everything here reads an engine view (``state.view(seat)``), never the state:
a panel can only show what its seat may know.
"""

from __future__ import annotations

from html import escape
from typing import Any

from bot.callbacks import action_data, step_data
from bot.render.cards import by_suit, card, cards, hand_lines
from bot.render.context import RenderContext
from bot.render.screen import Button, Screen, rows_of
from engine.preferans.bids import LADDER, MISER
from engine.preferans.bids import display as bid_display

VARIANT_NAMES = {"sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov"}
DISCARD_PREFIX = "discard:"


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
              variant=tr(VARIANT_NAMES[rules["variant"]]), pool=rules["pool"], deal=ctx.deal_no)
    if view["raspasy_state"] > 1:
        line += " · " + tr("raspasy state {n}", n=view["raspasy_state"])
    return line


def _name(ctx: RenderContext, seat: int | None) -> str:
    return escape(ctx.names[seat]) if seat is not None else ctx.tr("talon")


def table_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """What everyone may see of the deal: bids, talon, contract, whists, trick, tricks."""
    tr = ctx.tr
    lines = [header(view, ctx)]
    lines.append(tr("Dealer: {name}", name=_name(ctx, view["dealer"])))
    if view["bids"]:
        lines.append(tr("Bids: {bids}", bids=", ".join(
            f"{_name(ctx, s)} {call_text(c, ctx)}" for s, c in view["bids"])))
    if view["talon"]:
        lines.append(tr("Talon: {cards}", cards=cards(view["talon"])))
    if view["declarer"] is not None and view["contract"]:
        contract = call_text(view["contract"], ctx)
        lines.append(tr("Contract: <b>{contract}</b> by {name}", contract=contract,
                        name=_name(ctx, view["declarer"])))
    elif view["declarer"] is not None:
        lines.append(tr("{name} won the auction with {bid}", name=_name(ctx, view["declarer"]),
                        bid=call_text(view["high_bid"], ctx)))
    elif view["phase"] in ("play", "done"):
        lines.append(tr("<b>Raspasy</b>: everyone passed"))
    if view["whists"]:
        lines.append(tr("Whists: {calls}", calls=", ".join(
            f"{_name(ctx, s)} {call_text(c, ctx)}" for s, c in view["whists"])))
    if view["open"] is not None:
        lines.append(tr("Open play") if view["open"] else tr("Closed play"))
    for seat, held in sorted(view["exposed"].items()):
        lines.append(tr("{name} (face up): {cards}", name=_name(ctx, int(seat)),
                        cards=" · ".join(hand_lines(held)) or "—"))
    if view["phase"] in ("play", "done") and (view["tricks_done"] or view["trick"]):
        if view["last_trick"]:
            lines.append(tr("Last trick: {cards}", cards=_trick(view["last_trick"], ctx)))
        if view["trick"]:
            lines.append(tr("On the table: {cards}", cards=_trick(view["trick"], ctx)))
        lines.append(tr("Tricks: {counts}", counts=", ".join(
            f"{_name(ctx, s)} {view['tricks'][s]}" for s in _counted(view))))
    return lines


def _counted(view: dict[str, Any]) -> list[int]:
    """Active seats, plus the 4-player dealer once his talon card took a trick."""
    seats = list(view["active"])
    if len(view["players"]) == 4 and view["tricks"][view["dealer"]]:
        seats.append(view["dealer"])
    return seats


def _trick(plays: list[list[Any]], ctx: RenderContext) -> str:
    return ", ".join(f"{_name(ctx, s)} {card(c)}" for s, c in plays)


def waiting_line(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    if view["phase"] == "done":
        return tr("The deal is over.")
    names = ", ".join(_name(ctx, view["controllers"][s]) for s in view["to_act"])
    what = {"bidding": tr("bid"), "discard": tr("discard two cards"),
            "contract": tr("name the contract"), "whist": tr("whist or pass"),
            "open": tr("choose open or closed play"), "play": tr("play a card")}[view["phase"]]
    return tr("Waiting for {names} to {what}.", names=names, what=what)


def panel(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """A player's private panel: the table, the hand, and the buttons for what he may do."""
    tr = ctx.tr
    lines = table_lines(view, ctx)
    if view["discard"]:
        lines.append(tr("Your discard: {cards}", cards=cards(view["discard"])))
    lines.append("")
    lines.append(tr("<b>Your hand</b>:") if view["hand"] else tr("You hold no cards."))
    lines.extend(hand_lines(view["hand"]))
    actions: dict[int, list[str]] = view["actions"]
    rows: list[tuple[Button, ...]] = []
    if actions:
        acting = next(iter(actions))
        lines.append("")
        lines.append(_prompt(view, acting, ctx))
        rows = _buttons(view, acting, actions[acting], ctx)
    else:
        lines.append("")
        lines.append(waiting_line(view, ctx))
    return Screen("\n".join(lines), tuple(rows))


def _prompt(view: dict[str, Any], acting: int, ctx: RenderContext) -> str:
    tr = ctx.tr
    if acting != view["seat"]:
        return tr("<b>Your turn</b>: play a card from {name}'s hand.", name=_name(ctx, acting))
    return {"bidding": tr("<b>Your turn</b>: bid or pass."),
            "discard": tr("<b>Your turn</b>: pick two cards to discard, then confirm."),
            "contract": tr("<b>Your turn</b>: name the contract."),
            "whist": tr("<b>Your turn</b>: whist or pass?"),
            "open": tr("<b>Your turn</b>: play open or closed?"),
            "play": tr("<b>Your turn</b>: play a card.")}[view["phase"]]


def _buttons(view: dict[str, Any], acting: int, legal: list[str],
             ctx: RenderContext) -> list[tuple[Button, ...]]:
    tr = ctx.tr

    def button(action: str, label: str) -> Button:
        return Button(label, action_data(ctx.table_id, ctx.version, acting, action))

    phase = view["phase"]
    if phase == "discard":
        return _discard_buttons(view, acting, ctx)
    if phase == "play":
        playable = {a.partition(":")[2] for a in legal}
        return [tuple(button(f"play:{c}", card(c)) for c in group)
                for group in by_suit(sorted(playable))]
    if phase == "open":
        return [(button("open:true", tr("Open")), button("open:false", tr("Closed")))]
    labels = [button(a, call_text(a.partition(":")[2], ctx)) for a in legal]
    return rows_of(labels, 5 if phase in ("bidding", "contract") else 3)


def _discard_buttons(view: dict[str, Any], acting: int,
                     ctx: RenderContext) -> list[tuple[Button, ...]]:
    tr = ctx.tr
    chosen = sorted(ctx.selection)
    rows = []
    for group in by_suit(view["hand"]):
        rows.append(tuple(
            Button(("✅ " if c in chosen else "") + card(c),
                   step_data(ctx.table_id, ctx.version, acting, c))
            for c in group))
    if len(chosen) == 2:
        action = DISCARD_PREFIX + ",".join(chosen)
        if action not in view["actions"][acting]:
            action = DISCARD_PREFIX + ",".join(reversed(chosen))
        rows.append((Button(tr("Discard {cards}", cards=cards(chosen)),
                            action_data(ctx.table_id, ctx.version, acting, action)),))
    return rows


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal, for players and spectators."""
    lines = table_lines(view, ctx)
    lines.append("")
    lines.append(waiting_line(view, ctx))
    return Screen("\n".join(lines))
