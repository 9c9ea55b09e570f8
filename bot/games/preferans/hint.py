"""A learner's hint on his panel (issue 34): the robot's suggestion and one line of why,
in the player's words (``engine.preferans.robot.hint``)."""

from __future__ import annotations

from typing import Any

from bot.games.preferans.table import call_text
from bot.ui.cards import card, cards
from bot.ui.context import RenderContext
from engine.cards import Suit


def _strain(letter: str, ctx: RenderContext) -> str:
    return ctx.tr("no trump") if letter == "NT" else Suit[letter].symbol


def action_text(action: str, ctx: RenderContext) -> str:
    """An action as the hint names it: a card, two cards, a call."""
    tr = ctx.tr
    kind, _, value = action.partition(":")
    if kind == "play":
        return card(value, tr)
    if kind == "discard":
        return cards(value.split(","), tr)
    if kind == "open":
        return tr("Open") if value == "true" else tr("Closed")
    if kind == "answer":
        return tr("✅ Accept") if value == "accept" else tr("❌ Refuse")
    return call_text(value, ctx)


def hint_line(hint: Any, ctx: RenderContext) -> str:
    """``💡 7♠: why``."""
    tr = ctx.tr
    f = hint.figures
    action = action_text(hint.action, ctx)
    tricks = f"{f['tricks']:g}" if "tricks" in f else ""
    if hint.why == "hand_tricks":
        return tr("💡 {action}: your hand looks worth about {tricks} tricks in {strain}.",
                  action=action, tricks=tricks, strain=_strain(f["strain"], ctx))
    if hint.why == "hand_short":
        return tr("💡 {action}: your hand looks worth only about {tricks} tricks, in {strain} "
                  "at best.", action=action, tricks=tricks, strain=_strain(f["strain"], ctx))
    if hint.why == "miser":
        return tr("💡 {action}: cards the defenders could catch on misère: {n}.",
                  action=action, n=f["dangers"])
    if hint.why == "defence":
        return tr("💡 {action}: your hand should take about {tricks} tricks in defence; the "
                  "whisters need {n}.", action=action, tricks=tricks, n=f["need"])
    if hint.why == "card" and f["counted"] == "own":
        return tr("💡 {action}: you then end with about {tricks} tricks on average ({n} deals "
                  "of the cards you cannot see).", action=action, tricks=tricks, n=f["deals"])
    if hint.why == "card":
        return tr("💡 {action}: the declarer then ends with about {tricks} tricks on average "
                  "({n} deals of the cards you cannot see).", action=action, tricks=tricks,
                  n=f["deals"])
    if hint.why == "only_card":
        return tr("💡 {action}: your only legal card.", action=action)
    if hint.why == "claim" and f["deals"] and not f["beaten"]:
        return tr("💡 {action}: the claim holds in every deal of the cards you cannot see "
                  "({n} tried).", action=action, n=f["deals"])
    if hint.why == "claim" and f["beaten"]:
        return tr("💡 {action}: the claim fails in {beaten} of {n} deals of the cards you "
                  "cannot see.", action=action, beaten=f["beaten"], n=f["deals"])
    if hint.why == "claim":
        return tr("💡 {action}: playing on costs nothing: the cards will tell.", action=action)
    return tr("💡 {action}: the usual choice with this hand.", action=action)
