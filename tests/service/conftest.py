"""The use cases driven directly, without Telegram: a real SQLite database in memory, real
APScheduler jobs (a scheduler that is not started: a test runs a due job itself), and the
outcomes they publish collected."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from apscheduler.job import Job
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.service import lobby, play
from bot.service.outcome import Outcome
from bot.service.ports import Services
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.tables import Table
from bot.service.users import Person, Users
from storage.rows import UserRow
from storage.store import Storage

NAMES = ("Ann", "Bob", "Cid", "Dan")


@dataclass
class World:
    svc: Services
    published: list[Outcome] = field(default_factory=list)

    @property
    def jobs(self) -> APSchedulerJobs:
        assert isinstance(self.svc.scheduler, APSchedulerJobs)
        return self.svc.scheduler

    def dated(self) -> list[Job]:
        """The scheduler's one-off jobs (timers and robot moves)."""
        return [j for j in self.jobs.scheduler.get_jobs() if isinstance(j.trigger, DateTrigger)]

    async def users(self, n: int, *, started: bool = True) -> list[UserRow]:
        return [await self.svc.users.seen(Person(i + 1, NAMES[i]), started=started)
                for i in range(n)]

    async def run_due(self, at: float) -> int:
        """Run every one-off job due at ``at`` (Unix seconds) as the scheduler would (not
        the timers' poll); how many."""
        due = [j for j in self.dated() if j.trigger.run_date <= datetime.fromtimestamp(at, UTC)]
        for job in due:
            job.remove()
            await job.func(*job.args)
        return len(due)

    async def table(self, game: str, players: list[UserRow], rules: dict | None = None,
                    *, start: bool = True, chat: int = -100) -> Table:
        """A lobby of ``game`` in the chat opened by the first player, joined by the others
        (and the rules pressed until they are ``rules``), then started."""
        out = await lobby.open_table(self.svc, chat, 0, players[0], game)
        assert out.ok, out.refusal
        (table,) = out.changed.values()
        for key, value in (rules or {}).items():
            while table.rules.get(key) != value and table.spec.rules.from_dict(
                    table.row.rules).to_dict()[key] != value:
                assert (await lobby.change_option(self.svc, table, key)).ok
        for user in players[1:]:
            assert (await lobby.join(self.svc, table, user)).ok
        if start:
            assert (await lobby.start(self.svc, table)).ok
        return table

    async def play(self, table: Table, rng: random.Random, *,
                   until: Callable[[], bool]) -> AsyncIterator[tuple[int, Outcome]]:
        """Random legal actions by whoever must act, each through the use case, until
        ``until()``; each one's user and outcome."""
        match = table.match
        assert match is not None
        while not until():
            state = match.state
            assert state is not None
            seat = state.to_act[0]
            user = table.user_of(state.controller(seat))
            assert user is not None
            async with table.lock:
                out = await play.act(self.svc, table, user, match.version, seat,
                                     rng.choice(state.legal_actions(seat)))
            assert out.ok and table.id in out.changed, out.refusal
            yield user, out


@pytest.fixture
async def world() -> AsyncIterator[World]:
    store = await Storage.open(":memory:")
    found = World(LiveServices(store, Users(store, ("en", "ru")),
                           scheduler=APSchedulerJobs(AsyncIOScheduler())))
    found.svc.publish = found.published.append
    yield found
    await store.close()
