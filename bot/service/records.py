"""Stored records and the engine: a table's match rebuilt from its log, restore, import.

Storage keeps games as records.md data and never replays them; this is where
the engine does. A deal's statistics (``GameSpec.seat_stats``) are computed
here, so that play, import and corrections store the same lines.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service import ratings
from engine.base import RecordError, SeatStats
from engine.games import get_game
from engine.match import Match
from engine.records import replay
from storage.errors import InvalidRecord, StorageError
from storage.rows import TableRow
from storage.store import Storage

log = logging.getLogger(__name__)

# Prefix of the attention reason restore writes; a later restore that replays clears it.
REPLAY_FAILED = "the record does not replay: "


def seat_stats(game: str, seats: int, output: Mapping[str, Any]) -> list[SeatStats]:
    """A finished deal's statistics lines; none (and a log line) for a shape the game's
    reader does not know: losing the action over a statistic would be worse."""
    try:
        lines: list[SeatStats] = get_game(game).seat_stats(seats, output)
    except (KeyError, IndexError, TypeError, ValueError):
        log.exception("%s: no statistics for deal output %s", game, output)
        return []
    return lines


def replayed(record: Mapping[str, Any], what: str) -> Match:
    try:
        return replay(record)
    except RecordError as exc:
        raise InvalidRecord(f"{what}: {exc}") from None


def rebuilt(table: TableRow, record: Mapping[str, Any]) -> Match:
    """A table's match from its record; the match must account for every log entry."""
    match = replayed(record, f"table {table.id}")
    if match.version != table.last_seq:
        raise StorageError(f"table {table.id}: the log replays to version {match.version},"
                           f" the table says {table.last_seq}")
    return match


async def load_match(store: Storage, table_id: int) -> Match:
    """Rebuild one table's match from its log; InvalidRecord if it does not replay."""
    table = await store.tables.get_table(table_id)
    return rebuilt(table, await store.log.record(table_id))


@dataclass(slots=True)
class Restored:
    """Every open table, a match for each one that plays, and those that did not replay."""

    tables: dict[int, TableRow] = field(default_factory=dict)
    matches: dict[int, Match] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)


async def restore(store: Storage) -> Restored:
    """Every open table, and a match rebuilt for each playing or paused one.

    A table whose log does not replay is marked as needing attention (the
    reason starts with REPLAY_FAILED) and reported in ``failed``; the others
    are not touched. One that replays again loses that mark.
    """
    found = Restored()
    for table, record in await store.log.open_records():
        found.tables[table.id] = table
        if record is None:
            continue
        try:
            found.matches[table.id] = rebuilt(table, record)
        except Exception as exc:  # one bad table must never stop the others
            log.exception("table %s does not replay", table.id)
            found.failed[table.id] = str(exc) or type(exc).__name__
    cleared = [t for t in found.matches if (found.tables[t].attention_reason or "")
               .startswith(REPLAY_FAILED)]
    for table_id, reason in found.failed.items():
        found.tables[table_id] = await store.tables.update_table(
            table_id, attention=REPLAY_FAILED + reason)
    for table_id in cleared:
        found.tables[table_id] = await store.tables.update_table(table_id, attention=None)
    return found


async def import_record(
    store: Storage, chat_id: int, record: Mapping[str, Any], *, creator_id: int | None = None,
    user_ids: Sequence[int | None] | None = None,
) -> TableRow:
    """Store a record as a table of the chat after replaying it.

    A finished game is stored finished with its results and settlement (and rated); an
    unfinished one as paused (so the chat must have no open table). The
    stored log is the replayed match's record (canonical card text).
    """
    match = replayed(record, "the record")
    seats = len(match.players)
    row = await store.log.import_game(
        chat_id, match.record(), outputs=match.outputs,
        stats=[seat_stats(match.spec.name, seats, out) for out in match.outputs],
        settlement=match.report()["settlement"] if match.over else None,
        creator_id=creator_id, user_ids=user_ids)
    await ratings.rate(store, row.id)
    return row
