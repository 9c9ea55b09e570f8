"""Restore (issue 18): start-up time and memory with 10,000 and 100,000 stored active games,
and the time of a table's first touch (its match resumed from the snapshot of its last
deal's end and the log after it).

Start-up and first touches are measured in a fresh process (``python -m bench.restore_bench
measure LOCATION``) so that its resident memory is the bot's and nothing else's.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bench.figures import Figure
from bench.storage_bench import active_record
from bot.service import loading, records
from bot.service.scheduling import APSchedulerJobs
from bot.service.services import LiveServices
from bot.service.timers import HORIZON
from bot.service.users import Users
from engine.games import GAMES
from engine.records import replay
from storage import Storage
from storage.record_log import entries_of
from storage.sql import Conn

DISTINCT = 1_000  # distinct records, reused round-robin (--quick: 100)
TOUCHES = 300  # tables touched for the first time after start-up (at most: all of them)
TIMED = 0.5  # share of the games with a turn timer running


@functools.cache
def _prepared(count: int) -> list[tuple[Any, ...]]:
    """``count`` distinct active games, ready to store (made once for every size)."""
    names = sorted(GAMES)
    prepared = []
    seed = 0
    while len(prepared) < count:
        seed += 1
        record = active_record(names[seed % len(names)], seed)
        match = replay(record)
        if not match.in_deal:  # a game that ended (or a void deal) is no active game
            continue
        seats = len(match.players)
        prepared.append((match.record(), match.outputs,
                         [records.seat_stats(match.spec.name, seats, o) for o in match.outputs],
                         records.last_snapshot(match), len(entries_of(record))))
    return prepared


async def populate(location: str, games: int, distinct: int = DISTINCT) -> int:
    """``games`` active games, each in its own chat, as the bot leaves them: playing, their
    messages shown, a snapshot at their last deal's end, half with a turn timer (``_timed``);
    ``distinct`` records reused round-robin. Returns the log entries stored."""
    prepared = _prepared(min(games, distinct))
    async with await Storage.open(location) as store:
        for start in range(0, games, 500):
            await asyncio.gather(*(_store(store, -1 - n, prepared[n % len(prepared)])
                                   for n in range(start, min(games, start + 500))))
        now = time.time()
        await store.db.write(lambda conn: _timed(conn, now))
    return sum(prepared[n % len(prepared)][4] for n in range(games))


async def _timed(conn: Conn, now: float) -> None:
    """Every game playing and shown; every other one with a 24-hour turn timer, nudged
    already, its deadline somewhere in the next 24 hours (as rows: a few are due soon)."""
    await conn.execute(
        "UPDATE game_tables SET status = 'playing', shown_at = updated_at, settings = ?,"
        " timer_version = last_seq, timer_nudged = 1, timer_deadline = CASE WHEN id % 2 = 0"
        " THEN CAST(? AS DOUBLE PRECISION) + (id * 7919) % 86400 END",
        ('{"turn_time":86400,"reminders":true,"timeout":"auto"}', now))
    await conn.execute(
        "INSERT INTO timers (table_id, kind, due_at, version, deadline) SELECT id, 'deadline',"
        " timer_deadline, timer_version, timer_deadline FROM game_tables"
        " WHERE timer_deadline IS NOT NULL")


async def _store(store: Storage, chat_id: int, prepared: tuple[Any, ...]) -> None:
    record, outputs, stats, snapshot, _ = prepared
    await store.log.import_game(chat_id, record, outputs=outputs, stats=stats, settlement=None,
                                snapshot=snapshot)


def _memory_mb() -> dict[str, float]:
    status = Path("/proc/self/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return {key: int(fields[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}


async def measure(location: str) -> dict[str, Any]:
    """Start as the bot starts (storage, services, timers on a scheduler), then touch
    tables for the first time."""
    before = _memory_mb()
    began = time.perf_counter()
    store = await Storage.open(location)
    scheduler = AsyncIOScheduler()
    svc = LiveServices(store, Users(store, ("en",)), scheduler=APSchedulerJobs(scheduler))
    out, problems = await loading.restore(svc)
    startup = time.perf_counter() - began
    jobs = len(svc.timers.armed)  # the stored timers due soon
    after = _memory_mb()
    async with store.db.reading() as conn:
        ids = [row[0] for row in await conn.fetch("SELECT id FROM game_tables")]
        (timers,) = await conn.fetchone("SELECT COUNT(*) FROM timers")
    rng = random.Random(1)
    touches = []
    for table_id in rng.sample(ids, min(TOUCHES, len(ids))):
        began = time.perf_counter()
        table = await loading.table(svc, table_id)
        touches.append(time.perf_counter() - began)
        assert table is not None and table.match is not None and table.match.in_deal
    touched = _memory_mb()
    await store.close()
    return {"startup": startup, "loaded": len(out.changed), "problems": len(problems),
            "jobs": jobs, "timers": timers, "tables": len(ids), "touches": len(touches),
            "rss_before": before["VmRSS"],
            "rss_after": after["VmRSS"], "rss_touched": touched["VmRSS"],
            "touch_median": statistics.median(touches), "touch_max": max(touches),
            "touch_p99": sorted(touches)[int(0.99 * (len(touches) - 1))]}


def _figures(backend: str, games: int, entries: int, distinct: int, found: dict[str, Any],
             populate_s: float) -> list[Figure]:
    note = (f"{found['tables']:,} active games ({min(games, distinct):,} distinct), "
            f"{entries:,} log entries, {found['timers']:,}"
            f" timer rows; {found['jobs']:,} jobs set at start-up (due within"
            f" {HORIZON / 60:.0f} min); populated in {populate_s:.0f} s")
    return [
        Figure("restore", f"{backend}: start-up with {games:,} stored games",
               found["startup"], "s", note),
        Figure("restore", f"{backend}: resident memory after start-up, {games:,} games",
               found["rss_after"], "MB", f"{found['rss_before']:.0f} MB before opening"),
        Figure("restore", f"{backend}: first touch of a table, median, {games:,} games",
               1000 * found["touch_median"], "ms",
               f"{found['touches']} random tables: snapshot + current deal replayed"),
        Figure("restore", f"{backend}: first touch of a table, max, {games:,} games",
               1000 * found["touch_max"], "ms",
               f"p99 {1000 * found['touch_p99']:.1f} ms; {found['rss_touched']:.0f} MB after"),
    ]


def _run_one(backend: str, location: str, games: int, distinct: int) -> list[Figure]:
    began = time.perf_counter()
    entries = asyncio.run(populate(location, games, distinct))
    populate_s = time.perf_counter() - began
    child = subprocess.run([sys.executable, "-m", "bench.restore_bench", "measure", location],
                           check=True, capture_output=True, text=True)
    return _figures(backend, games, entries, distinct, json.loads(child.stdout), populate_s)


def run(quick: bool) -> list[Figure]:
    """SQLite at both sizes, PostgreSQL at the smaller (its server: the tests' throwaway one,
    no network)."""
    from tests.postgres import LazyServer

    sizes, distinct = ((200, 1_000), 100) if quick else ((10_000, 100_000), DISTINCT)
    figures: list[Figure] = []
    server = LazyServer()
    try:
        location = asyncio.run(server.new_database())
        figures += _run_one("PostgreSQL", location, sizes[0], distinct)
    finally:
        server.stop()
    with tempfile.TemporaryDirectory(prefix="restore_bench") as tmp:
        for games in sizes:
            figures += _run_one("SQLite", f"{tmp}/restore-{games}.db", games, distinct)
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["measure"] and len(sys.argv) == 3:
        print(json.dumps(asyncio.run(measure(sys.argv[2]))))
    else:
        sys.exit("usage: python -m bench.restore_bench measure LOCATION")
