"""A finished deal's analysis (``engine.preferans.analysis``) in the players' words: what
the contract could make with every hand open, each costly card and what it cost."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games.preferans.table import contract_text
from bot.ui.cards import card
from bot.ui.context import RenderContext


def _costly(item: dict[str, Any], found: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    seat, n = item["seat"], item["tricks"]
    values = {"trick": item["trick"], "name": escape(ctx.names[seat]),
              "card": card(item["card"], tr), "kept": card(item["kept"], tr), "n": n}
    if found["declarer"] is None:
        text = tr("Trick {trick}: {name}'s {card} cost {n} trick; {kept} kept it.",
                  "Trick {trick}: {name}'s {card} cost {n} tricks; {kept} kept it.",
                  **values)
    elif seat == found["declarer"]:
        text = tr("Trick {trick}: {name}'s {card} cost the declarer {n} trick; {kept} kept it.",
                  "Trick {trick}: {name}'s {card} cost the declarer {n} tricks; {kept} kept it.",
                  **values)
    else:
        text = tr("Trick {trick}: {name}'s {card} cost the defence {n} trick; {kept} kept it.",
                  "Trick {trick}: {name}'s {card} cost the defence {n} tricks; {kept} kept it.",
                  **values)
    whists = f"{item['whists']:g}"
    if item["whists"]:
        text += " " + tr("({whists} whists)", whists=whists)
    return text


def _head(found: dict[str, Any], ctx: RenderContext) -> str:
    tr = ctx.tr
    tricks = found["tricks"]
    if found["declarer"] is None:
        fewest = ", ".join(f"{escape(ctx.names[s])} {n}" for s, n in enumerate(found["fewest"])
                           if n is not None)
        return tr("Raspasy: the fewest tricks each could take: {list}.", list=fewest)
    name = escape(ctx.names[found["declarer"]])
    if found["contract"] == "miser":
        head = (tr("{name}'s misère could be caught.", name=name) if found["catchable"] else
                tr("{name}'s misère could not be caught.", name=name))
        let_go = found["let_go"]
        if let_go is not None:
            who = escape(ctx.names[let_go["seat"]])
            head += " " + tr("Trick {trick}: {who}'s {card} let it go; {kept} would have "
                             "caught it.", trick=let_go["trick"], who=who,
                             card=card(let_go["card"], tr), kept=card(let_go["kept"], tr))
        return head
    return tr("{contract}: {name} could take {n} trick, took {taken}.",
              "{contract}: {name} could take {n} tricks, took {taken}.",
              contract=contract_text(found["contract"], tr), name=name, n=found["par"],
              taken=tricks[found["declarer"]])


def analysis_text(found: dict[str, Any] | None, ctx: RenderContext) -> str:
    """The analysis of deal ``ctx.deal_no``."""
    tr = ctx.tr
    lines = [tr("🔍 <b>Deal {n}: every hand open</b>", n=ctx.deal_no)]
    if found is None or not found["played"]:
        lines.append(tr("The cards were not played out: there is nothing to analyse."))
        return "\n".join(lines)
    lines.append(_head(found, ctx))
    costly = found["costly"]
    lines.extend(_costly(item, found, ctx) for item in costly)
    if not costly:
        lines.append(tr("Nobody's card cost a trick."))
    return "\n".join(lines)
