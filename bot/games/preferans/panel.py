"""A Preferans player's panel: the table, his hand, and buttons for what he may do now.

Drawn from the seat's view (``actions`` lists the legal actions of the seats he
plays now: in open play the whister plays the passer's cards too). The discard
is picked card by card (a UI step), then confirmed.
"""

from __future__ import annotations

from typing import Any

from bot.games.preferans.hint import hint_line
from bot.games.preferans.table import call_text, seat_name, table_lines, waiting_line
from bot.service.play import StepResult
from bot.ui.callbacks import action_data, pack, step_data
from bot.ui.cards import by_suit, card, cards, hand_lines
from bot.ui.context import RenderContext
from bot.ui.screen import Button, Screen, rows_of
from engine.cards import CardError, parse_card

DISCARD_PREFIX = "discard:"


def panel(view: dict[str, Any], ctx: RenderContext) -> Screen:
    """A player's private panel: the table, the hand, and the buttons for what he may do."""
    tr = ctx.tr
    actions: dict[int, list[str]] = view["actions"]
    lines = table_lines(view, ctx, live=bool(actions))
    if view["discard"]:
        lines.append(tr("Your discard: {cards}", cards=cards(view["discard"], tr)))
    lines.append("")
    if view["seat"] not in view["active"] and view["phase"] != "done":
        lines.append(tr("You deal this time and sit out the deal."))
        return Screen("\n".join(lines))
    lines.append(tr("<b>Your hand</b>:") if view["hand"] else tr("You hold no cards."))
    lines.extend(hand_lines(view["hand"], tr))
    rows: list[tuple[Button, ...]] = []
    if actions:
        acting = next(iter(actions))
        lines.append("")
        lines.append(_prompt(view, acting, ctx))
        rows = _buttons(view, acting, actions[acting], ctx)
        if ctx.hint is not None:
            lines.append(hint_line(ctx.hint, ctx))
        elif ctx.hints:
            rows.append((Button(tr("💡 Hint"), pack("h", ctx.table_id, ctx.version, acting)),))
    else:
        lines.append("")
        lines.append(tr("Not your turn: the group's table message follows the trick.")
                     if view["phase"] == "play" else waiting_line(view, ctx))
    return Screen("\n".join(lines), tuple(rows))


def choice_label(action: str, ctx: RenderContext, left: int = 10) -> str:
    """An action as its button says it: "misère", "pass", "7♥", "Open", "Concede 2";
    ``left``: the tricks still to play (a claim of all of them is "Claim the rest")."""
    tr = ctx.tr
    kind, _, value = action.partition(":")
    if kind == "open":
        return tr("Open") if value == "true" else tr("Closed")
    if kind == "claim":
        n = int(value)
        return tr("✋ Claim the rest ({n})", n=n) if n == left else tr(
            "🏳 Concede {n}", n=left - n)
    if kind == "answer":
        return tr("✅ Accept") if value == "accept" else tr("❌ Refuse")
    return call_text(value, ctx)


def _prompt(view: dict[str, Any], acting: int, ctx: RenderContext) -> str:
    tr = ctx.tr
    if acting != view["seat"]:
        return tr("<b>Your turn</b>: play a card from {name}'s hand.", name=seat_name(ctx, acting))
    return {"bidding": tr("<b>Your turn</b>: bid or pass."),
            "discard": tr("<b>Your turn</b>: pick two cards to discard, then confirm."),
            "contract": tr("<b>Your turn</b>: name the contract."),
            "whist": tr("<b>Your turn</b>: whist or pass?"),
            "open": tr("<b>Your turn</b>: play open or closed?"),
            "play": tr("<b>Your turn</b>: play a card."),
            "claim": tr("<b>Your turn</b>: accept the claim or play on?")}[view["phase"]]


def _buttons(view: dict[str, Any], acting: int, legal: list[str],
             ctx: RenderContext) -> list[tuple[Button, ...]]:
    tr = ctx.tr

    def button(action: str, label: str) -> Button:
        return Button(label, action_data(ctx.table_id, ctx.version, acting, action))

    phase = view["phase"]
    if phase == "discard":
        return _discard_buttons(view, acting, ctx)
    if phase == "play":
        playable = {a.partition(":")[2] for a in legal if a.startswith("play:")}
        rows = [tuple(button(f"play:{c}", card(c, tr)) for c in group)
                for group in by_suit(sorted(playable))]
        return rows + _claim_buttons(view, legal, button, ctx)
    if phase == "claim":
        return [tuple(button(a, choice_label(a, ctx)) for a in legal)]
    if phase == "open":
        return [(button("open:true", tr("Open")), button("open:false", tr("Closed")))]
    labels = [button(a, call_text(a.partition(":")[2], ctx)) for a in legal]
    return rows_of(labels, 5 if phase in ("bidding", "contract") else 3)


CONCEDE_SHOWN = 2  # "Concede 1" and "Concede 2"; "Concede all" besides when more are left


def _claim_buttons(view: dict[str, Any], legal: list[str], button: Any,
                   ctx: RenderContext) -> list[tuple[Button, ...]]:
    """Claim the rest, concede one or two, concede all (the claims the rules allow)."""
    left = 10 - view["tricks_done"]
    wanted = [left - k for k in range(CONCEDE_SHOWN + 1)] + [0]
    shown = [a for n in dict.fromkeys(w for w in wanted if w >= 0)
             if (a := f"claim:{n}") in legal]
    if not shown:
        return []
    return [tuple(button(a, choice_label(a, ctx, left)) for a in shown)]


def _discard_buttons(view: dict[str, Any], acting: int,
                     ctx: RenderContext) -> list[tuple[Button, ...]]:
    tr = ctx.tr
    chosen = sorted(ctx.selection)
    rows = []
    for group in by_suit(view["hand"]):
        rows.append(tuple(
            Button(("✅ " if c in chosen else "") + card(c, tr),
                   step_data(ctx.table_id, ctx.version, acting, c))
            for c in group))
    if len(chosen) == 2:
        action = DISCARD_PREFIX + ",".join(chosen)
        if action not in view["actions"][acting]:
            action = DISCARD_PREFIX + ",".join(reversed(chosen))
        rows.append((Button(tr("Discard {cards}", cards=cards(chosen, tr)),
                            action_data(ctx.table_id, ctx.version, acting, action)),))
    return rows


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """The discard: tapping a card selects or deselects it (two at most)."""
    if view["phase"] != "discard":
        raise ValueError("nothing to pick now")
    try:
        card = str(parse_card(token))
    except CardError:
        raise ValueError("not a card") from None
    if card not in view["hand"]:
        raise ValueError("you do not hold that card")
    if card in selection:
        return StepResult(selection - {card})
    if len(selection) >= 2:
        return StepResult(frozenset({*sorted(selection)[1:], card}))
    return StepResult(selection | {card})
