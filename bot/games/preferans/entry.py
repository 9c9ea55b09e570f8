"""Preferans deals entered in the group: the steps of ``engine.preferans.manual``.

Buttons: the declarer (with misère or walk-away beside his name) or raspasy
in one press; the contract; both defenders' whist calls in one press
("pass · half-whist · whist"); the talon's quick tricks where the talon
premium is played; the trick counts scoring needs; the lone whister's open or
closed play (optional). A common deal takes five to seven presses with Save.
The text form is ``engine.preferans.manual_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.entry import EntryUI, who
from bot.games.preferans.table import call_text, contract_text
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.manual import EntryForm, Step
from engine.preferans.manual import Entry, Form
from engine.preferans.manual_text import GAME, MISERE, RASPASY, WALKAWAY


class PreferansEntry(EntryUI):
    game = "preferans"

    def question(self, form: EntryForm, step: Step, entry: Any, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        tr, name = ctx.tr, who(ctx, step.seat)
        if step.name in ("kind", "declarer"):
            return tr("Who declared? Tap his name, or Raspasy if all passed.")
        if step.name == "contract":
            if entry.kind == WALKAWAY:
                return tr("{name} walked away: what was his winning bid?", name=name)
            return tr("{name}'s contract?", name=name)
        if step.name == "call":
            second = next(s for s in form.active if s not in (entry.declarer, step.seat))
            return tr("Whist calls: {first}, then {second}?", first=name,
                      second=who(ctx, second))
        if step.name == "talon":
            return tr("Quick tricks in the talon? An ace or a king with its queen 1, ace and "
                      "king 2, two aces 3.")
        if step.name == "tricks":
            if entry.kind == RASPASY and step.seat == form.dealer:
                return tr("{name}'s tricks with the talon cards?", name=name)
            return tr("{name}'s tricks?", name=name)
        return tr("Did {name} play open or closed? You may skip it: ✅ Save.", name=name)

    def choice(self, step: Step, value: Any, ctx: RenderContext) -> str:
        tr = ctx.tr
        if step.name == "kind":
            return {GAME: tr("game"), MISERE: tr("misère"), RASPASY: tr("Raspasy"),
                    WALKAWAY: tr("walk away")}[value]
        if step.name == "declarer":
            return who(ctx, value)
        if step.name in ("contract", "call"):
            return call_text(value, ctx)
        if step.name == "open":
            return tr("open") if value else tr("closed")
        return str(value)

    def label(self, path: Sequence[tuple[Step, Any]], ctx: RenderContext) -> str:
        tr = ctx.tr
        (first, kind), *rest = path
        if first.name != "kind":
            return super().label(path, ctx)
        if kind == RASPASY:
            return tr("Raspasy (all passed)")
        name = who(ctx, rest[0][1])
        if kind == MISERE:
            return tr("{name}: misère", name=name)
        if kind == WALKAWAY:
            return tr("{name}: walked away", name=name)
        return name

    def answer(self, form: EntryForm, step: Step, value: Any, ctx: RenderContext) -> str:
        tr, name = ctx.tr, who(ctx, step.seat)
        if step.name == "kind":
            return {RASPASY: tr("raspasy"), WALKAWAY: tr("walked away")}.get(value, "")
        if step.name == "declarer":
            return who(ctx, value)
        if step.name == "contract":
            return call_text(value, ctx)
        if step.name == "call":
            return tr("{name} {call}", name=name, call=call_text(value, ctx))
        if step.name == "talon":
            return tr("talon {n}", n=value)
        if step.name == "tricks":
            return tr("{name} took {n}", name=name, n=value)
        return tr("open") if value else tr("closed")

    def merge(self, step: Step, value: Any, following: Step) -> bool:
        return (step.name == "kind" and following.name == "declarer") or (
            step.name == following.name == "call")

    def width(self, step: Step) -> int:
        return {"contract": 5, "call": 2, "talon": 4, "open": 2}.get(step.name, 6)

    def group(self, step: Step, path: Sequence[tuple[Step, Any]]) -> Any:
        """The first screen: one row per declarer (his game, misère, walk-away)."""
        if step.name == "kind":
            return path[1][1] if len(path) > 1 else RASPASY
        return None

    def deal_line(self, form: EntryForm, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        state = form.context.raspasy_state
        if state == 1:
            return ""
        return ctx.tr("raspasy state {n}: contracts from {bid}", n=state,
                      bid=contract_text(form.context.min_bid, ctx.tr))

    def final_view(self, form: EntryForm, entry: Any) -> dict[str, Any]:
        """The summary lists the players whose tricks were entered (and any count the
        result derives, such as the defence's rest on a lone whister), not a passer's 0."""
        assert isinstance(entry, Entry)
        return {"active": [s for s, _ in entry.tricks],
                "whists": [[s, c] for s, c in entry.calls]}

    def parse(self, form: EntryForm, text: str) -> Any:
        assert isinstance(form, Form)
        return form.parse(text)

    def to_text(self, form: EntryForm, entry: Any,
                answered: Sequence[tuple[Step, Any]]) -> str:
        assert isinstance(form, Form)
        return form.to_text(entry)

    def text_help(self, tr: Translate) -> str:
        return tr(
            "<b>A Preferans deal in one line</b>: parts separated by ; (or a comma), "
            "players by name, the start of a name, or #1…#4.\n"
            "• the contract and the declarer with his result: <code>7H Ann made</code>, "
            "<code>7H Ann down 1</code> or his tricks <code>7H Ann 6</code>; suits S C D H, "
            "NT; <code>miser Ann 0</code>; <code>raspasy Ann 2 Bob 3 Cid 5</code> (one count "
            "may be left out); <code>walkaway 7S Ann</code>;\n"
            "• each defender: his call <code>whist</code>, <code>pass</code> or "
            "<code>halfwhist</code>, then his tricks if they count;\n"
            "• <code>open</code> or <code>closed</code> for a lone whister (optional); "
            "<code>talon AH KH</code> or <code>talon 2</code> where the talon premium is "
            "played.\n"
            "Examples:\n"
            "<code>/deal 7H Ann made; Bob whist 3; Cid pass</code>\n"
            "<code>/deal 6S Ann 6; Bob whist 2; Cid whist 2</code>\n"
            "<code>/deal 6H Ann; Bob pass; Cid halfwhist</code>\n"
            "<code>/deal 7ч Аня без 1; Боря вист; Вика пас</code> (Russian words work too)")



ENTRY = PreferansEntry()
