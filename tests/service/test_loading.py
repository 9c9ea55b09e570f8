"""Tables are loaded when first touched, not at start-up: start-up loads only the tables with
work to do at once and sets every other table's timer from its row; a press, a command or
a timer loads its table, resumed from the snapshot of its last deal's end."""

from __future__ import annotations

import random
import time
from pathlib import Path

import time_machine
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import loading, play, presses, time_settings
from bot.service.drafts import EntryRules
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.tables import Table
from bot.service.users import Users
from storage.store import Storage
from tests.service.conftest import World


def _world(store: Storage) -> World:
    world = World(LiveServices(store, Users(store, ("en",)),
                           scheduler=APSchedulerJobs(AsyncIOScheduler())))
    world.svc.publish = world.published.append
    return world


async def _play_a_deal_and_more(world: World, table: Table) -> None:
    """Random legal moves until the first deal has ended and the second is under way."""
    rng = random.Random(7)
    match = table.match
    assert match is not None
    while match.deal_count < 2 or not match.in_deal or match.version < 40:
        assert match.state is not None
        seat = match.state.to_act[0]
        user = table.user_of(match.state.controller(seat))
        assert user is not None
        action = match.spec.random_action(match.state, seat, rng)
        async with table.lock:
            assert (await play.act(world.svc, table, user, match.version, seat, action)).ok
    await world.svc.store.tables.mark_shown(table.id, table.row.updated_at)  # as the presenter


async def test_a_table_loads_on_first_touch_from_its_snapshot(tmp_path: Path) -> None:
    path = str(tmp_path / "loading.db")
    store = await Storage.open(path)
    world = _world(store)
    players = await world.users(3)
    table = await world.table("preferans", players)
    await time_settings.store(world.svc, table, time_settings.TimeSettings.of(
        {"turn_time": 3600, "reminders": False, "timeout": "auto"}))
    await _play_a_deal_and_more(world, table)
    match = table.match
    assert match is not None and match.in_deal
    expected = (match.report(), match.version, match.state.view(None) if match.state else None)
    await store.close()

    store = await Storage.open(path)  # the process starts again
    try:
        again = _world(store)
        out, problems = await loading.restore(again.svc)
        assert not problems and not out.changed
        assert again.svc.tables.by_id == {}  # nothing loaded: every message showed the table
        assert again.jobs.scheduler.get_jobs() != [] and again.dated() == []  # an hour
        assert [t.table_id for t in await store.timers.due(time.time() + 3600, time.time())] == [
            table.id]  # away: the stored timer, due beyond the horizon, gets its job later
        assert await again.svc.timers.poll() == 0
        with time_machine.travel(time.time() + 3600 - 60, tick=False):
            assert await again.svc.timers.poll() == 1  # within the horizon now
        (job,) = again.dated()
        assert abs(job.trigger.run_date.timestamp() - (time.time() + 3600)) < 120

        state = (await store.tables.get_table(table.id))
        loaded = await loading.table(again.svc, table.id)  # the first touch
        assert loaded is not None and loaded.match is not None
        assert loaded.match.earlier >= 1  # the deals before the snapshot were not replayed
        resumed = loaded.match
        assert (resumed.report(), resumed.version,
                resumed.state.view(None) if resumed.state else None) == expected
        assert state.last_seq == resumed.version
        assert await loading.table(again.svc, table.id) is loaded  # loaded once

        seat = resumed.state.to_act[0] if resumed.state else 0
        user = await store.chats.get_user(loaded.user_of(resumed.state.controller(seat))
                                          if resumed.state else 0)
        assert user is not None
        action = resumed.state.legal_actions(seat)[0] if resumed.state else ""
        out = await presses.panel_press(again.svc, loaded, user.id, "a",
                                        (str(resumed.version), str(seat), action), _NoFront())
        assert out.ok, out.refusal
        assert (await store.tables.get_table(table.id)).last_seq == expected[1] + 1
    finally:
        await store.close()


async def test_start_up_loads_a_table_whose_messages_are_behind(tmp_path: Path) -> None:
    path = str(tmp_path / "behind.db")
    store = await Storage.open(path)
    world = _world(store)
    players = await world.users(3)
    table = await world.table("preferans", players)  # never marked shown
    await store.close()
    store = await Storage.open(path)
    try:
        again = _world(store)
        out, _ = await loading.restore(again.svc)
        assert set(out.changed) == {table.id} and set(again.svc.tables.by_id) == {table.id}
    finally:
        await store.close()


class _NoFront:
    def stepper(self, game: str) -> play.Stepper:
        raise AssertionError("no UI step in this test")

    def entry_rules(self, game: str) -> EntryRules:
        raise AssertionError("no entry in this test")
