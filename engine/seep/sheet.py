"""The bazzi ledger as text, for ``python -m engine sheet``."""

from __future__ import annotations

from engine.match import Match


def sheet_text(match: Match) -> str:
    """One line per deal (dealer, bid, scores, lead, bazzi), then the bazzis won."""
    names = match.players
    sides = ["NS", "EW"] if len(names) == 4 else names
    report = match.report()
    lines = []
    for number, out in enumerate(report["deals"], 1):
        head = f"{number:>3}. dealer {names[out['dealer']]}"
        if out.get("unfinished"):
            lines.append(f"{head}: unfinished after {out['plays']} plays")
        elif out["bid"] is None:
            lines.append(f"{head}: redeal (no card of 9 or more)")
        else:
            s0, s1 = out["score"]
            text = (f"{head}, bid {out['bid']}: {sides[0]} {s0}, {sides[1]} {s1}, "
                    f"lead {out['lead']:+d}")
            if out["bazzi"] is not None:
                winner = out["bazzi"] if isinstance(out["bazzi"], str) else names[out["bazzi"]]
                why = "under nine" if out["reason"] == "under9" else "lead"
                text += f"; bazzi to {winner} ({why})"
            lines.append(text)
    b0, b1 = report["sheet"]["bazzis"]
    lines.append(f"bazzis: {sides[0]} {b0}, {sides[1]} {b1}; lead {report['sheet']['lead']:+d}")
    return "\n".join(lines)
