"""Joker deal results, pulka premiums and the score: what the group reads after each deal,
at each pulka's end and on /score."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.joker.table import bid_text, trump_name
from bot.ui.balances import ranking, signed
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.match import Match


def _outcome(bid: int, taken: int, points: int, tr: Translate) -> str:
    """One player's deal: "bid 2, took 2 → +150", with khishti named."""
    text = tr("{bid}, took {taken} → {points}", bid=tr("bid {n}", n=bid) if bid else tr("pass"),
              taken=taken, points=signed(points))
    return text + " " + tr("(khishti)") if bid and not taken and points < 0 else text


def deal_summary(output: dict[str, Any], final_view: dict[str, Any], ctx: RenderContext,
                 match: Match | None = None) -> str:
    """A finished deal: each player's bid, tricks and points."""
    tr = ctx.tr
    lines = [tr("<b>Deal {n}</b> · {cards}-card deal · trump {trump}", n=ctx.deal_no,
                cards=output["cards"], trump=trump_name(output["trump"], tr))]
    for seat, (bid, taken, points) in enumerate(zip(output["bids"], output["tricks"],
                                                    output["points"], strict=True)):
        lines.append(f"{escape(ctx.names[seat])}: {_outcome(bid, taken, points, tr)}")
    return "\n".join(lines)


def after_deal(match: Match, ctx: RenderContext) -> str:
    """After the last deal of a pulka: its sums, premiums and totals, and the game totals;
    after another deal: the pulka's sums so far, and who is on course for its premium."""
    sheet = match.sheet
    done = len(sheet.results)
    if not done:
        return ""
    tr = ctx.tr
    if _in_pulka(match):
        number = sheet.plan[done - 1][0]
        line = tr("Pulka {n} so far: {list}", n=number,
                  list=_by_seat(match.report()["pulkas"][number - 1]["sums"], ctx))
        exact = _exact_so_far(match)
        if exact:
            line += "\n" + tr("Exact in every deal of this pulka so far: {names}",
                               names=", ".join(escape(ctx.names[s]) for s in exact))
        return line
    number = sheet.plan[done - 1][0]
    report = match.report()
    pulka = report["pulkas"][number - 1]
    lines = [tr("<b>Pulka {n} is over</b>", n=number)]
    for seat, name in enumerate(ctx.names):
        bonus = pulka["premium"][seat]
        line = f"{escape(name)}: {pulka['sums'][seat]}"
        if bonus:
            line += f" {signed(bonus)} = {pulka['totals'][seat]}"
        if bonus > 0:
            line += " " + tr("⭐ premium")
        lines.append(line)
    lines.append(tr("Game totals: {list}", list=_by_seat(report["sheet"]["totals"], ctx)))
    return "\n".join(lines)


def _by_seat(values: list[int], ctx: RenderContext) -> str:
    return " · ".join(f"{escape(name)} {v}" for name, v in zip(ctx.names, values, strict=True))


def score_text(match: Match, ctx: RenderContext) -> str:
    """Each pulka's totals (premiums marked), the game totals, who is exact so far, and the
    balances."""
    tr = ctx.tr
    sheet = match.sheet
    report = match.report()
    status = tr("game over") if match.over else tr("{n} of {total} deals played",
                                                   n=len(sheet.results), total=len(sheet.plan))
    lines = [tr("<b>Score</b> · Joker · {status}", status=status)]
    for number, pulka in enumerate(report["pulkas"], 1):
        size = sum(1 for p, _ in sheet.plan if p == number)
        played = sum(1 for r in sheet.results if r.pulka == number)
        head = (tr("Pulka {n}", n=number) if played == size else
                tr("Pulka {n} ({played} of {size} deals)", n=number, played=played, size=size))
        lines.append(f"{head}: {_by_seat(pulka['totals'], ctx)}")
        premium = [f"{escape(ctx.names[s])} {signed(b)}" for s, b in enumerate(pulka["premium"])
                   if b]
        if premium:
            lines.append(tr("premium: {list}", list=", ".join(premium)))
    lines.append(tr("<b>Totals</b>: {list}", list=_by_seat(report["sheet"]["totals"], ctx)))
    if "teams" in report["sheet"]:
        a, b = report["sheet"]["teams"]
        lines.append(tr("Pairs: {one} {a} · {two} {b}", one=_pair(ctx, 0), a=a,
                        two=_pair(ctx, 1), b=b))
    exact = _exact_so_far(match)
    if exact:
        lines.append(tr("Exact in every deal of this pulka so far: {names}",
                        names=", ".join(escape(ctx.names[s]) for s in exact)))
    lines.append("")
    lines.append(settlement_text(match, ctx))
    if not match.over:
        lines.append(tr("Balances are the settlement if the game stopped now."))
    return "\n".join(lines)


def _pair(ctx: RenderContext, team: int) -> str:
    return " &amp; ".join(escape(ctx.names[s]) for s in (team, team + 2))


def _in_pulka(match: Match) -> bool:
    """Whether a pulka has begun and is not finished (its next deal is still to come)."""
    plan, done = match.sheet.plan, len(match.sheet.results)
    return 0 < done < len(plan) and plan[done][0] == plan[done - 1][0]


def _exact_so_far(match: Match) -> list[int]:
    """The seats on course for the premium in the pulka being played."""
    sheet = match.sheet
    if not _in_pulka(match):
        return []
    pulka = sheet.plan[len(sheet.results)][0]
    deals = [r for r in sheet.results if r.pulka == pulka]
    return [s for s in range(sheet.rules.players)
            if all(r.bids[s] == r.tricks[s] for r in deals)]


def settlement_text(match: Match, ctx: RenderContext) -> str:
    """Each player's balance in points (the sum of the differences to the others), best first."""
    return ranking(ctx.tr("<b>Settlement</b> (points)"), match.report()["settlement"], ctx.names)


def history_line(output: dict[str, Any], deal_no: int, names: list[str], tr: Translate) -> str:
    """One line of /history: cards, trump, and each player's bid/taken and points."""
    head = tr("Deal {n} ({cards}-card deal, {trump})", n=deal_no, cards=output["cards"],
              trump=trump_name(output["trump"], tr))
    seats = " · ".join(f"{escape(name)} {bid_text(b, tr)}/{t} {signed(p)}"
                       for name, b, t, p in zip(names, output["bids"], output["tricks"],
                                                output["points"], strict=True))
    return f"{head}: {seats}"
