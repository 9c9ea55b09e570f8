"""The Preferans table as everyone may see it: the group's table message, and the lines a
player's panel starts with. Everything here reads a view, never the state."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.preferans.options import OPTIONS
from bot.ui.cards import card, cards, hand_lines
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Screen
from engine.preferans.bids import LADDER, MISER, level
from engine.preferans.bids import display as bid_display

TRICKS_PER_DEAL = 10


def contract_text(bid: str, tr: Translate) -> str:
    """A bid or contract as players write it: ``7♥``, ``6NT`` (``6 б/к``), misère."""
    if bid == MISER:
        return tr("misère")
    if bid.endswith("NT"):
        return tr("{level}NT", level=level(bid))
    return bid_display(bid)


def call_text(call: str, ctx: RenderContext) -> str:
    tr = ctx.tr
    if call in LADDER:
        return contract_text(call, tr)
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


def table_lines(view: dict[str, Any], ctx: RenderContext, *, live: bool = True) -> list[str]:
    """What everyone may see of the deal: bids, talon, contract, whists, trick, tricks;
    ``live`` False: without the trick being played (it changes with every card)."""
    tr = ctx.tr
    lines = [header(view, ctx)]
    lines.append(tr("Dealer: {name}", name=seat_name(ctx, view["dealer"])))
    if view["bids"]:
        lines.append(tr("Bids: {bids}", bids=", ".join(
            f"{seat_name(ctx, s)} {call_text(c, ctx)}" for s, c in view["bids"])))
    if view["talon"]:
        lines.append(tr("Talon: {cards}", cards=cards(view["talon"], tr)))
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
                        cards=" · ".join(hand_lines(held, tr)) or "—"))
    if view["phase"] in ("play", "claim", "done") and (view["tricks_done"] or view["trick"]):
        last = last_play(view, ctx)
        if last:
            lines.append(last)
        if view["trick"] and live:
            lines.append(tr("On the table: {cards}", cards=_trick(view["trick"], ctx)))
        lines.append(tr("Tricks: {counts}", counts=", ".join(
            f"{seat_name(ctx, s)} {view['tricks'][s]}" for s in _counted(view))))
    need = needs_line(view, ctx)
    if need:
        lines.append(need)
    lines.extend(claim_lines(view, ctx))
    return lines


def claim_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The claim being answered, with the claimer's hand; or how the last one ended."""
    tr = ctx.tr
    claim = view.get("claim")
    if claim is not None:
        left = 10 - view["tricks_done"]
        return [tr("✋ {name} claims {n} of the {left} tricks left:",
                   "✋ {name} claims {n} of the {left} tricks left:", n=claim["tricks"],
                   left=left, name=seat_name(ctx, claim["seat"])),
                " · ".join(hand_lines(claim["hand"], tr))]
    last = view.get("claims", [])[-1:]
    if last and last[0]["outcome"] != "open":
        name, n = seat_name(ctx, last[0]["seat"]), last[0]["tricks"]
        return [{"refused": tr("{name}'s claim of {n} was refused: play goes on.", name=name,
                               n=n),
                 "accepted": tr("{name}'s claim of {n} was accepted.", name=name, n=n),
                 "proved": tr("{name}'s claim of {n} is proved: it stands.", name=name, n=n),
                 }[last[0]["outcome"]]]
    return []


def last_play(view: dict[str, Any], ctx: RenderContext) -> str | None:
    """The last trick and who took it."""
    if not view["last_trick"]:
        return None
    return ctx.tr("Last trick: {cards} → {name}", cards=_trick(view["last_trick"], ctx),
                  name=seat_name(ctx, view["last_winner"]))


def needs_line(view: dict[str, Any], ctx: RenderContext) -> str | None:
    """What the declarer and the defenders still need, while a contract is played."""
    tr = ctx.tr
    declarer, contract = view["declarer"], view["contract"]
    if view["phase"] != "play" or declarer is None or not contract:
        return None
    name = seat_name(ctx, declarer)
    if contract == MISER:
        return tr("{name} must take no trick.", name=name)
    taken = view["tricks"][declarer]
    need = max(0, level(contract) - taken)
    stop = max(0, TRICKS_PER_DEAL - level(contract) + 1 - (view["tricks_done"] - taken))
    if need == 0:
        return tr("{name} has made the contract.", name=name)
    if stop == 0:
        return tr("The contract is down.")
    return " ".join((tr("{name} needs {n} more trick", "{name} needs {n} more tricks", n=need,
                        name=name),
                     tr("(the defence: {n} to set it).", "(the defence: {n} to set it).",
                        n=stop)))


def _counted(view: dict[str, Any]) -> list[int]:
    """Active seats, plus the 4-player dealer once his talon card took a trick."""
    seats = list(view["active"])
    if len(view["players"]) == 4 and view["tricks"][view["dealer"]]:
        seats.append(view["dealer"])
    return seats


def _trick(plays: list[list[Any]], ctx: RenderContext) -> str:
    return ", ".join(f"{seat_name(ctx, s)} {card(c, ctx.tr)}" for s, c in plays)


def waiting_line(view: dict[str, Any], ctx: RenderContext, *, mention: bool = False) -> str:
    """Whom the table waits for, and to do what; ``mention``: names that link to them."""
    tr = ctx.tr
    if view["phase"] == "done":
        return tr("The deal is over.")
    name = ctx.mention if mention else lambda seat: seat_name(ctx, seat)
    names = ", ".join(name(view["controllers"][s]) for s in view["to_act"])
    what = {"bidding": tr("bid"), "discard": tr("discard two cards"),
            "contract": tr("name the contract"), "whist": tr("whist or pass"),
            "open": tr("choose open or closed play"), "play": tr("play a card"),
            "claim": tr("answer the claim")}[view["phase"]]
    return tr("Waiting for {names} to {what}.", names=names, what=what)


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal, for players and spectators."""
    lines = table_lines(view, ctx)
    lines.append("")
    lines.append(waiting_line(view, ctx, mention=True))
    return Screen("\n".join(lines))
