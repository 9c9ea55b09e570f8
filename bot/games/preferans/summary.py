"""Preferans deal results and the score: what the group reads after each deal and on /score."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.preferans.options import OPTIONS
from bot.games.preferans.table import call_text, contract_text
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from engine.match import Match
from engine.preferans.bids import level
from engine.preferans.deal_entries import Note
from engine.preferans.settlement import shown_balances


def _number(value: float) -> str:
    return f"{value:+g}" if value else "0"


def deal_summary(output: dict[str, Any], final_view: dict[str, Any], ctx: RenderContext,
                 match: Match | None = None) -> str:
    """One finished deal: what was played, tricks, and what each player wrote; with the
    ``match`` that scored it, why each number was written."""
    tr = ctx.tr
    name = ctx.names
    lines = [tr("<b>Deal {n}</b>", n=ctx.deal_no)]
    kind, declarer, tricks = output["kind"], output["declarer"], output["tricks"]
    counted = [s for s in range(len(name)) if s in final_view["active"] or tricks[s]]
    trick_text = ", ".join(f"{escape(name[s])} {tricks[s]}" for s in counted)
    if kind == "raspasy":
        lines.append(tr("Raspasy: {tricks}", tricks=trick_text))
    elif kind == "walkaway":
        lines.append(tr("{name} walked away from {bid}", name=escape(name[declarer]),
                        bid=call_text(output["contract"], ctx)))
    elif kind == "miser":
        taken = tricks[declarer]
        lines.append(tr("{name} misère: made", name=escape(name[declarer])) if taken == 0 else
                     tr("{name} misère: caught with {n} trick",
                        "{name} misère: caught with {n} tricks", name=escape(name[declarer]),
                        n=taken))
    else:
        contract = call_text(output["contract"], ctx)
        calls = ", ".join(f"{escape(name[s])} {call_text(c, ctx)}" for s, c in final_view["whists"])
        if any(tricks):
            short = level(output["contract"]) - tricks[declarer]
            outcome = tr("made") if short <= 0 else tr("down {n}", n=short)
            lines.append(tr("{name} {contract}: {outcome}", name=escape(name[declarer]),
                            contract=contract, outcome=outcome))
            lines.append(tr("Tricks: {tricks}", tricks=trick_text))
        else:
            lines.append(tr("{name} {contract}: not played", name=escape(name[declarer]),
                            contract=contract))
        if calls:
            lines.append(tr("Whists: {calls}", calls=calls))
    notes = match.sheet.notes if match is not None else []
    if ctx.deal_no <= len(notes):
        lines.extend(explained_lines([Note(**n) for n in notes[ctx.deal_no - 1]], ctx))
    else:
        lines.extend(entry_lines(output["entries"], ctx))
    return "\n".join(lines)


def entry_lines(entries: dict[str, Any], ctx: RenderContext) -> list[str]:
    """What a deal wrote, without the reasons (a deal not scored yet)."""
    tr = ctx.tr
    name = ctx.names
    n = len(name)
    out = []
    pool = [f"{escape(name[s])} {_number(v)}" for s, v in enumerate(entries["pool"]) if v]
    if pool:
        out.append(tr("Pool: {entries}", entries=", ".join(pool)))
    mountain = [f"{escape(name[s])} {_number(v)}" for s, v in enumerate(entries["mountain"]) if v]
    if mountain:
        out.append(tr("Mountain: {entries}", entries=", ".join(mountain)))
    whists = [_whists(x, y, entries["whists"][x][y], ctx)
              for x in range(n) for y in range(n) if entries["whists"][x][y]]
    if whists:
        out.append(tr("Whists written: {entries}", entries=", ".join(whists)))
    if not (pool or mountain or whists):
        out.append(tr("Nothing written."))
    return out


def _whists(writer: int, target: int, n: int, ctx: RenderContext) -> str:
    return ctx.tr("{writer} on {target} {n}", writer=escape(ctx.names[writer]),
                  target=escape(ctx.names[target]), n=n)


def explained_lines(notes: list[Note], ctx: RenderContext) -> list[str]:
    """What a deal wrote, each number with its reason: "Mountain: Ann +4 (2 tricks short)"."""
    tr = ctx.tr
    out = []
    for where, label in (("pool", tr("Pool: {entries}")),
                         ("mountain", tr("Mountain: {entries}")),
                         ("whists", tr("Whists written: {entries}"))):
        items = []
        for note in (n for n in notes if n.where == where):
            number = (_whists(note.seat, note.target, note.amount, ctx)
                      if note.target is not None else
                      f"{escape(ctx.names[note.seat])} {_number(note.amount)}")
            items.append(f"{number} ({reason_text(note, ctx)})")
        if items:
            out.append(label.format(entries=", ".join(items)))
    return out or [tr("Nothing written.")]


def reason_text(note: Note, ctx: RenderContext) -> str:
    """Why a number was written, in the players' words."""
    tr, n = ctx.tr, note.count or 0
    if note.reason == "contract":
        return tr("the contract")
    if note.reason == "miser":
        return (tr("misère caught with {n} trick", "misère caught with {n} tricks", n=n) if n
                else tr("misère made"))
    if note.reason == "down":
        return tr("{n} trick short", "{n} tricks short", n=n)
    if note.reason == "walkaway":
        return tr("walked away: down three")
    if note.reason == "consolation":
        return tr("consolation: {n} trick short", "consolation: {n} tricks short", n=n)
    if note.reason == "tricks":
        return tr("{n} trick whisted", "{n} tricks whisted", n=n)
    if note.reason == "halfwhist":
        return tr("half-whist")
    if note.reason == "failed_whist":
        return tr("failed whist: the defence {n} trick short",
                  "failed whist: the defence {n} tricks short", n=n)
    if note.reason == "talon":
        return tr("talon premium: {n} quick trick", "talon premium: {n} quick tricks", n=n)
    if note.reason == "raspasy":
        return (tr("raspasy: {n} trick", "raspasy: {n} tricks", n=n) if note.where == "whists"
                else tr("raspasy: {n} trick over the fewest", "raspasy: {n} tricks over the fewest",
                        n=n))
    if note.reason == "zero_tricks":
        return tr("raspasy without a trick")
    if note.reason == "help":
        return tr("help from a full pool")
    assert note.reason == "written_off", note.reason
    return tr("a full pool, nobody to help: written off")


