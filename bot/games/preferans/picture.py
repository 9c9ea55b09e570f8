"""The Preferans scoresheet as a picture: the pulya ruled for 3 or 4 players, and a legend.

Sections hold running entries as players write them (``2.4.8``: each new
total after a dot), read from the sheet's deal history; the legend gives each
player's totals and the settlement as if the game were settled now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.games.preferans.picture_layout import CIRCLE, NAME_BAND, NAME_GAP, PulyaLayout, layout
from bot.games.preferans.table import contract_text
from bot.ui.pictures.canvas import Canvas, Picture, Rect, fitting_size
from bot.ui.pictures.numbers import number, signed
from bot.ui.pictures.parts import balance_cell, framed, status
from bot.ui.pictures.style import (
    BODY,
    INK,
    LINE,
    MARGIN,
    MOUNTAIN,
    MUTED,
    PAPER,
    POOL,
    SEAT_TINTS,
    SMALL,
    SMALLEST,
    WHISTS,
    WIDTH,
)
from bot.ui.pictures.table import PAD, Cell, Column, Row, draw_table, table_height
from engine.preferans.raspasy_states import has_states, min_bid

if TYPE_CHECKING:
    from engine.match import Match

SHEET_HEIGHT = {3: 960, 4: 1032}
ROW = 54
HEADER_ROW = 44
SEQUENCE_SIZES = (34, 30, 26, 22)
WHIST_SIZES = (30, 26, 22)


def draw(match: Match, tr: Callable[[str], str]) -> Picture:
    legend = _legend(match, tr)
    band = NAME_GAP + NAME_BAND  # for the names above and below the sheet
    sheet_height = SHEET_HEIGHT[len(match.players)]
    legend_top = band + sheet_height + band + MARGIN

    def body(canvas: Canvas, top: float) -> float:
        _draw_sheet(canvas, match, tr, Rect(MARGIN, top + band, WIDTH - MARGIN,
                                            top + band + sheet_height))
        return draw_table(canvas, MARGIN, top + legend_top, _LEGEND_COLUMNS, legend)

    rules = match.rules
    variant = {"sochi": tr("Sochi"), "leningrad": tr("Leningrad"), "rostov": tr("Rostov")}
    title = " · ".join((tr("Preferans"), variant[rules.variant],
                        tr("pool {target}").format(target=rules.pool)))
    return framed(title, status(tr, match.sheet.complete, len(match.sheet.history)),
                  legend_top + table_height(legend), body, _notes(match, tr))


def _draw_sheet(canvas: Canvas, match: Match, tr: Callable[[str], str], rect: Rect) -> None:
    """The ruled pulya in ``rect``, the names around it, every section's running entries."""
    names, history = match.players, match.sheet.history
    n = len(names)
    plan = layout(n, rect)
    _rule(canvas, plan)
    cx, cy = plan.centre
    canvas.label(Rect(cx - CIRCLE, cy - CIRCLE / 2, cx + CIRCLE, cy + CIRCLE / 2),
                 str(match.rules.pool), size=44, bold=True, tag=("target",))
    for x in range(n):
        canvas.label(plan.names[x][0], names[x], size=BODY, bold=True, align=plan.names[x][1],
                     backdrop=SEAT_TINTS[x], tag=("name", x))
        canvas.sequence(plan.pool[x], _running(history, lambda e, x=x: e["pool"][x]),
                        sizes=SEQUENCE_SIZES, bold=True, fill=POOL, tag=("pool", x))
        canvas.sequence(plan.mountain[x], _running(history, lambda e, x=x: e["mountain"][x]),
                        sizes=SEQUENCE_SIZES, fill=MOUNTAIN, tag=("mountain", x))
        for y in range(n):
            if x != y:
                _whists(canvas, plan.whists[x, y], tr("on {name}").format(name=names[y]),
                        _running(history, lambda e, x=x, y=y: e["whists"][x][y]), (x, y))


