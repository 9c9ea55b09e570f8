"""A finished Seep deal's statistics per seat, read from its output object (seep.md 15).

The bidder undertook his bid (``contract``); ``won``/``lost`` are his side's deal
score and the other side's. A redeal (no card of 9 or more) has no lines: nothing
was played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import SeatStats


def seat_stats(seats: int, result: Mapping[str, Any]) -> list[SeatStats]:
    bid = result["bid"]
    if bid is None:
        return []
    score: Sequence[float] = result["score"]
    lines = []
    for s in range(seats):
        team = s % 2  # NS = seats 0 and 2, EW = 1 and 3 (seep.md section 3)
        bidder = s == result["bidder"]
        lines.append(SeatStats(
            seat=s, kind="deal", role="bidder" if bidder else "player",
            contract=str(bid) if bidder else None, level=bid if bidder else None,
            won=score[team], lost=score[1 - team],
        ))
    return lines