def after_deal(match: Match, ctx: RenderContext) -> str:
    """The sheet after the deal: each player's pool, mountain and balance so far."""
    tr = ctx.tr
    rules = match.sheet.rules
    n = len(ctx.names)
    pool, mountain = [0] * n, [0] * n
    whists = [[0] * n for _ in range(n)]
    for output in match.sheet.history[:ctx.deal_no]:
        entries = output["entries"]
        for x in range(n):
            pool[x] += entries["pool"][x]
            mountain[x] += entries["mountain"][x]
            for y in range(n):
                whists[x][y] += entries["whists"][x][y]
    balances = shown_balances(rules, pool, mountain, whists)
    lines = [tr("<b>After deal {n}</b> (a balance is the settlement if the game stopped now):",
                n=ctx.deal_no)]
    lines.extend(tr("{name}: pool {pool}/{target} · mountain {mountain} · balance {balance}",
                    name=escape(ctx.names[x]), pool=pool[x], target=rules.pool,
                    mountain=mountain[x], balance=_number(balances[x])) for x in range(n))
    return "\n".join(lines)


def score_text(match: Match, ctx: RenderContext) -> str:
    """The sheet now: pool, mountain, whists on each player, and the balance as if settled."""
    tr = ctx.tr
    sheet, rules, names = match.sheet, match.rules, ctx.names
    n = len(names)
    balances = sheet.balances()
    status = tr("game over") if match.over else tr("deals played: {n}", n=len(sheet.history))
    lines = [tr("<b>Score</b> · {variant} · pool {pool} · {status}",
                variant=tr(OPTIONS.name("variant", rules.variant)), pool=rules.pool, status=status)]
    for x in range(n):
        lines.append("")
        lines.append(tr("<b>{name}</b>: balance <b>{balance}</b>", name=escape(names[x]),
                        balance=_number(balances[x])))
        lines.append(tr("pool {pool}/{target} · mountain {mountain}", pool=sheet.pool[x],
                        target=rules.pool, mountain=sheet.mountain[x]))
        whists = [tr("on {name} {n}", name=escape(names[y]), n=sheet.whists[x][y])
                  for y in range(n) if y != x]
        lines.append(tr("whists: {list}", list=", ".join(whists)))
    if not match.over:
        lines.append("")
        lines.append(tr("Balances are the settlement if the game stopped now."))
    return "\n".join(lines)


def settlement_text(match: Match, ctx: RenderContext) -> str:
    """The final (or early-stop) settlement, best first."""
    tr = ctx.tr
    balances = match.sheet.balances()
    order = sorted(range(len(balances)), key=lambda s: -balances[s])
    lines = [tr("<b>Settlement</b> (whists)")]
    lines.extend(f"{i + 1}. {escape(ctx.names[s])}: <b>{_number(balances[s])}</b>"
                 for i, s in enumerate(order))
    return "\n".join(lines)


def history_line(output: dict[str, Any], deal_no: int, names: list[str], tr: Translate) -> str:
    """One line of /history: who played what and how it went."""
    kind, declarer, tricks = output["kind"], output["declarer"], output["tricks"]
    head = tr("Deal {n}", n=deal_no)
    if kind == "raspasy":
        counts = ", ".join(f"{escape(names[s])} {t}" for s, t in enumerate(tricks)
                           if t or s != output["dealer"] or len(names) == 3)
        return f"{head}: " + tr("raspasy ({tricks})", tricks=counts)
    who = escape(names[declarer])
    if kind == "walkaway":
        return f"{head}: " + tr("{name} walked away from {bid}", name=who,
                                 bid=contract_text(output["contract"], tr))
    if kind == "miser":
        taken = tricks[declarer]
        return f"{head}: " + (tr("{name} misère made", name=who) if taken == 0 else
                              tr("{name} misère, {n} trick", "{name} misère, {n} tricks", name=who,
                                 n=taken))
    contract = contract_text(output["contract"], tr)
    if not any(tricks):
        return f"{head}: " + tr("{name} {contract}, not played", name=who, contract=contract)
    short = level(output["contract"]) - tricks[declarer]
    outcome = tr("made") if short <= 0 else tr("down {n}", n=short)
    return f"{head}: {who} {contract} — {outcome}"
