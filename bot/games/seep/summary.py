"""Seep deal results and the bazzi ledger: what the group reads after each deal and on /score."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.seep.table import team_names
from bot.ui.balances import ranking
from bot.ui.cards import cards
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.match import Match
from engine.seep.rules import Rules

LEDGER_LINES = 20  # deals listed on /score, the latest


def sides_of(names: list[str]) -> list[str]:
    """The two sides' names for a table of these players."""
    return team_names(names, Rules.from_dict({"players": len(names)}).teams)


def lead_text(lead: int, sides: list[str], tr: Translate) -> str:
    """The running lead as the side ahead and by how much (positive: the first side)."""
    if lead == 0:
        return tr("level")
    return f"{sides[0] if lead > 0 else sides[1]} +{abs(lead)}"


def _winner(bazzi: str | int) -> int:
    """The side a replay output's ``bazzi`` names ("NS"/"EW", or a seat with two players)."""
    return {"NS": 0, "EW": 1}[bazzi] if isinstance(bazzi, str) else bazzi


def deal_summary(output: dict[str, Any], final_view: dict[str, Any], ctx: RenderContext,
                 match: Match | None = None) -> str:
    """A finished deal: each side's card points, sweeps and score, the lead, a bazzi."""
    tr = ctx.tr
    names = ctx.names
    sides = sides_of(names)
    head = tr("<b>Deal {n}</b>", n=ctx.deal_no)
    if output["bid"] is None:
        return head + "\n" + tr(
            "Redeal: {name}'s first four cards ({cards}) have no 9 or higher.",
            name=escape(names[output["bidder"]]),
            cards=cards(final_view.get("bidder_cards", []), tr))
    lines = [head + " · " + tr("{dealer} dealt, {bidder} bid {bid}",
                                dealer=escape(names[output["dealer"]]),
                                bidder=escape(names[output["bidder"]]), bid=output["bid"])]
    rules = Rules.from_dict(ctx.rules)
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    for side, points, sweeps, score in zip(sides, output["card_points"], output["sweeps"],
                                           output["score"], strict=True):
        parts = [tr("{n} card point", "{n} card points", n=points)]
        middle, first, last = sweeps
        if middle:
            parts.append(tr("{n} × sweep (+{points})", n=middle, points=middle * worth[0]))
        if first:
            parts.append(tr("first-play sweep (+{points})", points=worth[1]))
        if last:
            parts.append(tr("last-play sweep (+{points})", points=worth[2]))
        bonus = score - points - sum(n * w for n, w in zip(sweeps, worth, strict=True))
        if bonus:
            parts.append(tr("most cards (+{points})", points=bonus))
        lines.append(tr("{side}: {parts} → <b>{score}</b>", side=side, parts=", ".join(parts),
                        score=score))
    lines.append(tr("Lead: {lead}", lead=lead_text(output["lead"], sides, tr)))
    if output["bazzi"] is not None:
        lines.append(_bazzi_line(output, sides, tr))
    return "\n".join(lines)


def _bazzi_line(output: dict[str, Any], sides: list[str], tr: Translate) -> str:
    winner = _winner(output["bazzi"])
    if output["reason"] == "under9":
        return tr("🏆 A bazzi to {side}: {other} scored under 9.", side=sides[winner],
                  other=sides[1 - winner])
    return tr("🏆 A bazzi to {side}: the lead reached the target.", side=sides[winner])


def after_deal(match: Match, ctx: RenderContext) -> str:
    """The bazzis won so far, and who deals next (after each deal)."""
    tr = ctx.tr
    sheet = match.sheet
    sides = sides_of(ctx.names)
    lines = [tr("Bazzis: {list} (the match: {k})", k=sheet.rules.bazzis, list=" · ".join(
        f"{side} {n}" for side, n in zip(sides, sheet.bazzis, strict=True)))]
    if not match.over:
        lines.append(tr("Next deal: {name} deals.", name=escape(ctx.names[sheet.dealer])))
    return "\n".join(lines)


def ledger_line(output: dict[str, Any], deal_no: int, sides: list[str], names: list[str],
                tr: Translate) -> str:
    """One deal of the ledger: the bid, both scores, the lead after it, a bazzi."""
    head = tr("Deal {n}", n=deal_no)
    if output["bid"] is None:
        return f"{head}: " + tr("redeal")
    if output.get("unfinished"):
        return f"{head}: " + tr("in play")
    text = f"{head}: " + tr("{bidder} bid {bid}; {one} {s1}, {other} {s2}; lead {lead}",
                            bidder=escape(names[output["bidder"]]), bid=output["bid"],
                            one=sides[0], s1=output["score"][0], other=sides[1],
                            s2=output["score"][1], lead=lead_text(output["lead"], sides, tr))
    if output["bazzi"] is not None:
        text += " · " + tr("🏆 bazzi to {side}", side=sides[_winner(output["bazzi"])])
    return text


def history_line(output: dict[str, Any], deal_no: int, names: list[str], tr: Translate) -> str:
    return ledger_line(output, deal_no, sides_of(names), names, tr)


def score_text(match: Match, ctx: RenderContext) -> str:
    """The bazzis, the running lead, the ledger's latest deals, and the balances."""
    tr = ctx.tr
    sheet = match.sheet
    sides = sides_of(ctx.names)
    status = tr("game over") if match.over else tr("deals played: {n}", n=len(match.outputs))
    lines = [tr("<b>Score</b> · Seep · a match of {n} bazzi · {status}",
                "<b>Score</b> · Seep · a match of {n} bazzis · {status}", n=sheet.rules.bazzis,
                status=status),
             tr("Bazzis: {list}", list=" · ".join(
                 f"{side} <b>{n}</b>" for side, n in zip(sides, sheet.bazzis, strict=True))),
             tr("Lead: {lead} (a bazzi at {target})", lead=lead_text(sheet.lead, sides, tr),
                target=sheet.rules.bazzi_target)]
    start = max(0, len(match.outputs) - LEDGER_LINES)
    if match.outputs:
        lines.append("")
        lines.extend(ledger_line(out, start + i + 1, sides, ctx.names, tr)
                     for i, out in enumerate(match.outputs[start:]))
    lines.append("")
    lines.append(settlement_text(match, ctx))
    if not match.over:
        lines.append(tr("Balances are the settlement if the game stopped now."))
    return "\n".join(lines)


def settlement_text(match: Match, ctx: RenderContext) -> str:
    """Each player's balance in bazzis (own side's bazzis less the other side's), best first."""
    return ranking(ctx.tr("<b>Settlement</b> (bazzis)"), match.sheet.settlement(), ctx.names)
