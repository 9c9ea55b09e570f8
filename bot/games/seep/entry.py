"""Seep deals entered in the group: the bid, each team's card points and sweeps.

Card points (and captured cards, with a majority bonus) are typed on a
keypad; the second team's are the rest of the pack's and are not asked.
"""

from __future__ import annotations

from typing import Any

from bot.games.entry import EntryUI, who
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.manual import EntryForm, Step
from engine.seep.manual import Form

TEAM_STEPS = ("points", "cards", "sweeps")
YES, NO = ("1", "yes", "y", "да"), ("0", "no", "n", "нет")


class SeepEntry(EntryUI):
    game = "seep"

    def question(self, form: EntryForm, step: Step, entry: Any, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        tr, name = ctx.tr, who(ctx, step.seat)
        if step.name == "bid":
            return tr("{name}'s bid?", name=name)
        if step.name == "first_sweep":
            return tr("Did {name} sweep with the first play?", name=name)
        if step.name == "last_sweep":
            return tr("Did {name}, the dealer, sweep with the last play?", name=name)
        team = _team(form, step, ctx)
        if step.name == "points":
            return tr("Card points of {team}?", team=team)
        if step.name == "cards":
            return tr("Cards captured by {team}?", team=team)
        return tr("Other sweeps of {team}?", team=team)

    def choice(self, step: Step, value: Any, ctx: RenderContext) -> str:
        if step.name in ("first_sweep", "last_sweep"):
            return ctx.tr("yes") if value else ctx.tr("no")
        return str(value)

    def answer(self, form: EntryForm, step: Step, value: Any, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        tr = ctx.tr
        if step.name == "bid":
            return tr("{name} bid {n}", name=who(ctx, step.seat), n=value)
        if step.name in ("first_sweep", "last_sweep"):
            return tr("{name} swept", name=who(ctx, step.seat)) if value else ""
        team = _team(form, step, ctx)
        if step.name == "points":
            return tr("{team} {n} points", team=team, n=value)
        if step.name == "cards":
            return tr("{team} {n} cards", team=team, n=value)
        return tr("{team} {n} sweeps", team=team, n=value)

    def width(self, step: Step) -> int:
        return 5 if step.name == "bid" else 6

    def spellings(self, step: Step, value: Any) -> tuple[str, ...]:
        if step.name in ("first_sweep", "last_sweep"):
            return YES if value else NO
        return (str(value),)

    def deal_line(self, form: EntryForm, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        return ctx.tr("{name} bids", name=who(ctx, form.bidder))

    def text_help(self, tr: Translate) -> str:
        return tr(
            "<b>A Seep deal in one line</b>: the bid, the card points of North-South then "
            "East-West (the second may be left out), captured cards where the majority bonus "
            "is played, 1 or 0 for a sweep on the first play and on the last, then the other "
            "sweeps of North-South and East-West.\n"
            "Example: <code>/deal 13 62 38 1 0 1 0</code>")


def _team(form: Form, step: Step, ctx: RenderContext) -> str:
    """A team step's team by its players' names (with two players, the player)."""
    team = step.seat or 0
    rules = form.rules
    return " & ".join(who(ctx, s) for s in range(rules.players) if rules.team(s) == team)


ENTRY = SeepEntry()
