"""The Seep bazzi ledger as a picture: one row per deal, the running lead between the sides.

The two sides' columns (partners' names stacked in the header) hold each
deal's score with a dot per sweep; the lead column between them points at
the side ahead (◀ or ▶) and by how much; ★ marks the bazzi won, in the
winner's column. The foot gives bazzis won and the settlement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.ui.pictures.canvas import Picture
from bot.ui.pictures.numbers import number
from bot.ui.pictures.parts import balance_cell, framed, status
from bot.ui.pictures.style import (
    BODY,
    MARGIN,
    MUTED,
    PREMIUM,
    SEAT_TINTS,
    SMALL,
    STAR,
)
from bot.ui.pictures.table import Cell, Column, Row, draw_table, table_height

if TYPE_CHECKING:
    from engine.match import Match

ROW = 44
FOOT_ROW = 52
MAX_DEALS = 40  # the latest deals shown; earlier ones are summed up in the bazzis
COLUMNS = (Column(56, "center"), Column(250, "left"), Column(76, "center"),
           Column(230, rule=True), Column(190, "center", rule=True), Column(230, rule=True))
SWEEP = "●"
AHEAD = ("◀ {lead}", "{lead} ▶")  # the arrow points at the side ahead


def draw(match: Match, tr: Callable[[str], str]) -> Picture:
    report = match.report()
    rows = _rows(match, report, tr)
    title = " · ".join((tr("Seep"), tr("bazzis to play: {count}").format(
        count=match.rules.bazzis)))
    return framed(title, status(tr, report["complete"], len(report["deals"])),
                  table_height(rows),
                  lambda canvas, top: draw_table(canvas, MARGIN, top, COLUMNS, rows),
                  _notes(match, report, tr))


def _rows(match: Match, report: dict[str, Any], tr: Callable[[str], str]) -> list[Row]:
    rules, names = match.rules, match.players
    teams = rules.teams
    header = [
        Row([Cell("#", fill=MUTED), Cell(tr("dealer"), fill=MUTED, tag=("header", "dealer")),
             Cell(tr("bid"), fill=MUTED, tag=("header", "bid")),
             _name(names, teams[0][0]), Cell(tr("lead"), fill=MUTED, tag=("header", "lead")),
             _name(names, teams[1][0])], height=ROW, size=SMALL),
    ]
    if len(teams[0]) > 1:
        header.append(Row([Cell(span=3), _name(names, teams[0][1]), Cell(),
                           _name(names, teams[1][1])], height=ROW, size=SMALL))
    deals = report["deals"]
    rows = [*header]
    for k in range(_hidden(deals), len(deals)):
        rows.append(_deal_row(match, deals[k], k, tr))
    bazzis, lead = report["sheet"]["bazzis"], report["sheet"]["lead"]
    rows.append(Row([Cell(tr("bazzis"), tag=("header", "bazzis"), bold=True, span=3),
                     Cell(str(bazzis[0]), tag=("bazzis", 0), bold=True),
                     _lead_cell(lead, ("lead",)),
                     Cell(str(bazzis[1]), tag=("bazzis", 1), bold=True)],
                    height=FOOT_ROW, size=BODY, rule=True))
    settlement = report["settlement"]
    balances = [settlement[team[0]] for team in teams]
    rows.append(Row([Cell(tr("balance"), tag=("header", "balance"), fill=MUTED, span=3),
                     balance_cell(balances[0], ("balance", 0)), Cell(),
                     balance_cell(balances[1], ("balance", 1))],
                    height=FOOT_ROW, size=BODY))
    return rows


def _name(names: list[str], seat: int) -> Cell:
    return Cell(names[seat], tag=("name", seat), bold=True, shade=SEAT_TINTS[seat % 2],
                align="center")


def _deal_row(match: Match, deal: dict[str, Any], k: int, tr: Callable[[str], str]) -> Row:
    names = match.players
    lead = [Cell(str(k + 1), fill=MUTED), Cell(names[deal["dealer"]], tag=("dealer", k))]
    if deal.get("unfinished") or deal["bid"] is None:
        mark, text = ("…", tr("in play")) if deal.get("unfinished") else ("–", tr("redeal"))
        return Row([*lead, Cell(mark, fill=MUTED), Cell(), Cell(text, fill=MUTED), Cell()],
                   height=ROW)
    winner = _winner(match, deal["bazzi"])
    cells = []
    for team in (0, 1):
        note = SWEEP * _sweeps(match, deal["sweeps"][team])
        if winner == team:
            note += STAR + (" " + tr("under 9") if deal["reason"] == "under9" else "")
        cells.append(Cell(str(deal["score"][team]), tag=("score", k, team), note=note,
                          note_fill=PREMIUM, bold=winner == team))
    shade = SEAT_TINTS[winner] if winner is not None else None
    return Row([*lead, Cell(str(deal["bid"]), tag=("bid", k)), cells[0],
                _lead_cell(deal["lead"], ("lead", k)), cells[1]], height=ROW, shade=shade)


def _hidden(deals: list[dict[str, Any]]) -> int:
    """How many of the first deals give way to the latest ``MAX_DEALS``."""
    return max(0, len(deals) - MAX_DEALS)


def _lead_cell(lead: int, tag: tuple[str | int, ...]) -> Cell:
    text = "0" if lead == 0 else AHEAD[0 if lead > 0 else 1].format(lead=number(abs(lead)))
    return Cell(text, tag=tag)


def _sweeps(match: Match, counted: list[int]) -> int:
    """Sweeps that scored: those of a kind worth something under the rules."""
    rules = match.rules
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    return sum(n for n, w in zip(counted, worth, strict=True) if w)


def _winner(match: Match, bazzi: str | int | None) -> int | None:
    """The side (0 or 1) that won a bazzi in this deal; replay names it "NS"/"EW" or by seat."""
    if bazzi is None:
        return None
    return next(t for t in (0, 1) if match.rules.team_name(t) == bazzi)


def _notes(match: Match, report: dict[str, Any], tr: Callable[[str], str]) -> list[str]:
    notes = [tr("◀ ▶ the side ahead and by how much; ● a sweep; ★ a bazzi won")]
    hidden = _hidden(report["deals"])
    if any(d["bid"] is None and not d.get("unfinished") for d in report["deals"][hidden:]):
        notes.append(tr("redeal: the bidder had no card of 9 or more"))
    if hidden:
        notes.append(tr("deals 1-{last} are not shown").format(last=hidden))
    if not report["complete"]:
        notes.append(tr("Balance in completed bazzis"))
    return notes
