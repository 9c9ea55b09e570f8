"""Timers as rows (issue 18), on both backends: a table's timer is found by when it is due,
claimed by one process at a time, used up by the change it makes, and void once the table
moves on, pauses or ends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import aiosqlite
import asyncpg
import pytest

from engine.records import new_match
from storage import Entry, Storage, schema_pg, schema_sqlite
from storage.errors import TimerGone
from storage.migrate import migrate
from storage.postgres import PgConn
from storage.rows import TableRow, TimerRow
from storage.sql import Conn
from storage.sqlite import SqliteConn
from storage.store import is_postgres
from tests.postgres import LazyServer
from tests.storage.conftest import rows
from tests.storage.play import started_table

CHAT = -1001
T0 = 1_000_000.0


async def _dealt(store: Storage) -> tuple[TableRow, int]:
    """A started Preferans table dealt its first hand; its match version."""
    table = await started_table(store, CHAT, "preferans", {}, [1, 2, 3])
    match = new_match(table.header())
    match.start_deal(seed=1)
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
    return table, match.version


def _deadline(table_id: int, version: int, at: float = T0) -> TimerRow:
    return TimerRow(table_id, "deadline", at, version, at)


async def test_timers_are_found_by_when_they_are_due(store: Storage) -> None:
    table, version = await _dealt(store)
    nudge = TimerRow(table.id, "nudge", T0 - 50, version, T0)
    await store.tables.update_table(table.id, timer_deadline=T0, timer_version=version,
                                    timer=nudge)
    assert await store.timers.due(T0 - 51, T0 - 300) == []
    assert await store.timers.due(T0 - 50, T0 - 300) == [nudge]
    assert await store.timers.of(table.id) == nudge
    later = _deadline(table.id, version)
    await store.tables.update_table(table.id, timer=later)  # one timer per table
    assert await store.timers.due(T0 + 1, T0) == [later]
    await store.tables.update_table(table.id, timer=None)
    assert await store.timers.due(T0 + 1, T0) == []


async def test_a_claimed_timer_is_left_to_its_claimer_until_the_claim_runs_out(
        store: Storage) -> None:
    table, version = await _dealt(store)
    timer = _deadline(table.id, version)
    await store.tables.update_table(table.id, timer=timer)
    assert await store.timers.claim(timer, T0, 60)
    assert not await store.timers.claim(timer, T0 + 1, 60)  # held
    assert await store.timers.due(T0 + 10, T0 + 10) == []  # nobody else schedules it
    assert await store.timers.due(T0 + 60, T0 + 60) == [timer]  # the claim ran out
    assert await store.timers.claim(timer, T0 + 60, 60)
    assert not await store.timers.claim(_deadline(table.id, version, T0 + 5), T0 + 200, 60)


async def test_the_change_a_timer_makes_uses_it_up_once(store: Storage) -> None:
    table, version = await _dealt(store)
    timer = _deadline(table.id, version)
    await store.tables.update_table(table.id, timer_deadline=T0, timer_version=version,
                                    timer=timer)
    changed = await store.tables.update_table(table.id, timer_deadline=None, fired=timer,
                                              timer=None)
    assert changed.timer_deadline is None and await store.timers.of(table.id) is None
    await store.tables.update_table(table.id, timer_deadline=T0)
    with pytest.raises(TimerGone):  # fired already: the second change writes nothing
        await store.tables.update_table(table.id, timer_deadline=None, fired=timer)
    assert (await store.tables.get_table(table.id)).timer_deadline == T0


async def test_a_fired_timer_is_dropped_only_if_void_by_what_is_stored(store: Storage) -> None:
    table, version = await _dealt(store)
    timer = _deadline(table.id, version)
    await store.tables.update_table(table.id, timer_deadline=T0, timer_version=version,
                                    timer=timer)
    assert not await store.timers.drop(timer)  # still the table's timer: kept
    assert await store.timers.of(table.id) == timer
    await store.tables.update_table(table.id, timer_deadline=T0 + 1)  # moved on, row left
    assert await store.timers.drop(timer)
    assert await store.timers.of(table.id) is None


async def test_a_move_a_pause_and_the_end_void_the_timers_set_before(store: Storage) -> None:
    table, version = await _dealt(store)
    await store.tables.update_table(table.id, timer=_deadline(table.id, version))
    match = new_match(table.header())
    match.start_deal(seed=1)
    state = match.state
    assert state is not None
    seat = state.to_act[0]
    match.apply(seat, state.legal_actions(seat)[0])
    await store.log.append(table.id, match.version, Entry.action(match.deals[-1]["actions"][-1]))
    assert await store.timers.of(table.id) is None  # deleted with the move's entry
    await store.tables.update_table(table.id, timer=_deadline(table.id, match.version))
    await store.tables.set_status(table.id, "paused")
    assert await store.timers.of(table.id) is None
    await store.tables.set_status(table.id, "playing")
    await store.tables.update_table(table.id, timer=_deadline(table.id, match.version))
    await store.tables.finish_game(table.id, [0, 0, 0])
    assert await store.timers.of(table.id) is None


async def test_two_processes_claiming_one_timer_at_once_get_it_once(location: str) -> None:
    first, second = await Storage.open(location), await Storage.open(location)
    try:
        table, version = await _dealt(first)
        timers = [_deadline(table.id, version, T0 + n) for n in range(20)]
        claims = []
        for timer in timers:  # each time a fresh timer, claimed by both at once
            await first.tables.update_table(table.id, timer=timer)
            claims.append(await asyncio.gather(first.timers.claim(timer, T0 + 30, 60),
                                               second.timers.claim(timer, T0 + 30, 60)))
        assert all(sorted(pair) == [False, True] for pair in claims)
    finally:
        await first.close()
        await second.close()


async def test_a_claim_passes_over_a_timer_another_claim_is_taking(
        postgres: LazyServer) -> None:
    """PostgreSQL: a claim does not wait for another transaction that holds the row (FOR
    UPDATE SKIP LOCKED): it finds nothing to fire."""
    store = await Storage.open(await postgres.new_database())
    try:
        table, version = await _dealt(store)
        timer = _deadline(table.id, version)
        await store.tables.update_table(table.id, timer=timer)
        locked, release = asyncio.Event(), asyncio.Event()

        async def hold(conn: object) -> None:
            await conn.fetch("SELECT table_id FROM timers FOR UPDATE")  # type: ignore[attr-defined]
            locked.set()
            await release.wait()

        holder = asyncio.create_task(store.db.write(hold))
        await locked.wait()
        assert not await asyncio.wait_for(store.timers.claim(timer, T0, 60), 5)
        release.set()
        await holder
        assert await store.timers.claim(timer, T0, 60)  # free again
    finally:
        await store.close()


async def _version_before_timers(location: str) -> None:
    """An empty database of the schema version before the timers' rows (either backend)."""
    if is_postgres(location):
        raw_pg = await asyncpg.connect(location)
        try:
            await _fill(PgConn(raw_pg), schema_pg.MIGRATIONS[:2], location)
        finally:
            await raw_pg.close()
        return
    async with aiosqlite.connect(location, isolation_level=None) as raw:
        await _fill(SqliteConn(raw), schema_sqlite.MIGRATIONS[:7], location)


