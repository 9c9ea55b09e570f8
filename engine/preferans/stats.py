"""A finished Preferans deal's statistics per seat, read from its output object (records.md).

Roles: ``declarer``, ``defender``, ``out`` (the 4-player dealer), ``raspasy``; a
declarer's ``made`` is his contract or misère fulfilled (a contract the
defenders let through unplayed is made, a walk-away is not); ``won``/``lost``
are the whists the seat wrote and those written on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import SeatStats
from engine.preferans.bids import MISER, level


def seat_stats(seats: int, result: Mapping[str, Any]) -> list[SeatStats]:
    kind = result["kind"]
    declarer = result.get("declarer")
    contract = result.get("contract")
    tricks: Sequence[int] = result["tricks"]
    whists: Sequence[Sequence[float]] = result["entries"]["whists"]
    bid_level = level(contract) if kind in ("game", "walkaway") else None
    lines = []
    for s in range(seats):
        made = None
        if seats == 4 and s == result["dealer"]:
            role = "out"
        elif s == declarer:
            role = "declarer"
            made = contract_made(result)
        elif declarer is not None:
            role = "defender"
        else:
            role = "raspasy" if kind == "raspasy" else "player"
        lines.append(SeatStats(
            seat=s, kind=kind, role=role,
            contract=contract if role == "declarer" else None,
            level=bid_level if role == "declarer" else None,
            made=made, tricks=tricks[s],
            won=sum(whists[s]), lost=sum(row[s] for row in whists),
        ))
    return lines


def contract_made(result: Mapping[str, Any]) -> bool | None:
    """Whether the declarer made his contract; None when nobody declared (raspasy)."""
    declarer, contract, kind = result.get("declarer"), result.get("contract"), result["kind"]
    if declarer is None:
        return None
    if kind == "walkaway":
        return False
    tricks: Sequence[int] = result["tricks"]
    if contract == MISER:
        return tricks[declarer] == 0
    return sum(tricks) == 0 or tricks[declarer] >= level(contract)
