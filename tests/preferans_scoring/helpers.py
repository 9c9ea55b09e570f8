"""Hand-built deal results for scoring tests (the play engine is not needed)."""

from __future__ import annotations

from typing import Any

from engine.preferans.result import DealResult, empty_entries
from engine.preferans.rules import Rules
from engine.preferans.scoring import Scoresheet

A, B, C, D = 0, 1, 2, 3
NO_PREMIUM = ("7H", "8H")  # a talon without quick tricks


def sheet(variant: str, players: int = 3, first_dealer: int | None = None,
          **options: Any) -> Scoresheet:
    """A fresh sheet; the first dealer is the spec's unless given: C with 3 players, D with 4."""
    rules = Rules.from_dict({"variant": variant, "players": players, **options})
    return Scoresheet(rules, players - 1 if first_dealer is None else first_dealer)


def result(
    s: Scoresheet,
    kind: str = "game",
    *,
    declarer: int | None = None,
    contract: str | None = None,
    tricks: tuple[int, ...] | None = None,
    whisters: tuple[int, ...] = (),
    halfwhister: int | None = None,
    returned: bool = False,
    played: bool | None = None,
    checked: bool = False,
    talon: tuple[str, str] = NO_PREMIUM,
) -> DealResult:
    """The next deal of ``s`` (its dealer and state) with the given outcome."""
    ctx = s.next_context()
    n = s.rules.players
    active = tuple((ctx.dealer + i) % n for i in range(1, 4))
    first = second = None
    if declarer is not None:
        i = active.index(declarer)
        first, second = active[(i + 1) % 3], active[(i + 2) % 3]
    if played is None:
        played = kind in ("raspasy", "miser") or bool(whisters) or checked
    return DealResult(
        kind=kind,
        players=n,
        dealer=ctx.dealer,
        active=active,
        tricks=tricks or (0,) * n,
        talon=talon,
        raspasy_state=ctx.raspasy_state,
        declarer=declarer,
        bid=contract,
        contract=contract,
        checked=checked,
        first_defender=first,
        second_defender=second,
        whisters=whisters,
        halfwhister=halfwhister,
        returned=returned,
        open=None if len(whisters) != 1 else False,
        played=played,
    )


def score(s: Scoresheet, kind: str = "game", **outcome: Any) -> dict[str, list]:
    """Add the deal to the sheet; its entries."""
    return s.add(result(s, kind, **outcome))["entries"]


def entries(
    players: int = 3,
    pool: dict[int, int] | None = None,
    mountain: dict[int, int] | None = None,
    whists: dict[tuple[int, int], int] | None = None,
) -> dict[str, list]:
    """Expected entries: ``whists[(writer, target)]``; everything else 0."""
    e = empty_entries(players)
    for seat, points in (pool or {}).items():
        e["pool"][seat] = points
    for seat, points in (mountain or {}).items():
        e["mountain"][seat] = points
    for (writer, target), n in (whists or {}).items():
        e["whists"][writer][target] = n
    return e
