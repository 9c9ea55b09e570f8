"""The Preferans scoresheet ("pulya"): pool, mountain and whists, deal by deal.

``Scoresheet`` takes each finished deal's ``DealResult``, writes its entries
(section 10), applies the pool target and help (11), keeps the raspasy state
(10.11) and the dealer rotation, and settles at any moment (12).
``settle_document`` is the calculator for a sheet alone (records.md, "Sheet
documents").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from engine.base import RecordError, RulesError, SheetState
from engine.preferans.deal_entries import deal_entries
from engine.preferans.pool_help import credit_pool
from engine.preferans.pulya_text import sheet_text
from engine.preferans.raspasy_states import min_bid, next_state, raspasy_cost
from engine.preferans.result import DealContext, DealResult
from engine.preferans.rules import Rules
from engine.preferans.settlement import settle, shown_balances

__all__ = ["Scoresheet", "settle_document", "sheet_text"]


class Scoresheet(SheetState):
    """One game's sheet. ``pool``, ``mountain``, ``whists[writer][target]``, the
    raspasy ``state``, the next ``dealer``, ``history`` (every deal's output) and
    ``notes`` (for each deal, why each of its numbers was written) are public and
    read-only for callers."""

    STATE = ("pool", "mountain", "whists", "dealer", "state", "history", "notes")

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        n = rules.players
        if not 0 <= first_dealer < n:
            raise ValueError(f"first dealer must be a seat 0-{n - 1}")
        self.rules = rules
        self.pool = [0] * n
        self.mountain = [0] * n
        self.whists = [[0] * n for _ in range(n)]
        self.dealer = first_dealer
        self.state = 1
        self.history: list[dict[str, Any]] = []
        # why each deal's numbers were written: its notes (deal_entries.Note) as JSON objects
        self.notes: list[list[dict[str, Any]]] = []

    @property
    def complete(self) -> bool:
        """Every pool has reached the target: the game is over."""
        return all(p >= self.rules.pool for p in self.pool)

    def next_context(self) -> DealContext:
        return DealContext(self.dealer, min_bid(self.rules, self.state), self.state)

    def add(self, result: DealResult) -> dict[str, Any]:
        """Score a finished deal; returns its output object (records.md, "Replay output")."""
        n = self.rules.players
        if self.complete:
            raise ValueError("the game is over: every pool has reached the target")
        if result.players != n or len(result.tricks) != n:
            raise ValueError(f"a deal result for {result.players} players on a {n}-player sheet")
        if result.dealer != self.dealer or result.raspasy_state != self.state:
            raise ValueError(
                f"the deal was dealt by seat {result.dealer} in raspasy state "
                f"{result.raspasy_state}; the sheet expects seat {self.dealer}, state {self.state}"
            )
        written = deal_entries(self.rules, result, raspasy_cost(self.rules, self.state))
        entries = written.entries
        notes = list(written.notes)
        for seat, points, reason in written.credits:  # updates self.pool
            credit_pool(self.rules, self.pool, entries, seat, points, reason, notes)
        for x in range(n):
            self.mountain[x] += entries["mountain"][x]
            for y in range(n):
                self.whists[x][y] += entries["whists"][x][y]
        self.state = next_state(self.rules, self.state, result)
        self.dealer = (self.dealer + 1) % n
        output = {
            "dealer": result.dealer,
            "kind": result.kind,
            "contract": None if result.kind == "raspasy" else result.contract,
            "declarer": None if result.kind == "raspasy" else result.declarer,
            "tricks": list(result.tricks),
            "entries": entries,
        }
        self.history.append(output)
        self.notes.append([asdict(note) for note in notes])
        return output

    def settlement(self) -> list[Fraction]:
        """Exact balances in whists as if the game ended now (early stop included)."""
        return settle(self.rules, self.pool, self.mountain, self.whists)

    def balances(self) -> list[int | float]:
        """The settlement as shown: ``settlement_rounding`` applied, JSON numbers."""
        return shown_balances(self.rules, self.pool, self.mountain, self.whists)

    def report(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "sheet": {
                "pool": list(self.pool),
                "mountain": list(self.mountain),
                "whists": [list(row) for row in self.whists],
            },
            "settlement": self.balances(),
        }


_DOCUMENT_KEYS = {"game", "rules", "players", "sheet"}
_SHEET_KEYS = ("pool", "mountain", "whists")


def settle_document(doc: Any) -> list[int | float]:
    """The settlement of a sheet document (records.md); RecordError names what is wrong."""
    if not isinstance(doc, Mapping):
        raise RecordError("a sheet document must be a JSON object")
    unknown = sorted(set(doc) - _DOCUMENT_KEYS)
    if unknown:
        raise RecordError(f"unknown key(s) in the sheet document: {', '.join(unknown)}")
    if doc.get("game") != "preferans":
        raise RecordError('a Preferans sheet document needs "game": "preferans"')
    rules_data = doc.get("rules", {})
    if not isinstance(rules_data, Mapping):
        raise RecordError("rules must be an object")
    try:
        rules = Rules.from_dict(rules_data)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    n = rules.players
    players = doc.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != n
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"players must be a list of {n} names")
    sheet = doc.get("sheet")
    if not isinstance(sheet, Mapping) or set(sheet) != set(_SHEET_KEYS):
        raise RecordError("sheet must be an object with exactly pool, mountain and whists")
    pool = _numbers(sheet["pool"], n, "sheet.pool")
    mountain = _numbers(sheet["mountain"], n, "sheet.mountain")
    whists = sheet["whists"]
    if not isinstance(whists, list) or len(whists) != n:
        raise RecordError(f"sheet.whists must be {n} rows of {n} whole numbers")
    rows = [_numbers(row, n, f"sheet.whists[{x}]") for x, row in enumerate(whists)]
    for x, p in enumerate(pool):
        if p < 0:
            raise RecordError(f"sheet.pool[{x}] is negative")
        if p > rules.pool and rules.pool_overflow == "help":
            raise RecordError(
                f"sheet.pool[{x}] is {p}, above the target {rules.pool}"
                " (pools above the target need pool_overflow keep)"
            )
    for x, row in enumerate(rows):
        if row[x]:
            raise RecordError(f"sheet.whists[{x}][{x}]: a player writes no whists on himself")
        if any(w < 0 for w in row):
            raise RecordError(f"sheet.whists[{x}] has a negative entry")
    return shown_balances(rules, pool, mountain, rows)


def _numbers(value: Any, n: int, name: str) -> list[int]:
    if not isinstance(value, list) or len(value) != n or any(type(v) is not int for v in value):
        raise RecordError(f"{name} must be a list of {n} whole numbers")
    return value
