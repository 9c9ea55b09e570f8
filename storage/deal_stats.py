"""Per-seat statistics lines of a finished deal, read from its replay output object.

The output objects are data documented in records.md and the rules specs
(Preferans section of records.md, seep.md section 15, joker.md section 17).
One line per seat:

- ``kind``: the deal's kind (Preferans ``game``/``miser``/``raspasy``/``walkaway``;
  ``deal`` for Seep and Joker); a Seep redeal has no lines (nothing was played);
- ``role``: ``declarer``, ``defender``, ``out`` (the 4-player Preferans dealer),
  ``raspasy``, ``bidder`` (Seep) or ``player``;
- ``contract``/``level``: what the seat undertook (a Preferans declarer's
  contract and its level, none for miser; a Joker bid; the Seep bid);
- ``made``: whether it was fulfilled (a Preferans contract or miser, a Joker
  bid taken exactly), ``None`` where the game has no such notion;
- ``won``/``lost``: the deal's gains and losses in the game's own unit:
  Preferans whists written by the seat / on the seat, Seep the team's deal
  score / the other team's, Joker the deal's points above / below zero.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    kind: str
    role: str
    contract: str | None = None
    level: int | None = None
    made: bool | None = None
    tricks: int | None = None
    won: float = 0
    lost: float = 0


def seat_lines(game: str, seats: int, result: Mapping[str, Any]) -> list[SeatLine]:
    """The lines of one deal; a game without its own reader gets plain ``player`` lines."""
    return _READERS.get(game, _plain)(seats, result)


def _preferans(seats: int, result: Mapping[str, Any]) -> list[SeatLine]:
    kind = result["kind"]
    declarer = result.get("declarer")
    contract = result.get("contract")
    tricks: Sequence[int] = result["tricks"]
    whists: Sequence[Sequence[float]] = result["entries"]["whists"]
    level = _level(contract) if kind in ("game", "walkaway") else None
    lines = []
    for s in range(seats):
        made = None
        if seats == 4 and s == result["dealer"]:
            role = "out"
        elif s == declarer:
            role = "declarer"
            if kind == "miser":
                made = tricks[s] == 0
            elif kind == "walkaway":
                made = False
            else:  # not played (both defenders passed, a half-whist stood): made
                made = sum(tricks) == 0 or tricks[s] >= (level or 0)
        elif declarer is not None:
            role = "defender"
        else:
            role = "raspasy" if kind == "raspasy" else "player"
        lines.append(SeatLine(
            seat=s, kind=kind, role=role,
            contract=contract if role == "declarer" else None,
            level=level if role == "declarer" else None,
            made=made, tricks=tricks[s],
            won=sum(whists[s]), lost=sum(row[s] for row in whists),
        ))
    return lines


def _seep(seats: int, result: Mapping[str, Any]) -> list[SeatLine]:
    bid = result["bid"]
    if bid is None:  # a redeal (no card of 9 or more): nothing was played
        return []
    score: Sequence[float] = result["score"]
    lines = []
    for s in range(seats):
        team = s % 2  # NS = seats 0 and 2, EW = 1 and 3 (seep.md section 3)
        bidder = s == result["bidder"]
        lines.append(SeatLine(
            seat=s, kind="deal", role="bidder" if bidder else "player",
            contract=str(bid) if bidder else None, level=bid if bidder else None,
            won=score[team], lost=score[1 - team],
        ))
    return lines


def _joker(seats: int, result: Mapping[str, Any]) -> list[SeatLine]:
    bids: Sequence[int] = result["bids"]
    tricks: Sequence[int] = result["tricks"]
    points: Sequence[float] = result["points"]
    return [
        SeatLine(seat=s, kind="deal", role="player", contract=str(bids[s]), level=bids[s],
                 made=tricks[s] == bids[s], tricks=tricks[s],
                 won=max(points[s], 0), lost=max(-points[s], 0))
        for s in range(seats)
    ]


def _plain(seats: int, result: Mapping[str, Any]) -> list[SeatLine]:
    return [SeatLine(seat=s, kind=str(result.get("kind", "deal")), role="player")
            for s in range(seats)]


def _level(contract: str | None) -> int | None:
    match = re.match(r"\d+", contract or "")
    return int(match.group()) if match else None


_READERS: dict[str, Callable[[int, Mapping[str, Any]], list[SeatLine]]] = {
    "preferans": _preferans,
    "seep": _seep,
    "joker": _joker,
}


def places(balances: Sequence[float]) -> list[int]:
    """Each seat's place by balance, highest first; equal balances share the better place."""
    return [1 + sum(other > mine for other in balances) for mine in balances]
