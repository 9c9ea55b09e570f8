"""The action log: appends, the scorekeeper's rewrites, records out and in.

The log holds a game as records.md data; this module never replays it (the
service does, with the engine). Each deal's end comes with its output object
and statistics lines, and the game's end with its settlement, in the same
transaction as the entry that ends it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from storage import log_sql
from storage import tables_sql as sql
from storage.errors import BadInput, WrongStatus
from storage.record_log import assemble, entries_of
from storage.rows import Entry, StatLine, TableRow, dumps
from storage.sql import Conn, Database


class LogStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def append(
        self, table_id: int, seq: int, entry: Entry, *,
        result: Mapping[str, Any] | None = None, stats: Sequence[StatLine] = (),
        settlement: Sequence[float] | None = None, snapshot: Mapping[str, Any] | None = None,
        draft: Mapping[str, Any] | None = None,
    ) -> float:
        """Store one log entry durably; return only once it is committed, with the table's
        new ``updated_at``.

        ``seq`` is the entry's number: exactly one more than the last stored
        (it equals ``Match.version`` after the change). A stored number raises
        DuplicateSeq, a larger one SeqGap; nothing is written then. With the
        entry that ends a deal pass ``result`` (the deal's output object) and its
        ``stats``, with the one that ends the game also ``settlement``, and the match
        as it stands then as a ``snapshot`` (``Match.snapshot``, which a restore starts
        from): they commit together, and so does the scorekeeper's next ``draft`` (JSON data;
        None: the stored one stays). An action clears its seat's picks (``set_picks``) with
        it. If the caller is cancelled while waiting, the entry may still commit.
        """
        return await self._db.write(lambda conn: log_sql.append(
            conn, table_id, seq, entry, result, stats, settlement, snapshot, draft))

    async def replace_entered_deals(
        self, table_id: int, from_deal: int, deals: Sequence[Mapping[str, Any]],
        outputs: Sequence[Mapping[str, Any]], *, stats: Sequence[Sequence[StatLine]],
        expected_last: int, settlement: Sequence[float] | None = None,
        draft: Mapping[str, Any] | None = None,
    ) -> TableRow:
        """Scorekeeper ``/undo`` and ``/edit``: replace the entered deals from ``from_deal``
        (0-based) on by ``deals`` (record objects) scored as ``outputs`` with ``stats``.

        Refused (SeqConflict) if the log's last entry is not ``expected_last`` (the
        table moved on), and (BadInput) if a deal to remove was played with the bot. A
        finished game becomes playing again unless ``settlement`` ends it anew. The
        scorekeeper's next ``draft`` commits with them (None: the stored one stays).
        """
        await self._db.write(lambda conn: log_sql.replace_entered(
            conn, table_id, from_deal, expected_last, deals, outputs, stats, settlement,
            draft))
        async with self._db.reading() as conn:
            return await sql.load_table(conn, table_id)

    async def record(self, table_id: int) -> dict[str, Any]:
        """The table's game record (records.md), from the log alone."""
        async with self._db.reading() as conn:
            table = await sql.load_table(conn, table_id)
            return await _record(conn, table)

    async def resumable(self, table_id: int) -> Resumable:
        """What a table's match is rebuilt from: its last snapshot, the outputs of the deals
        before it, and the record of the deals after it (the whole record if none)."""
        async with self._db.reading() as conn:
            table = await sql.load_table(conn, table_id)
            if table.players is None:
                raise WrongStatus(f"table {table.id} has not started")
            row = await conn.fetchone("SELECT seq, data FROM snapshots WHERE table_id = ?",
                                      (table_id,))
            snapshot = None if row is None else json.loads(row["data"])
            earlier = [] if snapshot is None else await conn.fetch(
                "SELECT result FROM deal_results WHERE table_id = ? AND deal_no < ?"
                " ORDER BY deal_no", (table_id, snapshot["deals"]))
            outputs = [json.loads(r["result"]) for r in earlier]
            entries = await log_sql.log_of(conn, table_id, after=0 if row is None else row["seq"])
            return Resumable(table, assemble(table.header(), entries), snapshot, outputs)

    async def import_game(
        self, chat_id: int, record: Mapping[str, Any], *,
        outputs: Sequence[Mapping[str, Any]], stats: Sequence[Sequence[StatLine]],
        settlement: Sequence[float] | None, creator_id: int | None = None,
        user_ids: Sequence[int | None] | None = None, snapshot: Mapping[str, Any] | None = None,
    ) -> TableRow:
        """Store a replayed record (canonical text) as a table of the chat, with each
        finished deal's output and statistics, and its match's ``snapshot`` at its last
        deal's end. With ``settlement`` the game is stored finished, without it paused (so
        the chat must have no open table)."""
        seats = len(record["players"])
        users = list(user_ids) if user_ids is not None else [None] * seats
        if len(users) != seats:
            raise BadInput(f"{len(users)} user ids for {seats} players")
        if len(outputs) != len(stats):
            raise BadInput("one list of statistics per deal output")
        status = "paused" if settlement is None else "finished"

        async def store(conn: Conn) -> TableRow:
            await sql.save_chat(conn, chat_id, {})
            for user_id in users:
                if user_id is not None:
                    await sql.load_user(conn, user_id)
            if settlement is None:
                await sql.refuse_second_table(conn, chat_id)
            now = time.time()
            table_id = await conn.insert(
                "INSERT INTO game_tables (chat_id, game, rules, seat_count, players, status,"
                " creator_id, created_at, updated_at, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, record["game"], dumps(record["rules"]), seats,
                 dumps(record["players"]), status, creator_id, now, now, now),
            )
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id) VALUES (?, ?, ?)",
                [(table_id, seat, user) for seat, user in enumerate(users)])
            await log_sql.insert_entries(conn, table_id, entries_of(record), seats)
            if snapshot is not None:
                await log_sql.store_snapshot(conn, table_id, snapshot, time.time())
            for deal_no, (output, lines) in enumerate(zip(outputs, stats, strict=True)):
                await log_sql.store_result(conn, table_id, record["game"], deal_no, output,
                                           lines)
            if settlement is not None:
                await log_sql.finish(conn, table_id, seats, settlement)
            return await sql.load_table(conn, table_id)

        return await self._db.write(store)


async def _record(conn: Conn, table: TableRow) -> dict[str, Any]:
    if table.players is None:
        raise WrongStatus(f"table {table.id} has not started")
    return assemble(table.header(), await log_sql.log_of(conn, table.id))


@dataclass(frozen=True)
class Resumable:
    """A table and what its match is rebuilt from (``LogStore.resumable``)."""

    table: TableRow
    record: dict[str, Any]  # the deals after the snapshot (every deal without one)
    snapshot: dict[str, Any] | None
    outputs: list[dict[str, Any]]  # of the deals before the snapshot
