"""The Joker table as everyone may see it: the group's table message, the lines a player's
panel starts with, and how plays are named. Everything here reads a view."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from bot.ui.cards import card, shown
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Screen
from engine.cards import Suit
from engine.joker.actions import NO_TRUMP, Bid, Play, TrumpChoice, decode_action, parse_action
from engine.joker.rules import Rules
from engine.joker.schedule import deal_plan

JOKER = "JK"
BACK = "back"


def trump_name(trump: str | None, tr: Translate) -> str:
    """``"H"`` -> ``"♥"``; ``"NT"`` -> "no trump"."""
    if trump is None:
        return "?"
    return tr("no trump") if trump == NO_TRUMP else Suit[trump].symbol


def play_label(play: Play, tr: Translate) -> str:
    """A card as played: "Q♥", "🃏 wants ♠", "🃏 low ♣", "🃏 takes", "🃏 under", "🃏 as 6♠"."""
    if play.joker is None:
        return shown(play.card, tr)
    if play.joker == "face":
        assert play.natural is not None
        return tr("🃏 as {card}", card=shown(play.natural, tr))
    if play.suit is None:
        return tr("🃏 takes") if play.joker == "high" else tr("🃏 under")
    if play.joker == "high":
        return tr("🃏 wants {suit}", suit=play.suit.symbol)
    return tr("🃏 low {suit}", suit=play.suit.symbol)


def item_label(item: Mapping[str, Any], tr: Translate) -> str:
    """A play of a view's trick (its record form) as players read it."""
    play = parse_action(decode_action(item)[1])
    assert isinstance(play, Play)
    return play_label(play, tr)


def action_label(action: str, tr: Translate) -> str:
    """A button's label for an action: "♥", "no trump", "pass", "2", "Q♥", "🃏 wants ♠"."""
    parsed = parse_action(action)
    if isinstance(parsed, TrumpChoice):
        return tr("no trump") if parsed.suit is None else parsed.suit.symbol
    if isinstance(parsed, Bid):
        return tr("pass") if parsed.tricks == 0 else str(parsed.tricks)
    return play_label(parsed, tr)


def bid_text(bid: int | None, tr: Translate) -> str:
    if bid is None:
        return "—"
    return tr("pass") if bid == 0 else str(bid)


def seat_name(ctx: RenderContext, seat: int) -> str:
    return escape(ctx.names[seat])


# -- what everyone sees ------------------------------------------------------------------

def header(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    total = len(deal_plan(Rules.from_dict(ctx.rules)))
    return tr("<b>Joker</b> · deal {deal} of {total} · pulka {pulka} · {n}-card deal",
              deal=view["deal"], total=total, pulka=view["pulka"], n=view["cards"])


def trump_line(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    turned = view["trump_card"]
    if turned is not None:
        if turned == JOKER:
            return tr("No trump: 🃏 turned up")
        return tr("Trump: {suit} ({card} turned up)", suit=trump_name(view["trump"], tr),
                  card=card(turned, tr))
    chooser = view["chooser"]
    if chooser is None:
        return tr("No trump in this deal")
    if view["trump"] is None:
        return tr("Trump: {name} chooses after seeing three cards", name=seat_name(ctx, chooser))
    return tr("Trump: {suit}, chosen by {name}", suit=trump_name(view["trump"], tr),
              name=seat_name(ctx, chooser))


def bids_line(view: dict[str, Any], ctx: RenderContext) -> str:
    """The bids in bidding order; the dealer's forbidden bid while the dealer has to bid."""
    tr = ctx.tr
    n = len(view["bids"])
    dealer = view["dealer"]
    order = [(dealer + 1 + k) % n for k in range(n)]
    shown = " · ".join(f"{seat_name(ctx, s)} {bid_text(view['bids'][s], tr)}" for s in order)
    line = tr("Bids: {bids}", bids=shown)
    forbidden = view["forbidden_bid"]
    if view["bids"][dealer] is None and forbidden is not None:
        line += "\n" + tr("{name} (dealer) may not bid {bid}: the bids would add up to {n}.",
                          name=seat_name(ctx, dealer), bid=forbidden, n=view["cards"])
    elif view["bids"][dealer] is not None:
        total = sum(view["bids"])
        balance = (tr("under") if total < view["cards"] else tr("over") if total > view["cards"]
                   else tr("even"))
        line += " " + tr("(total {total} of {n}: {balance})", total=total, n=view["cards"],
                         balance=balance)
    return line


def table_lines(view: dict[str, Any], ctx: RenderContext, *, live: bool = True) -> list[str]:
    """The deal as everyone may see it: trump, bids, tricks, the last and current trick
    (``live`` False: not the current trick, which changes with every card)."""
    tr = ctx.tr
    lines = [header(view, ctx), tr("Dealer: {name}", name=seat_name(ctx, view["dealer"])),
             trump_line(view, ctx)]
    if view["phase"] == "trump":
        return lines
    lines.append(bids_line(view, ctx))
    if view["phase"] in ("play", "over"):
        lines.append(tr("Tricks taken: {list}", list=" · ".join(
            f"{seat_name(ctx, s)} {t}/{bid_text(b, tr)}"
            for s, (t, b) in enumerate(zip(view["tricks"], view["bids"], strict=True)))))
        last = last_play(view, ctx)
        if last:
            lines.append(last)
        if view["trick"] and live:
            lines.append(tr("On the table: {plays}", plays=_trick(view["trick"], ctx)))
    return lines


def last_play(view: dict[str, Any], ctx: RenderContext) -> str | None:
    """The last trick and who took it."""
    last = view["last_trick"]
    if not last:
        return None
    return ctx.tr("Last trick: {plays} → {name}", plays=_trick(last["plays"], ctx),
                  name=seat_name(ctx, last["winner"]))


def _trick(plays: list[dict[str, Any]], ctx: RenderContext) -> str:
    return " · ".join(f"{seat_name(ctx, p['seat'])} {item_label(p, ctx.tr)}" for p in plays)


def waiting_line(view: dict[str, Any], ctx: RenderContext, *, mention: bool = False) -> str:
    """Whom the table waits for; ``mention``: the name links to the player."""
    tr = ctx.tr
    if view["phase"] == "over":
        return tr("The deal is over.")
    seat = view["to_act"][0]
    name = ctx.mention(seat) if mention else seat_name(ctx, seat)
    return {"trump": tr("Waiting for {name} to choose the trump.", name=name),
            "bid": tr("Waiting for {name} to bid.", name=name),
            "play": tr("Waiting for {name} to play.", name=name)}[view["phase"]]


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal."""
    return Screen("\n".join([*table_lines(view, ctx), "", waiting_line(view, ctx, mention=True)]))
