"""The scoresheet as a readable text pulya, for `python -m engine sheet`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.preferans.bids import display
from engine.preferans.raspasy_states import has_states, min_bid

if TYPE_CHECKING:
    from engine.match import Match

VARIANT_NAMES = {"sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov"}


def sheet_text(match: Match) -> str:
    """Per player: pool, mountain, whists on each other player, balance."""
    sheet, rules, names = match.sheet, match.rules, match.players
    n = len(names)
    scored = len(sheet.history)
    status = "game over" if sheet.complete else "in progress"
    lines = [
        f"Preferans, {VARIANT_NAMES[rules.variant]}, {n} players, pool {rules.pool}: "
        f"{scored} deal{'s' * (scored != 1)} scored, {status}"
    ]
    if has_states(rules) and sheet.state > 1 and not sheet.complete:
        lines.append(f"Raspasy state {sheet.state}: bidding opens at "
                     f"{display(min_bid(rules, sheet.state))}")
    balances = sheet.balances()
    width = max(6, *(len(name) for name in names))
    cells = [
        [name, str(sheet.pool[x]), str(sheet.mountain[x]),
         *("·" if x == y else str(sheet.whists[x][y]) for y in range(n)),
         _balance(balances[x])]
        for x, name in enumerate(names)
    ]
    header = ["", "pool", "mountain", *names, "balance"]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(header))]
    widths[0] = width
    lines.append(" " * (sum(widths[:3]) + 6) + "whists on")
    for row in [header, *cells]:
        lines.append("  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip())
    if match.in_deal:
        lines.append("(a deal is in progress; it is not on the sheet yet)")
    return "\n".join(lines)


def _balance(value: int | float) -> str:
    return f"{value:+}" if value else "0"
