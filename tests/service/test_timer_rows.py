"""Timers as rows through the use cases, on both backends: two processes (two services on
one database) polling the same stored timers fire a due one once; a timer polled before
its table moved on does nothing; start-up sets jobs only for the timers due soon; a timer
whose firing process died is fired by another once its claim runs out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import time_machine
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import events, loading, lobby, play
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.tables import Table
from bot.service.timers import HOLD, HORIZON
from bot.service.users import Users
from storage.store import Storage
from tests.service.conftest import World

AUTO = {"turn_time": 300, "reminders": False, "timeout": "auto"}


@pytest.fixture
async def worlds(location: str) -> AsyncIterator[tuple[World, World]]:
    """Two processes' services on one database (each its own connections and scheduler)."""
    stores = [await Storage.open(location) for _ in range(2)]
    found = []
    for store in stores:
        world = World(LiveServices(store, Users(store, ("en",)),
                               scheduler=APSchedulerJobs(AsyncIOScheduler())))
        world.svc.publish = world.published.append
        found.append(world)
    yield found[0], found[1]
    for store in stores:
        await store.close()


async def _timed(world: World, settings: dict[str, object]) -> Table:
    table = await world.table("preferans", await world.users(3), start=False)
    table.row = await world.svc.store.tables.update_settings(table.id, settings)
    assert (await lobby.start(world.svc, table)).ok
    return table


def _time_ups(*worlds: World) -> list[events.TimeUp]:
    return [e for w in worlds for o in w.published for e in o.events
            if isinstance(e, events.TimeUp)]


async def test_two_processes_fire_a_due_timer_once(worlds: tuple[World, World]) -> None:
    a, b = worlds
    table = await _timed(a, AUTO)
    assert table.match is not None and table.row.timer_deadline is not None
    version, deadline = table.match.version, table.row.timer_deadline
    with time_machine.travel(deadline + 1, tick=False):
        assert await b.svc.timers.poll() == 1  # the other process learns of it from its row
        assert await a.svc.timers.poll() == 0  # this one has its job since the start
        assert await asyncio.gather(a.run_due(deadline + 1), b.run_due(deadline + 1)) == [1, 1]
    record = await a.svc.store.log.record(table.id)
    assert len(record["deals"][-1]["actions"]) == 1  # one timeout move, by one of them
    assert [t.then for t in _time_ups(a, b)] == ["auto"]
    stored = await a.svc.store.tables.get_table(table.id)
    assert stored.last_seq == version + 1
    timer = await a.svc.store.timers.of(table.id)  # the next player's own timer
    assert timer is not None and (timer.version, timer.kind) == (version + 1, "deadline")


async def test_a_timer_polled_before_its_table_moved_on_does_nothing(
        worlds: tuple[World, World]) -> None:
    a, b = worlds
    table = await _timed(a, AUTO)
    match = table.match
    assert match is not None and match.state is not None and table.row.timer_deadline
    deadline = table.row.timer_deadline
    assert await b.svc.timers.poll() == 1  # b has a job for the first turn's timer
    seat = match.state.to_act[0]
    user = table.user_of(match.state.controller(seat))
    assert user is not None
    async with table.lock:  # the player moves in time, in a
        assert (await play.act(a.svc, table, user, match.version, seat,
                               match.state.legal_actions(seat)[0])).ok
    moved = match.version
    with time_machine.travel(deadline + 1, tick=False):
        assert await b.run_due(deadline + 1) == 1  # b's job fires: its timer is gone
    assert b.published == [] and _time_ups(a, b) == []
    assert (await a.svc.store.tables.get_table(table.id)).last_seq == moved
    timer = await a.svc.store.timers.of(table.id)
    assert timer is not None and timer.version == moved  # the move's own timer stays


async def test_start_up_sets_jobs_only_for_the_timers_due_soon(
        worlds: tuple[World, World]) -> None:
    a, b = worlds
    soon = await _timed(a, AUTO)  # 5 minutes: within the horizon
    a.svc.tables.by_id.clear()
    later = await a.table("joker", await a.users(4), start=False, chat=-200)
    later.row = await a.svc.store.tables.update_settings(later.id, {**AUTO, "turn_time": 3600})
    assert (await lobby.start(a.svc, later)).ok
    for table in (soon, later):
        await a.svc.store.tables.mark_shown(table.id, table.row.updated_at)
    out, problems = await loading.restore(b.svc)
    assert not problems and not out.changed and b.svc.tables.by_id == {}  # nothing loaded
    assert set(b.svc.timers.armed) == {soon.id} and len(b.dated()) == 1
    assert later.row.timer_deadline is not None
    with time_machine.travel(later.row.timer_deadline - HORIZON + 1, tick=False):
        assert await b.svc.timers.poll() == 1  # the later one came into the horizon
    assert set(b.svc.timers.armed) == {soon.id, later.id}


async def test_a_timer_claimed_by_a_process_that_died_fires_once_the_claim_runs_out(
        worlds: tuple[World, World]) -> None:
    a, b = worlds
    table = await _timed(a, AUTO)
    assert table.match is not None and table.row.timer_deadline is not None
    version, deadline = table.match.version, table.row.timer_deadline
    timer = await a.svc.store.timers.of(table.id)
    assert timer is not None
    with time_machine.travel(deadline + 1, tick=False):  # a claims it and dies at once
        assert await a.svc.store.timers.claim(timer, time.time(), HOLD)
        assert await b.svc.timers.poll() == 0  # left to a for now
    with time_machine.travel(deadline + 1 + HOLD, tick=False):
        assert await b.svc.timers.poll() == 1
        assert await b.run_due(time.time()) == 1
    assert [t.then for t in _time_ups(b)] == ["auto"]
    assert (await b.svc.store.tables.get_table(table.id)).last_seq == version + 1