def _running(history: list[dict[str, Any]], entry: Callable[[dict[str, Any]], int]) -> list[str]:
    """The section's total after every deal that wrote something in it."""
    tokens, total = [], 0
    for deal in history:
        if delta := entry(deal["entries"]):
            total += delta
            tokens.append(number(total))
    return tokens


def _rule(canvas: Canvas, plan: PulyaLayout) -> None:
    draw = canvas.draw
    for seat, polygon in enumerate(plan.sectors):
        draw.polygon(polygon, fill=SEAT_TINTS[seat])
    for polyline in plan.lines:
        draw.line(polyline, fill=LINE, width=3, joint="curve")
    cx, cy = plan.centre
    draw.ellipse((cx - CIRCLE, cy - CIRCLE, cx + CIRCLE, cy + CIRCLE), fill=PAPER, outline=LINE,
                 width=3)


def _whists(canvas: Canvas, slot: Rect, caption: str, tokens: list[str],
            seats: tuple[int, int]) -> None:
    """A whist section: whom it is written on, then the running totals."""
    head = SMALLEST + 6
    canvas.label(Rect(slot.left, slot.top, slot.right, slot.top + head), caption,
                 size=SMALLEST, fill=MUTED, tag=("on", *seats))
    canvas.sequence(Rect(slot.left, slot.top + head, slot.right, slot.bottom), tokens,
                    sizes=WHIST_SIZES, fill=WHISTS, top=True, tag=("whists", *seats))


_LEGEND_COLUMNS = (Column(462, "left"), Column(110), Column(140), Column(140), Column(180))


def _legend(match: Match, tr: Callable[[str], str]) -> list[Row]:
    """Per player: pool, mountain, net whists and the balance, under a header."""
    sheet, names = match.sheet, match.players
    n = len(names)
    balances = sheet.balances()
    labels = ((tr("player"), MUTED), (tr("pool"), POOL), (tr("mountain"), MOUNTAIN),
              (tr("whists"), WHISTS), (tr("balance"), INK))
    rows = [Row([Cell(text, tag=("header", k), fill=fill) for k, (text, fill) in enumerate(labels)],
                height=HEADER_ROW, size=SMALL)]
    size = fitting_size(names, BODY, True, _LEGEND_COLUMNS[0].width - 2 * PAD)  # one for all
    for x in range(n):
        net = sum(sheet.whists[x][y] - sheet.whists[y][x] for y in range(n))
        rows.append(Row([
            Cell(names[x], tag=("legend-name", x), bold=True, shade=SEAT_TINTS[x], size=size),
            Cell(number(sheet.pool[x]), tag=("total-pool", x), fill=POOL),
            Cell(number(sheet.mountain[x]), tag=("total-mountain", x), fill=MOUNTAIN),
            Cell(signed(net), tag=("total-whists", x), fill=WHISTS),
            balance_cell(balances[x], ("balance", x)),
        ], height=ROW, rule=x == 0))
    return rows


def _notes(match: Match, tr: Callable[[str], str]) -> list[str]:
    sheet, rules = match.sheet, match.rules
    balance = (tr("Final balance in whists") if sheet.complete
               else tr("Balance in whists as if the game ended now"))
    rounding = {"integer": tr("rounded to whole whists"),
                "divisible_by_n": tr("mountains made divisible by the number of players")}
    notes = [", ".join((balance, rounding[rules.settlement_rounding]))
             if rules.settlement_rounding in rounding else balance]
    if has_states(rules) and sheet.state > 1 and not sheet.complete:
        notes.append(tr("Raspasy state {state}: bidding opens at {bid}").format(
            state=sheet.state, bid=contract_text(min_bid(rules, sheet.state),
                                  lambda text, **values: tr(text).format(**values))))
    if match.in_deal:
        notes.append(tr("A deal is in progress; it is not on the sheet yet"))
    return notes
