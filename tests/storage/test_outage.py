"""A database out of reach longer than the outage's limit (storage/outage.py): the write that
waited is refused whole (``DatabaseGone``), said once as an ERROR after the one WARNING; one
that waits less goes through, and the outage's end is one INFO."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time

import pytest

from storage import Storage
from storage.outage import DatabaseGone
from tests.storage.conftest import rows


def _locked(path: str, seconds: float, locked: threading.Event) -> None:
    """Another process's write lock on the file, for ``seconds``."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        locked.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
    finally:
        conn.close()


async def _write_while_locked(store: Storage, path: str, seconds: float) -> None:
    locked = threading.Event()
    holder = threading.Thread(target=_locked, args=(path, seconds, locked))
    holder.start()
    try:
        await asyncio.to_thread(locked.wait)
        await store.chats.save_user(7, display_name="Ann")
    finally:
        await asyncio.to_thread(holder.join)


async def test_a_write_past_the_limit_is_refused_whole(
        sqlite_store: Storage, db_path: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="storage.outage")
    sqlite_store.db.outage.limit = 1.5
    with pytest.raises(DatabaseGone):
        await _write_while_locked(sqlite_store, db_path, 4.0)
    assert await rows(sqlite_store, "SELECT id FROM users") == []
    said = [(r.levelname, r.exc_info) for r in caplog.records if r.name == "storage.outage"]
    assert said == [("WARNING", None), ("ERROR", None)]


async def test_a_write_within_the_limit_waits_and_is_stored(
        sqlite_store: Storage, db_path: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="storage.outage")
    await _write_while_locked(sqlite_store, db_path, 2.5)
    assert await rows(sqlite_store, "SELECT id FROM users") == [(7,)]
    said = [r.levelname for r in caplog.records if r.name == "storage.outage"]
    assert said == ["WARNING", "INFO"]


async def test_a_write_on_a_full_disk_waits_until_there_is_room(
        sqlite_store: Storage, caplog: pytest.LogCaptureFixture) -> None:
    """SQLITE_FULL ("database or disk is full": the file may not grow, by PRAGMA
    max_page_count on the store's own connection) for 1.5 s: the write waits, then is
    stored; one WARNING, one INFO."""
    caplog.set_level(logging.INFO, logger="storage.outage")
    conn = sqlite_store.db.conn
    await sqlite_store.db.write(lambda c: c.execute("CREATE TABLE filler (x BLOB)"))
    async with conn.execute("PRAGMA page_count") as cursor:
        (pages,) = await cursor.fetchone()
    await conn.execute(f"PRAGMA max_page_count = {pages}")

    async def room() -> None:
        await asyncio.sleep(1.5)
        await conn.execute("PRAGMA max_page_count = 1073741823")

    making = asyncio.create_task(room())
    await sqlite_store.db.write(lambda c: c.execute("INSERT INTO filler VALUES (?)",
                                                    (bytes(64_000),)))
    assert making.done()  # it waited for the room
    await making
    assert await rows(sqlite_store, "SELECT length(x) FROM filler") == [(64_000,)]
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "storage.outage"]
    assert [level for level, _ in said] == ["WARNING", "INFO"], said
    assert "full" in said[0][1], said
