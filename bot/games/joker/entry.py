"""Joker deals entered in the group: trump, each bid, each player's tricks.

The bids offered are those the deal's own bidding rules allow, so the
dealer's forbidden bid (and a pass beyond ``pass_limit``) has no button; the
last trick count is the rest of the deal's cards and is not asked.
"""

from __future__ import annotations

from typing import Any

from bot.games.entry import EntryUI, who
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.cards import SUIT_WORDS, Suit
from engine.joker.manual import Form
from engine.manual import EntryForm, Step


class JokerEntry(EntryUI):
    game = "joker"

    def question(self, form: EntryForm, step: Step, entry: Any, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        tr, name = ctx.tr, who(ctx, step.seat)
        if step.name == "trump":
            return (tr("Trump? ({name} chose it)", name=name) if step.seat is not None
                    else tr("Trump?"))
        if step.name == "bid":
            barred = [str(b) for b in range(form.cards + 1) if b not in step.choices]
            if barred and step.seat == form.dealer:
                return tr("{name}'s bid? The dealer may not bid {bids}.", name=name,
                          bids=", ".join(barred))
            return tr("{name}'s bid?", name=name)
        return tr("{name}'s tricks?", name=name)

    def choice(self, step: Step, value: Any, ctx: RenderContext) -> str:
        if step.name == "trump":
            return Suit[value].symbol if value != "NT" else ctx.tr("no trump")
        return str(value)

    def answer(self, form: EntryForm, step: Step, value: Any, ctx: RenderContext) -> str:
        tr, name = ctx.tr, who(ctx, step.seat)
        if step.name == "trump":
            return tr("trump {suit}", suit=self.choice(step, value, ctx))
        if step.name == "bid":
            return tr("{name} bid {n}", name=name, n=value)
        return tr("{name} took {n}", name=name, n=value)

    def width(self, step: Step) -> int:
        return 5

    def spellings(self, step: Step, value: Any) -> tuple[str, ...]:
        if step.name == "trump" and value == "NT":
            return value, "бк", "б/к"
        if step.name == "trump":
            return value, *(w for w, suit in SUIT_WORDS.items() if suit == value)
        return (str(value),)

    def deal_line(self, form: EntryForm, ctx: RenderContext) -> str:
        assert isinstance(form, Form)
        context = form.context
        return ctx.tr("pulka {pulka}, {cards} cards", pulka=context.pulka, cards=context.cards)

    def text_help(self, tr: Translate) -> str:
        return tr(
            "<b>A Joker deal in one line</b>: the trump (S C D H or NT), then the bids in "
            "bidding order (from the dealer's left, the dealer last), then the tricks in the "
            "same order; the last count may be left out.\n"
            "Example: <code>/deal H 2 3 1 2 3 2 3 1</code>")


ENTRY = JokerEntry()
