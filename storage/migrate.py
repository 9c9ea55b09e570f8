"""Bring a database's schema to the newest of its backend's migrations.

``migrations[i]`` brings the schema from version ``i`` to ``i + 1``; the caller runs
this in one transaction that no other process can run at the same time (SQLite's
immediate transaction, PostgreSQL's advisory lock), so that two processes starting
at once cannot both migrate.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from storage.errors import SchemaTooNew
from storage.sql import Conn


async def migrate(conn: Conn, migrations: Sequence[Sequence[str]], where: str) -> int:
    """Apply the migrations not applied yet; SchemaTooNew if the database is newer."""
    known = len(migrations)
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                       "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
    row = await conn.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    found = int(row[0]) if row is not None else 0
    if found > known:
        raise SchemaTooNew(found, known, where)
    for version in range(found + 1, known + 1):
        for statement in migrations[version - 1]:
            await conn.execute(statement)
        await conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                           (version, time.time()))
    return known


def timers_from_tables(turn_time: str, reminders: str) -> str:
    """Issue 18's migration of the turn timers stored with the tables into rows of
    ``timers`` (the nudge still to come at half time, or the deadline), in the backend's
    SQL for a table's ``turn_time`` (seconds, 0 if unset) and ``reminders`` (true if unset)."""
    return f"""INSERT INTO timers (table_id, kind, due_at, version, deadline)
        SELECT id, CASE WHEN nudge THEN 'nudge' ELSE 'deadline' END,
               CASE WHEN nudge THEN timer_deadline - turn_time / 2.0 ELSE timer_deadline END,
               timer_version, timer_deadline
        FROM (SELECT id, timer_deadline, timer_version, {turn_time} AS turn_time,
                     timer_nudged = 0 AND {reminders} AS nudge
              FROM game_tables WHERE status = 'playing' AND timer_deadline IS NOT NULL) AS t"""
