"""Turn timers through the use cases: the jobs they set on APScheduler, what a due job
does and publishes, and that a job set before a move does nothing after it."""

from __future__ import annotations

from typing import Any

from bot.service import events, lobby, play
from bot.service.tables import Table
from tests.service.conftest import World

AUTO = {"turn_time": 300, "reminders": True, "timeout": "auto"}


async def _timed(world: World, settings: dict[str, Any]) -> tuple[Table, float]:
    """A started Preferans table with these time settings, and its first turn's deadline."""
    table = await world.table("preferans", await world.users(3), start=False)
    table.row = await world.svc.store.tables.update_settings(table.id, settings)
    assert (await lobby.start(world.svc, table)).ok
    assert table.row.timer_deadline is not None
    return table, table.row.timer_deadline


async def test_the_nudge_then_the_timeout_move_each_once(world: World) -> None:
    table, deadline = await _timed(world, AUTO)
    assert table.match is not None
    version = table.match.version
    assert await world.run_due(deadline - 200) == 0  # nothing is due yet
    assert await world.run_due(deadline - 150) == 1  # half time: the nudge
    (nudged,) = world.published
    (reminder,) = [e for e in nudged.events if isinstance(e, events.Reminder)]
    assert set(reminder.users) == table.acting_users()
    assert table.match.version == version
    assert await world.run_due(deadline) == 1  # the deadline: one move made for the player
    expired = world.published[1]
    assert [e.then for e in expired.events if isinstance(e, events.TimeUp)] == ["auto"]
    assert table.match.version == version + 1
    record = await world.svc.store.log.record(table.id)
    assert record["deals"][-1]["actions"] == table.match.deals[-1]["actions"]
    assert await world.run_due(deadline + 10_000) <= 1  # only the next turn's own timer


async def test_a_move_before_the_deadline_cancels_the_timer(world: World) -> None:
    table, deadline = await _timed(world, {**AUTO, "reminders": False})
    match = table.match
    assert match is not None and match.state is not None
    seat = match.state.to_act[0]
    user = table.user_of(match.state.controller(seat))
    assert user is not None
    async with table.lock:
        out = await play.act(world.svc, table, user, match.version, seat,
                             match.state.legal_actions(seat)[0])
    assert out.ok
    moved = match.version
    assert table.row.timer_deadline is not None and table.row.timer_deadline >= deadline
    assert await world.run_due(deadline) == 0  # the first turn's job is gone
    assert match.version == moved and world.published == []
