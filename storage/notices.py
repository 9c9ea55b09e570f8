"""Notices between the processes of several workers, through PostgreSQL's LISTEN/NOTIFY: a
notice sent inside a transaction is delivered when (and only if) it commits.

- ``TABLES``: tables a unit of work changed (their ids, comma-separated): every process that
  serves the Mini App draws them anew;
- ``TAPS``: the answer to a Mini App tap a worker did in the table's lane (JSON), for the
  process that took the tap's request.

They are heard through ``storage.listening.Listener``.
"""

from __future__ import annotations

from storage.sql import Conn

TABLES = "cardtable_tables"
TAPS = "cardtable_taps"


async def notify(conn: Conn, channel: str, payload: str) -> None:
    await conn.execute("SELECT pg_notify(?, ?)", (channel, payload))
