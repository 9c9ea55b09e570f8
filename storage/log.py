"""The action log: appends, the scorekeeper's rewrites, records out and in.

The log holds a game as records.md data; this module never replays it (the
service does, with the engine). Each deal's end comes with its output object
and statistics lines, and the game's end with its settlement, in the same
transaction as the entry that ends it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
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
        settlement: Sequence[float] | None = None,
    ) -> float:
        """Store one log entry durably; return only once it is committed, with the table's
        new ``updated_at``.

        ``seq`` is the entry's number: exactly one more than the last stored
        (it equals ``Match.version`` after the change). A stored number raises
        DuplicateSeq, a larger one SeqGap; nothing is written then. With the
        entry that ends a deal pass ``result`` (the deal's output object) and its
        ``stats``, with the one that ends the game also ``settlement``: they
        commit together. If the caller is cancelled while waiting, the entry may
        still commit.
        """
        return await self._db.write(lambda conn: log_sql.append(
            conn, table_id, seq, entry, result, stats, settlement))

    async def replace_entered_deals(
        self, table_id: int, from_deal: int, deals: Sequence[Mapping[str, Any]],
        outputs: Sequence[Mapping[str, Any]], *, stats: Sequence[Sequence[StatLine]],
        expected_last: int, settlement: Sequence[float] | None = None,
    ) -> TableRow:
        """Scorekeeper ``/undo`` and ``/edit``: replace the entered deals from ``from_deal``
        (0-based) on by ``deals`` (record objects) scored as ``outputs`` with ``stats``.

        Refused (SeqConflict) if the log's last entry is not ``expected_last`` (the
        table moved on), and (BadInput) if a deal to remove was played with the bot. A
        finished game becomes playing again unless ``settlement`` ends it anew.
        """
        await self._db.write(lambda conn: log_sql.replace_entered(
            conn, table_id, from_deal, expected_last, deals, outputs, stats, settlement))
        async with self._db.reading() as conn:
            return await sql.load_table(conn, table_id)

    async def record(self, table_id: int) -> dict[str, Any]:
        """The table's game record (records.md), from the log alone."""
        async with self._db.reading() as conn:
            table = await sql.load_table(conn, table_id)
            return await _record(conn, table)

    async def open_records(self) -> list[tuple[TableRow, dict[str, Any] | None]]:
        """Every open table with its record (None for a lobby): what restore replays."""
        async with self._db.reading() as conn:
            tables = await sql.open_tables(conn)
            return [(t, None if t.status == "lobby" else await _record(conn, t))
                    for t in tables]

    async def import_game(
        self, chat_id: int, record: Mapping[str, Any], *,
        outputs: Sequence[Mapping[str, Any]], stats: Sequence[Sequence[StatLine]],
        settlement: Sequence[float] | None, creator_id: int | None = None,
        user_ids: Sequence[int | None] | None = None,
    ) -> TableRow:
        """Store a replayed record (canonical text) as a table of the chat, with each
        finished deal's output and statistics. With ``settlement`` the game is stored
        finished, without it paused (so the chat must have no open table)."""
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
