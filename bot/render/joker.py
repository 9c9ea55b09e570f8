"""Joker panels (a player's private message) and the group's table message.

Everything here reads a view (``state.view(seat)``, plus the seat's legal
actions), never the state. A joker is played in two steps: tap it (a UI step),
then choose its declaration, or « Back.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from bot.callbacks import action_data, step_data
from bot.i18n import Translate
from bot.render.cards import by_suit, card, hand_lines
from bot.render.context import RenderContext
from bot.render.screen import Button, Screen, rows_of
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
        return play.card.display
    if play.joker == "face":
        assert play.natural is not None
        return tr("🃏 as {card}", card=play.natural.display)
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


def _name(ctx: RenderContext, seat: int) -> str:
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
                  card=card(turned))
    chooser = view["chooser"]
    if chooser is None:
        return tr("No trump in this deal")
    if view["trump"] is None:
        return tr("Trump: {name} chooses after seeing three cards", name=_name(ctx, chooser))
    return tr("Trump: {suit}, chosen by {name}", suit=trump_name(view["trump"], tr),
              name=_name(ctx, chooser))


def bids_line(view: dict[str, Any], ctx: RenderContext) -> str:
    """The bids in bidding order; the dealer's forbidden bid while the dealer has to bid."""
    tr = ctx.tr
    n = len(view["bids"])
    dealer = view["dealer"]
    order = [(dealer + 1 + k) % n for k in range(n)]
    shown = " · ".join(f"{_name(ctx, s)} {bid_text(view['bids'][s], tr)}" for s in order)
    line = tr("Bids: {bids}", bids=shown)
    forbidden = view["forbidden_bid"]
    if view["bids"][dealer] is None and forbidden is not None:
        line += "\n" + tr("{name} (dealer) may not bid {bid}: the bids would add up to {n}.",
                          name=_name(ctx, dealer), bid=forbidden, n=view["cards"])
    elif view["bids"][dealer] is not None:
        total = sum(view["bids"])
        balance = (tr("under") if total < view["cards"] else tr("over") if total > view["cards"]
                   else tr("even"))
        line += " " + tr("(total {total} of {n}: {balance})", total=total, n=view["cards"],
                         balance=balance)
    return line


def table_lines(view: dict[str, Any], ctx: RenderContext) -> list[str]:
    """The deal as everyone may see it: trump, bids, tricks, the last and current trick."""
    tr = ctx.tr
    lines = [header(view, ctx), tr("Dealer: {name}", name=_name(ctx, view["dealer"])),
             trump_line(view, ctx)]
    if view["phase"] == "trump":
        return lines
    lines.append(bids_line(view, ctx))
    if view["phase"] in ("play", "over"):
        lines.append(tr("Tricks taken: {list}", list=" · ".join(
            f"{_name(ctx, s)} {t}/{bid_text(b, tr)}"
            for s, (t, b) in enumerate(zip(view["tricks"], view["bids"], strict=True)))))
        last = view["last_trick"]
        if last:
            lines.append(tr("Last trick: {plays} → {name}", plays=_trick(last["plays"], ctx),
                            name=_name(ctx, last["winner"])))
        if view["trick"]:
            lines.append(tr("On the table: {plays}", plays=_trick(view["trick"], ctx)))
    return lines


def _trick(plays: list[dict[str, Any]], ctx: RenderContext) -> str:
    return " · ".join(f"{_name(ctx, p['seat'])} {item_label(p, ctx.tr)}" for p in plays)


def waiting_line(view: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    if view["phase"] == "over":
        return tr("The deal is over.")
    name = _name(ctx, view["to_act"][0])
    return {"trump": tr("Waiting for {name} to choose the trump.", name=name),
            "bid": tr("Waiting for {name} to bid.", name=name),
            "play": tr("Waiting for {name} to play.", name=name)}[view["phase"]]


def table_screen(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The group's table message: the public view of the deal."""
    return Screen("\n".join([*table_lines(view, ctx), "", waiting_line(view, ctx)]))


# -- a player's panel ----------------------------------------------------------------------

def panel(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """The table, the hand, and the buttons for what the player may do now."""
    tr = ctx.tr
    seat = view["seat"]
    lines = [*table_lines(view, ctx), ""]
    if view["hand"]:
        lines.append(tr("<b>Your hand</b>:"))
        lines.extend(hand_lines(view["hand"]))
    if view["phase"] == "trump" and seat != view["chooser"]:
        lines.append(tr("You see your first three cards; the rest come once the trump is "
                        "chosen."))
    legal: list[str] = view["actions"].get(seat, [])
    if not legal:
        lines.append(waiting_line(view, ctx))
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
