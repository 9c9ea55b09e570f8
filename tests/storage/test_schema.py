"""Opening a database: migrations, durable settings, and refusing a newer schema."""

import sqlite3

import pytest

from storage import SchemaTooNew, Storage
from storage.schema_sqlite import MIGRATIONS
from tests.storage.conftest import rows

VERSION = len(MIGRATIONS)


def _raw(path: str) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


async def test_a_new_database_gets_the_current_schema_and_durable_settings(db_path: str) -> None:
    store = await Storage.open(db_path)
    # the connection's own settings (synchronous is per connection)
    assert (await rows(store, "PRAGMA journal_mode"))[0][0] == "wal"
    assert (await rows(store, "PRAGMA synchronous"))[0][0] == 2  # FULL
    assert (await rows(store, "PRAGMA foreign_keys"))[0][0] == 1
    assert (await rows(store, "PRAGMA busy_timeout"))[0][0] > 0
    await store.close()
    with _raw(db_path) as raw:
        versions = [v for (v,) in raw.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == list(range(1, VERSION + 1))


async def test_reopening_keeps_data_and_runs_no_migration_twice(db_path: str) -> None:
    async with await Storage.open(db_path) as store:
        await store.chats.save_chat(-5, language="ru")
    async with await Storage.open(db_path) as store:
        chat = await store.chats.get_chat(-5)
        assert chat is not None and chat.language == "ru"
    with _raw(db_path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (VERSION,)


async def test_a_newer_database_refuses_to_start_and_is_left_alone(db_path: str) -> None:
    async with await Storage.open(db_path) as store:
        await store.chats.save_chat(-5)
    with _raw(db_path) as raw:
        raw.execute("INSERT INTO schema_version VALUES (?, 0)", (VERSION + 1,))
    with pytest.raises(SchemaTooNew) as caught:
        await Storage.open(db_path)
    message = str(caught.value)
    assert f"schema version {VERSION + 1}" in message
    assert f"({VERSION})" in message and "upgrade cardtable" in message
    with _raw(db_path) as raw:
        assert raw.execute("SELECT MAX(version) FROM schema_version").fetchone() == (VERSION + 1,)
        assert raw.execute("SELECT id FROM chats").fetchall() == [(-5,)]


async def test_an_older_database_is_migrated_forward_with_its_data(db_path: str) -> None:
    """A version-1 database with a lobby in it gets the later migrations; the lobby goes on."""
    with _raw(db_path) as raw:
        raw.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at REAL)")
        for statement in MIGRATIONS[0]:
            raw.execute(statement)
        raw.execute("INSERT INTO schema_version VALUES (1, 0)")
        raw.execute("INSERT INTO chats (id, created_at, updated_at) VALUES (-5, 0, 0)")
        raw.execute("INSERT INTO users (id, display_name, created_at, updated_at)"
                    " VALUES (1, 'Ann', 0, 0)")
        raw.execute("INSERT INTO game_tables (chat_id, game, rules, seat_count, status,"
                    " creator_id, created_at, updated_at) VALUES (-5, 'preferans', '{}', 3,"
                    " 'lobby', 1, 0, 0)")
        raw.execute("INSERT INTO seats (table_id, seat, user_id) VALUES (1, 0, 1)")
    async with await Storage.open(db_path) as store:
        await store.tables.seat_guest(1, "Bob")
        table = await store.tables.seat_guest(1, "Cid")
        assert [(s.user_id, s.guest_name) for s in table.seats] == [
            (1, None), (None, "Bob"), (None, "Cid")]
        assert (await store.tables.start_game(1)).players == ["Ann", "Bob", "Cid"]
    with _raw(db_path) as raw:
        versions = [v for (v,) in raw.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == list(range(1, VERSION + 1))
