"""A finished Joker deal's statistics per seat, read from its output object (joker.md 17).

Each seat's bid is its ``contract``, made when it took exactly that many tricks;
``won``/``lost`` are the deal's points above and below zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import SeatStats


def seat_stats(seats: int, result: Mapping[str, Any]) -> list[SeatStats]:
    bids: Sequence[int] = result["bids"]
    tricks: Sequence[int] = result["tricks"]
    points: Sequence[float] = result["points"]
    return [
        SeatStats(seat=s, kind="deal", role="player", contract=str(bids[s]), level=bids[s],
                  made=tricks[s] == bids[s], tricks=tricks[s],
                  won=max(points[s], 0), lost=max(-points[s], 0))
        for s in range(seats)
    ]
