"""Stored records and the engine: a table's match rebuilt from its log, loading, import.

Storage keeps games as records.md data and never replays them; this is where
the engine does. A match is rebuilt from the snapshot taken at its last deal's
end and the log after it (the whole log of a table without one). A deal's
statistics (``GameSpec.seat_stats``) are computed here, so that play, import and
corrections store the same lines.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service import ratings
from engine.base import RecordError, SeatStats
from engine.games import get_game
from engine.match import Match
from engine.records import replay
from storage.errors import InvalidRecord, StorageError
from storage.log import Resumable
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


def replayed(record: Mapping[str, Any], what: str, snapshot: Mapping[str, Any] | None = None,
             outputs: Sequence[dict[str, Any]] = ()) -> Match:
    try:
        return replay(record, snapshot=snapshot, outputs=outputs)
    except RecordError as exc:
        raise InvalidRecord(f"{what}: {exc}") from None


def rebuilt(found: Resumable) -> Match:
    """A table's match from its snapshot and the log after it; the match must account for
    every log entry."""
    table = found.table
    match = replayed(found.record, f"table {table.id}", found.snapshot, found.outputs)
    if match.version != table.last_seq:
        raise StorageError(f"table {table.id}: the log replays to version {match.version},"
                           f" the table says {table.last_seq}")
    return match


async def load_match(store: Storage, table_id: int) -> Match:
    """Rebuild one table's match; InvalidRecord if it does not replay."""
    return rebuilt(await store.log.resumable(table_id))


@dataclass(slots=True)
class Loaded:
    """A stored table, its match (None for a lobby, or if it does not replay) and why not."""

    row: TableRow
    match: Match | None = None
    problem: str | None = None


async def load(store: Storage, table_id: int) -> Loaded:
    """A table and its match. A table whose log does not replay is marked as needing
    attention (the reason starts with REPLAY_FAILED) and has no match; one that replays
    again loses that mark."""
    row = await store.tables.get_table(table_id)
    found = Loaded(row)
    if row.players is None:
        return found
    try:
        found.match = rebuilt(await store.log.resumable(table_id))
    except Exception as exc:  # one bad table must never stop the others
        log.exception("table %s does not replay", table_id)
        found.problem = str(exc) or type(exc).__name__
        found.row = await store.tables.update_table(table_id,
                                                    attention=REPLAY_FAILED + found.problem)
        return found
    if (row.attention_reason or "").startswith(REPLAY_FAILED):
        found.row = await store.tables.update_table(table_id, attention=None)
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
        creator_id=creator_id, user_ids=user_ids, snapshot=last_snapshot(match))
    await ratings.rate(store, row.id)
    return row


def last_snapshot(match: Match) -> dict[str, Any] | None:
    """The snapshot the match had at its last deal's end (None before the first one)."""
    if not match.in_deal:
        return match.snapshot()
    if len(match.deals) < 2:
        return None
    record = match.record()
    return replay({**record, "deals": record["deals"][:-1]}).snapshot()
