"""The Joker scoresheet as a picture: every deal of the schedule, pulka by pulka.

Rows are the deals (with their card counts, printed in advance as on a paper
sheet); each player has a bid/taken and a points column. A pulka's row shows
its totals with the premium adjustment beside them (★: on premium), then
come the game totals and the settlement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.ui.pictures.canvas import Picture
from bot.ui.pictures.numbers import number, signed
from bot.ui.pictures.parts import balance_cell, framed, status
from bot.ui.pictures.style import (
    INK,
    LOSS,
    MARGIN,
    MUTED,
    PREMIUM,
    SEAT_TINTS,
    SHADE,
    STAR,
    WIDTH,
)
from bot.ui.pictures.table import Cell, Column, Row, draw_table, table_height
from engine.cards import Suit

if TYPE_CHECKING:
    from engine.match import Match

DEAL_ROW = 38
DEAL_SIZE = 26
PULKA_ROW = 46
TOTAL_ROW = 52
LEAD = (Column(56, "center"), Column(64, "center"), Column(64, "center"))


def draw(match: Match, tr: Callable[[str], str]) -> Picture:
    report = match.report()
    n = len(match.players)
    columns = _columns(n)
    rows = _rows(match, report, tr)
    played = f"{len(match.sheet.results)}/{len(match.sheet.plan)}"
    return framed(tr("Joker"), status(tr, report["complete"], played), table_height(rows),
                  lambda canvas, top: draw_table(canvas, MARGIN, top, columns, rows),
                  _notes(match, report, tr))


def _columns(n: int) -> list[Column]:
    per = (WIDTH - 2 * MARGIN - sum(c.width for c in LEAD)) // n
    bid = int(per * 0.42)
    return [*LEAD, *(c for _ in range(n) for c in (Column(bid, "center", rule=True),
                                                   Column(per - bid)))]


def _rows(match: Match, report: dict[str, Any], tr: Callable[[str], str]) -> list[Row]:
    names, plan = match.players, match.sheet.plan
    deals, pulkas = report["deals"], report["pulkas"]
    rows = [
        Row([Cell(span=3), *(Cell(name, tag=("name", s), bold=True, span=2,
                                  shade=SEAT_TINTS[s % len(SEAT_TINTS)])
                             for s, name in enumerate(names))], height=TOTAL_ROW),
    ]
    for k, (pulka, cards) in enumerate(plan):
        shade = SHADE if pulka % 2 == 0 else None
        lead = [Cell(str(k + 1), fill=MUTED), Cell(str(cards), tag=("cards", k)),
                Cell(_trump(deals[k]["trump"], tr) if k < len(deals) else "",
                     fill=_suit_colour(deals[k]["trump"]) if k < len(deals) else INK)]
        cells = [c for s in range(len(names)) for c in _deal_cells(deals, k, s)]
        rows.append(Row([*lead, *cells], height=DEAL_ROW, size=DEAL_SIZE, shade=shade,
                        rule=k > 0 and plan[k - 1][0] != pulka))
        if k + 1 == len(plan) or plan[k + 1][0] != pulka:
            rows.append(_pulka_row(match, pulka, pulkas, tr, shade))
    totals, settlement = report["sheet"]["totals"], report["settlement"]
    rows.append(Row([Cell(tr("total"), tag=("header", "total"), bold=True, span=3),
                     *(Cell(number(t), tag=("total", s), bold=True, span=2)
                       for s, t in enumerate(totals))], height=TOTAL_ROW, rule=True))
    rows.append(Row([Cell(tr("balance"), tag=("header", "balance"), span=3, fill=MUTED),
                     *(balance_cell(b, ("balance", s), span=2)
                       for s, b in enumerate(settlement))], height=TOTAL_ROW))
    return rows


def _deal_cells(deals: list[dict[str, Any]], k: int, seat: int) -> tuple[Cell, Cell]:
    """Bid/taken and points of one seat in deal ``k`` (empty for deals not dealt yet)."""
    if k >= len(deals):
        return Cell(), Cell()
    deal = deals[k]
    bid, took = deal["bids"][seat], deal["tricks"][seat]
    text = f"{'–' if bid is None else bid}/{took}"
    if deal.get("unfinished"):
        return Cell(text, tag=("bid", k, seat), fill=MUTED), Cell("…", fill=MUTED)
    points = deal["points"][seat]
    return (Cell(text, tag=("bid", k, seat), bold=bid == took),
            Cell(number(points), tag=("points", k, seat), bold=bid == took,
                 fill=LOSS if points < 0 else INK))


def _pulka_row(match: Match, pulka: int, pulkas: list[dict[str, Any]],
               tr: Callable[[str], str], shade: str | None) -> Row:
    """A pulka's totals; the premium adjustment beside each, ★ for a player on premium."""
    label = Cell(tr("pulka {number}").format(number=pulka), tag=("header", "pulka", pulka),
                 bold=True, span=3)
    if pulka > len(pulkas):
        return Row([label, *(Cell(span=2) for _ in match.players)], height=PULKA_ROW,
                   shade=shade, rule=True)
    entry = pulkas[pulka - 1]
    on = _on_premium(match, pulka)
    cells = []
    for s, total in enumerate(entry["totals"]):
        bonus = entry["premium"][s]
        note = (STAR if on[s] else "") + (signed(bonus) if bonus else "")
        cells.append(Cell(number(total), tag=("pulka", pulka, s), bold=True, span=2, note=note,
                          note_fill=PREMIUM if bonus > 0 else LOSS))
    return Row([label, *cells], height=PULKA_ROW, shade=shade, rule=True)


def _on_premium(match: Match, pulka: int) -> list[bool]:
    """Who made every bid of a finished pulka exactly (spec 12.2)."""
    sheet = match.sheet
    results = [r for r in sheet.results if r.pulka == pulka]
    finished = len(results) == sum(1 for p, _ in sheet.plan if p == pulka)
    return [finished and all(r.bids[s] == r.tricks[s] for r in results)
            for s in range(len(match.players))]


def _trump(trump: str | None, tr: Callable[[str], str]) -> str:
    if trump is None:
        return "?"
    return tr("NT") if trump == "NT" else Suit[trump].symbol


def _suit_colour(trump: str | None) -> str:
    return LOSS if trump in ("D", "H") else INK


def _notes(match: Match, report: dict[str, Any], tr: Callable[[str], str]) -> list[str]:
    notes = [tr("Per deal: cards, trump; per player: bid/taken and points; bold: bid made"),
             tr("★ on premium; the premium is shown beside the pulka total")]
    teams = report["sheet"].get("teams")
    if teams:
        names = match.players
        notes.append(tr("Teams: {a} {ta} · {b} {tb}").format(
            a=f"{names[0]} + {names[2]}", ta=number(teams[0]),
            b=f"{names[1]} + {names[3]}", tb=number(teams[1])))
    if not report["complete"]:
        notes.append(tr("Balance as if the game ended now"))
    return notes
