"""A game record (records.md) <-> the log entries it is stored as. Plain JSON, no engine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from storage.rows import Entry


def entries_of(record: Mapping[str, Any]) -> list[Entry]:
    """The log of a record: each deal's start, then its actions, in order."""
    entries: list[Entry] = []
    for deal in record.get("deals", []):
        entries.append(Entry.deal(deal))
        entries.extend(Entry.action(action) for action in deal.get("actions", []))
    return entries


def assemble(
    header: Mapping[str, Any], entries: Iterable[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """The record of ``header`` (game, rules, players) and the log's (kind, payload) pairs."""
    deals: list[dict[str, Any]] = []
    for kind, payload in entries:
        if kind == "deal":
            deals.append(payload)
        else:  # an action after an entered deal is the replay's to refuse
            deals[-1].setdefault("actions", []).append(payload)
    return {**header, "deals": deals}
