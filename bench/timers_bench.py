"""Turn timers (issues 9 and 18): setting the jobs of the stored timers at start-up (timers
are rows: only those due within the horizon get a job), and the bookkeeping a move adds
when its table has a turn timer (one durable write: the table's deadline and its row)."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bench.figures import Figure
from bot.service import loading
from bot.service.ports import Services
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.timers import HORIZON
from bot.service.users import Users
from engine.games import get_game
from engine.records import new_match
from storage import Entry, Storage
from storage.rows import TimerRow

SETTINGS = {"turn_time": 3600, "reminders": True, "timeout": "robot"}


async def _timed_table(store: Storage, n: int) -> None:
    """A started 3-player Preferans table dealt its first hand, with a 1-hour timer whose
    nudge is due in the next hour (n-th of the tables: spread over it)."""
    users = [10 * n + seat + 1 for seat in range(3)]
    for user in users:
        await store.chats.save_user(user, display_name=f"U{user}")
    table = await store.tables.create_table(-1 - n, "preferans", creator_id=users[0], rules={},
                                     seat_count=3, settings=SETTINGS)
    for user in users:
        await store.tables.seat_user(table.id, user)
    rules = get_game("preferans").rules.from_dict({}).to_dict()
    table = await store.tables.start_game(table.id, rules=rules)
    match = new_match(table.header())
    match.start_deal(seed=n)
    await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
    deadline = time.time() + 1800 + 3600 * (n * 0.618 % 1)
    await store.tables.update_table(
        table.id, timer_deadline=deadline, timer_version=match.version,
        timer=TimerRow(table.id, "nudge", deadline - 1800, match.version, deadline))


def _services(store: Storage) -> Services:
    """The services over the stored tables, with a scheduler that is not running."""
    return LiveServices(store, Users(store, ("en",)), scheduler=APSchedulerJobs(AsyncIOScheduler()))


async def _rebuild(path: str, tables: int) -> tuple[float, int]:
    """Seconds of the start-up with the tables' timers stored, and the jobs it set (for the
    timers due within the horizon)."""
    async with await Storage.open(path) as store:
        for start in range(0, tables, 100):
            await asyncio.gather(*(_timed_table(store, n)
                                   for n in range(start, min(tables, start + 100))))
        for row in await store.tables.open_tables():
            await store.tables.mark_shown(row.id, row.updated_at)
        svc = _services(store)
        began = time.perf_counter()
        await loading.restore(svc)  # the timers from the tables' rows, no table loaded
        seconds = time.perf_counter() - began
        assert not svc.tables.by_id
        return seconds, len(svc.timers.armed)


async def _per_move(path: str, moves: int) -> list[float]:
    """Seconds of the timer's bookkeeping after each of ``moves`` random moves (a new
    deadline for the next player, stored durably, and its job)."""
    rng = random.Random(1)
    async with await Storage.open(path) as store:
        await _timed_table(store, 0)
        svc = _services(store)
        (row,) = await store.tables.open_tables()
        table = await loading.table(svc, row.id)
        assert table is not None
        match = table.match
        assert match is not None
        times = []
        for _ in range(moves):
            if not match.in_deal:
                match.start_deal(seed=rng.randrange(2**32))
                await store.log.append(table.id, match.version, Entry.deal(match.deals[-1]))
            state = match.state
            assert state is not None
            seat = state.to_act[0]
            match.apply(seat, match.spec.random_action(state, seat, rng))
            await store.log.append(table.id, match.version,
                               Entry.action(match.deals[-1]["actions"][-1]),
                               result=match.outputs[-1] if not match.in_deal else None)
            began = time.perf_counter()
            await svc.timers.rearm(table)
            times.append(time.perf_counter() - began)
        return times


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(quick: bool) -> list[Figure]:
    tables = 200 if quick else 2_000
    moves = 100 if quick else 500
    with tempfile.TemporaryDirectory(prefix="timers_bench") as tmp:
        seconds, jobs = asyncio.run(_rebuild(f"{tmp}/rebuild.db", tables))
        per_move = asyncio.run(_per_move(f"{tmp}/moves.db", moves))
    return [
        Figure("timers", f"start-up with {tables:,} timed tables", 1000 * seconds, "ms",
               f"{jobs:,} jobs set for the timer rows due within {HORIZON / 60:.0f} min"
               " (the nudges spread over an hour); no table loaded, no write"),
        Figure("timers", "timer bookkeeping per move, median", 1000 * statistics.median(per_move),
               "ms", "a new deadline and its row stored durably (WAL, synchronous=FULL)"),
        Figure("timers", "timer bookkeeping per move, p99", 1000 * _percentile(per_move, 0.99),
               "ms", f"{len(per_move)} moves of random play"),
    ]
