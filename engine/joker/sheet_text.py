"""The Joker scoresheet as text, for `python -m engine sheet`."""

from __future__ import annotations

from typing import Any

from engine.match import Match

WIDTH = 12


def _row(label: str, cells: list[Any]) -> str:
    return f"{label:<18}" + "".join(f"{c!s:>{WIDTH}}" for c in cells)


def sheet_text(match: Match) -> str:
    """Per deal "bid/taken points" for each seat, pulka sums, premiums and totals."""
    report = match.report()
    plan = match.sheet.plan
    lines = [_row("deal cards trump", [name[:WIDTH - 1] for name in match.players])]
    pulkas = report["pulkas"]
    for k, deal in enumerate(report["deals"]):
        bids = ["-" if b is None else b for b in deal["bids"]]
        cells = [f"{b}/{t} {p}" for b, t, p in zip(bids, deal["tricks"], deal["points"],
                                                    strict=True)]
        mark = " …" if deal.get("unfinished") else ""
        lines.append(_row(f"{k + 1:>4} {deal['cards']:>5} {deal['trump'] or '?':>5}{mark}", cells))
        pulka = plan[k][0]
        last_of_pulka = k + 1 == len(report["deals"]) or plan[k + 1][0] != pulka
        if last_of_pulka and pulka <= len(pulkas):
            entry = pulkas[pulka - 1]
            lines += [_row(f"pulka {pulka} sums", entry["sums"]),
                      _row("  premium", entry["premium"]),
                      _row("  totals", entry["totals"])]
    lines.append(_row("game totals", report["sheet"]["totals"]))
    if "teams" in report["sheet"]:
        lines.append(_row("teams (0+2, 1+3)", report["sheet"]["teams"]))
    lines.append(_row("settlement", report["settlement"]))
    if not report["complete"]:
        lines.append("(game not finished)")
    return "\n".join(lines)