async def _fill(conn: Conn, migrations: Sequence[Sequence[str]], location: str) -> None:
    """The older schema, with two tables playing under a turn timer: one whose nudge is
    still to come, one nudged already."""
    await migrate(conn, migrations, location)
    for chat, settings, nudged in ((-5, '{"turn_time":3600}', 0),
                                   (-6, '{"turn_time":300,"reminders":true}', 1)):
        await conn.execute("INSERT INTO chats (id, created_at, updated_at) VALUES (?, 0, 0)",
                           (chat,))
        await conn.execute(
            "INSERT INTO game_tables (chat_id, game, rules, settings, seat_count, status,"
            " timer_deadline, timer_version, timer_nudged, created_at, updated_at)"
            " VALUES (?, 'preferans', '{}', ?, 3, 'playing', ?, 4, ?, 0, 0)",
            (chat, settings, T0, nudged))


async def test_timers_stored_with_the_tables_become_rows(location: str) -> None:
    """After the migration each running timer is a row: the nudge still to come at half
    time, or the deadline after the nudge."""
    await _version_before_timers(location)
    async with await Storage.open(location) as store:
        assert await rows(store, "SELECT table_id, kind, due_at, version, deadline FROM timers"
                          " ORDER BY table_id") == [
            (1, "nudge", T0 - 1800, 4, T0), (2, "deadline", T0, 4, T0)]
