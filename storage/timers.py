"""Timers as rows: each table's next turn-timer event (``TimerRow``), found by when it is due.

A row is written, replaced or deleted in the transaction of the table change that sets,
moves or ends its timer (``set_timer``, through ``TableStore.update_table``); an entry
appended to the log deletes the rows set for an earlier version, and a pause or a game's end
every row of the table. A process fires a due row once: ``claim`` marks it as being fired
for a while (on PostgreSQL passing over a row another process is claiming, ``FOR UPDATE SKIP
LOCKED``), and the change the timer makes deletes it (``fired``: refused with TimerGone if
it is gone already). A process that dies holding a claim leaves the row to another (or to
itself after a restart) once the claim has run out.
"""

from __future__ import annotations

from storage.errors import TimerGone
from storage.rows import TimerRow
from storage.sql import Conn, Database

_COLUMNS = "table_id, kind, due_at, version, deadline"
_SAME = "table_id = ? AND kind = ? AND due_at = ? AND version = ?"


def _key(timer: TimerRow) -> tuple[int, str, float, int]:
    return timer.table_id, timer.kind, timer.due_at, timer.version


class TimerStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def due(self, until: float, now: float) -> list[TimerRow]:
        """The timers due by ``until`` that no process is firing at ``now``, soonest first
        (one query on the ``due_at`` index)."""
        async with self._db.reading() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM timers WHERE due_at <= ?"
                " AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY due_at",
                (until, now))
        return [TimerRow.of(row) for row in rows]

    async def of(self, table_id: int) -> TimerRow | None:
        """The table's stored timer."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(f"SELECT {_COLUMNS} FROM timers WHERE table_id = ?",
                                      (table_id,))
        return None if row is None else TimerRow.of(row)

    async def claim(self, timer: TimerRow, now: float, hold: float) -> bool:
        """Take a due timer to fire it, for ``hold`` seconds: False if it is gone, or another
        process holds it (the caller then does nothing)."""
        async def take(conn: Conn) -> bool:
            row = await conn.fetchone(
                f"SELECT table_id FROM timers WHERE {_SAME}"
                f" AND (claimed_until IS NULL OR claimed_until <= ?){conn.dialect.skip_locked}",
                (*_key(timer), now))
            if row is None:
                return False
            await conn.execute("UPDATE timers SET claimed_until = ? WHERE table_id = ?",
                               (now + hold, timer.table_id))
            return True

        return await self._db.write(take)

    async def drop(self, timer: TimerRow) -> bool:
        """Delete a timer that fired, if it is still stored and void by what is stored: its
        table is no longer playing at its version and deadline (not by what a process holds
        in memory, which may be behind another process's changes). Whether it was."""
        return bool(await self._db.write(lambda conn: conn.execute(
            f"DELETE FROM timers WHERE {_SAME} AND NOT EXISTS (SELECT 1 FROM game_tables t"
            " WHERE t.id = timers.table_id AND t.status = 'playing'"
            " AND t.last_seq = timers.version AND t.timer_deadline = timers.deadline)",
            _key(timer))))


async def set_timer(conn: Conn, table_id: int, timer: TimerRow | None) -> None:
    """The table's timer from now on (None: none)."""
    await conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
    if timer is not None:
        assert timer.table_id == table_id
        await conn.execute(f"INSERT INTO timers ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                           (*_key(timer), timer.deadline))


async def consume(conn: Conn, timer: TimerRow) -> None:
    """The fired ``timer`` is used up by this transaction; TimerGone if it is not stored."""
    if await conn.execute(f"DELETE FROM timers WHERE {_SAME}", _key(timer)) == 0:
        raise TimerGone(f"table {timer.table_id}: its {timer.kind} timer was fired already")


# The table is at a version (the second parameter) now: its timers (the first, its id) set
# for an earlier one are void (with the log's append: storage/log_sql.py).
MOVED_ON = "DELETE FROM timers WHERE table_id = ? AND version < ?"
