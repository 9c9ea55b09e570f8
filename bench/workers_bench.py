"""Cards handled per second by 1, 2 and 3 worker processes on PostgreSQL (a receiver and the
workers, `python -m bot receive` / `work`, against the loopback fake Bot API in webhook
mode), beside one process on SQLite (bench/bot_bench.py's same play, in this process); and
how soon forged presses are answered by a receiver and two workers (the workers' fuzz
suite's load: tests/bot/worker_fuzz.py).

Each table plays its first deal by its first legal actions, pressed (forged) as soon as the
press before is answered; the bench keeps each table's match itself to know the next move,
making a seat's only choice as the bot makes it. No flood limits: this measures the workers.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from bench import bot_bench
from bench.figures import Figure
from bot.ui.callbacks import action_data
from engine.match import Match
from storage.store import Storage
from tests.bot.harness import settings_env
from tests.bot.worker_fuzz import forged, fuzzed_table
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.postgres import PostgresServer

Seated = tuple[int, Match, list[User]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _only_choices(match: Match) -> None:
    """The moves the bot makes for a seat without asking (bot/service/play.only_choice)."""
    while (state := match.state) is not None and not state.finished and state.phase != "play" \
            and len(state.to_act) == 1 and len(state.legal_actions(state.to_act[0])) == 1:
        seat = state.to_act[0]
        match.apply(seat, state.legal_actions(seat)[0])


async def _play(tg: FakeTelegram, table: Seated, moves: int) -> int:
    table_id, match, users = table
    cards = 0
    for _ in range(moves):
        _only_choices(match)
        state = match.state
        if state is None or state.finished:
            break
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        user = users[state.controller(seat)]
        data = action_data(table_id, match.version, seat, action)
        query = tg.press_nowait(user, tg.last_message(user), data=data, forge=True)
        answer = await tg.answer_to(query, timeout=120)
        if answer.show_alert:
            raise AssertionError(f"table {table_id}: {action} refused: {answer.text}")
        match.apply(seat, action)
        cards += action.startswith("play:")
    return cards


async def _workers(server: PostgresServer, workers: int, tables: int, moves: int) -> float:
    url = await server.new_database()
    port = _free_port()
    async with FakeTelegram(flood=FloodLimits.off()) as tg:
        seated: list[Seated] = []
        await bot_bench._seed(url, tg, tables, matches=seated)
        env = {**os.environ, **settings_env(
            tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
            LOG_LEVEL="ERROR", GROUP_MESSAGES_PER_MINUTE="18",
            TELEGRAM_CALLS_PER_SECOND="100000")}
        processes = [await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", role,
                                                          env=env)
                     for role in ["receive", *["work"] * workers]]
        try:
            storage = await Storage.open(url)
            try:
                for _ in range(1200):  # every worker's heartbeat in (a slow start: 60 s)
                    async with storage.db.reading() as conn:
                        row = await conn.fetchone("SELECT count(*) FROM workers")
                    if tg.world.webhook.url and row is not None and row[0] >= workers:
                        break
                    await asyncio.sleep(0.05)
            finally:
                await storage.close()
            await _drawn(tg, seated)  # the workers adopt the new tables and draw them
            started = time.perf_counter()
            cards = await asyncio.gather(*(_play(tg, table, moves) for table in seated))
            elapsed = time.perf_counter() - started
        finally:
            await _stop(processes)
    return sum(cards) / elapsed



async def _drawn(tg: FakeTelegram, seated: list[Seated]) -> None:
    """Until every seated player has his panel (up to 2 minutes), then quiet."""
    for _ in range(2400):
        if all(tg.messages(user) for _, _, users in seated for user in users):
            break
        await asyncio.sleep(0.05)
    await tg.idle(quiet=1.0, timeout=120)


async def _stop(processes: list[asyncio.subprocess.Process]) -> None:
    """SIGTERM each process; kill one that has not ended 15 s later."""
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
            await process.wait()

async def _paced(tg: FakeTelegram, table: Seated, until: list[float],
                 rng: random.Random) -> None:
    """One table's moves, one every 0.5-1.5 s, until ``until[0]`` (it may be set later)."""
    while time.perf_counter() < until[0]:
        await _play(tg, table, 1)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


# What the statements of the workers are counted without (pg_stat_statements' texts): the
# receiver's (an update stored, the workers woken, a pressed table's lane looked up), the
# bench's own, and transaction control (round trips, counted apart: no work of its own).
_NOT_WORKERS = ("INSERT INTO inbox", "SELECT pg_notify", "WITH added AS (INSERT INTO inbox",
                "SELECT chat_id, thread_id FROM game_tables WHERE id", "CREATE EXTENSION",
                "SELECT pg_stat_statements", "SELECT count(*) FROM workers")
_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
# The workers' statements by what they do (the first class whose text a statement holds).
_KINDS = (("claims", ("WITH heads",)), ("heartbeats", ("WITH beat",)),
          ("screens stored as shown", ("shown_digest", "SET shown_at")),
          ("one-off calls kept and marked", ("INTO sends", "UPDATE sends")),
          ("calls' budgets and holds", ("take_call", "chat_calls")),
          ("the unit's writes", ("UPDATE", "INSERT", "DELETE")), ("reads", ("",)))


@dataclass
class Joined:
    """What ``_joining`` saw: the lanes each worker holds, the group messages posted and
    edited after the join, and the workers' SQL over the updates they did."""

    held: list[int]
    sent: int
    edited: int
    statements: int = 0
    round_trips: int = 0
    updates: int = 0
    starting: float = 0.0  # seconds from the joining workers' start to their heartbeats
    kinds: Counter[str] = field(default_factory=Counter)  # statements by ``_KINDS``
    calls: int = 0  # calls to chats (not a press's answer) during the play


async def _done(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SELECT count(*) FROM inbox WHERE done_at IS NOT NULL"))


async def _beating(url: str, workers: int) -> float:
    """Seconds until ``workers`` workers have beaten in the last second (they joined: up to a
    minute, as a loaded machine may start a process slowly)."""
    conn = await asyncpg.connect(url)
    started = time.perf_counter()
    try:
        while time.perf_counter() - started < 60 and await conn.fetchval(
                "SELECT count(*) FROM workers WHERE seen_at > extract(epoch FROM now()) - 1"
        ) < workers:
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    return time.perf_counter() - started


async def _counting(url: str) -> int:
    """The server's statement statistics start now; the updates done so far."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await conn.execute("SELECT pg_stat_statements_reset()")
        return await _done(conn)
    finally:
        await conn.close()


async def _counted(url: str, joined: Joined, done_before: int) -> None:
    """The workers' statements and round trips since ``_counting``, everything counted (the
    heartbeats, the lanes' claims and moves, the calls' budgets and marks), and the updates
    done meanwhile."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM"
            " pg_database WHERE datname = current_database())")
        joined.updates = await _done(conn) - done_before
    finally:
        await conn.close()
    worked = [(row["query"].lstrip(), int(row["calls"])) for row in rows
              if not row["query"].lstrip().startswith(_NOT_WORKERS)]
    joined.round_trips = sum(calls for _, calls in worked)
    for query, calls in worked:
        if not query.upper().startswith(_CONTROL):
            joined.statements += calls
            joined.kinds[next(kind for kind, holds in _KINDS
                              if any(text in query for text in holds))] += calls


async def _joining(server: PostgresServer, tables: int, before: float, seconds: float,
                   ) -> Joined:
    """One worker plays ``tables`` tables; two more join ``before`` seconds later (started,
    then beating); ``seconds`` after they beat: how many of the lanes worked in since each
    worker holds, and the group messages sent and edited since the join (a lane that moves
    must edit its table message, not post it again); the workers' statements over the whole
    play (pg_stat_statements, if the server loads it), and the calls to chats."""
    url = await server.new_database()
    port = _free_port()
    async with FakeTelegram(flood=FloodLimits.off()) as tg:
        seated: list[Seated] = []
        await bot_bench._seed(url, tg, tables, matches=seated)
        env = {**os.environ, **settings_env(
            tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
            LOG_LEVEL="ERROR", TELEGRAM_CALLS_PER_SECOND="100000")}
        processes = [await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", role,
                                                          env=env)
                     for role in ("receive", "work")]
        try:
            await _drawn(tg, seated)  # the worker adopts the tables and draws them
            done_before = await _counting(url)
            calls_counted = len(tg.calls)
            rng = random.Random(tables)
            until = [math.inf]
            playing = asyncio.gather(*(_paced(tg, table, until, random.Random(rng.random()))
                                       for table in seated))
            await asyncio.sleep(before)
            calls_before = len(tg.calls)
            processes += [await asyncio.create_subprocess_exec(sys.executable, "-m", "bot",
                                                               "work", env=env)
                          for _ in range(2)]
            joined_after = await _beating(url, 3)
            until[0] = time.perf_counter() + seconds
            await playing
            await tg.idle(quiet=1.0, timeout=60)  # what the last presses show is sent
            joined = Joined([], 0, 0, starting=joined_after, calls=sum(
                c.chat_id is not None and c.method != "answerCallbackQuery"
                for c in tg.calls[calls_counted:]))
            await _counted(url, joined, done_before)
            storage = await Storage.open(url)
            try:
                async with storage.db.reading() as conn:
                    rows = await conn.fetch(
                        "SELECT owner, count(*) FROM lanes WHERE lane LIKE 'c%' GROUP BY owner")
            finally:
                await storage.close()
            since = [c for c in tg.calls[calls_before:]
                     if isinstance(c.chat_id, int) and c.chat_id < 0 and c.status == 200]
        finally:
            await _stop(processes)
    joined.held = sorted((int(row[1]) for row in rows), reverse=True)
    joined.sent = sum(c.method == "sendMessage" for c in since)
    joined.edited = sum(c.method == "editMessageText" for c in since)
    return joined


async def _fuzzed(server: PostgresServer, presses: int) -> dict[str, float]:
    """A receiver and two workers; one Preferans table; ``presses`` forged presses one after
    another, a player's own after about every third: how soon each press was answered."""
    url = await server.new_database()
    with tempfile.TemporaryDirectory() as logs:
        async with FakeTelegram() as tg, fuzzed_table(tg, url, Path(logs)) as fuzz:
            rng = random.Random(31)
            people = [*fuzz.played.users, fuzz.stranger]
            for _ in range(presses):
                await fuzz.forged(rng.choice(people), forged(fuzz.table, rng))
    return {**fuzz.latency(), "presses": len(fuzz.waits)}


def run(quick: bool) -> list[Figure]:
    tables, moves = (12, 12) if quick else (60, 40)
    before, after = (2.0, 8.0) if quick else (5.0, 10.0)  # the join: a worker alone, then 3
    note = f"{tables} Preferans tables at once, {moves} actions each, first deal, no flood limits"
    _, sqlite, _ = asyncio.run(bot_bench._latency(tables, moves))
    figures = [Figure("workers", "cards/s, one process on SQLite", sqlite, "cards/s", note)]
    server = PostgresServer(options="-c shared_preload_libraries=pg_stat_statements").start()
    try:
        for workers in (1,) if quick else (1, 2, 3):
            rate = asyncio.run(_workers(server, workers, tables, moves))
            figures.append(Figure("workers", f"cards/s, {workers} worker(s) on PostgreSQL", rate,
                                  "cards/s", note + "; with a receiver, webhook" + (
                                      " (--quick: 1 worker only, the full run 1, 2 and 3)"
                                      if quick else "")))
        joined = asyncio.run(_joining(server, tables, before, after))
        fuzzed = asyncio.run(_fuzzed(server, 12 if quick else 300))
    finally:
        server.stop()
    held, updates = joined.held, max(1, joined.updates)
    figures += [
        Figure("workers", f"lanes each worker holds {after:g} s after two joined one",
               min(held) / sum(held) * 100 if len(held) == 3 else 0.0, "% (the fewest)",
               f"{tables} tables moving every 0.5-1.5 s: {'/'.join(map(str, held))} lanes;"
               f" a third is 33 %; the two beat {joined.starting:.1f} s after their start"),
        Figure("workers", "group messages posted again after the join", joined.sent,
               "messages", f"{joined.edited} table messages edited meanwhile; goal 0 posted"),
        Figure("workers", "SQL statements an update, workers joining", joined.statements
               / updates, "statements", f"{joined.updates} updates over the play, everything"
               f" counted, the receiver's apart: " + ", ".join(
                   f"{kind} {n / updates:.2f}" for kind, n in joined.kinds.most_common())
               + f"; {joined.calls / updates:.2f} calls to chats an update;"
               f" {joined.round_trips / updates:.1f} round trips with transaction control;"
               " goal <= 12")]
    note = (f"{fuzzed['presses']:.0f} presses, forged and players' own, one at a time, at a "
            "receiver and 2 workers (the workers' fuzz suite's load); goal 2 s each")
    figures += [Figure("workers", f"fuzzed presses answered, {name}", fuzzed[name] * 1000,
                       "ms", note) for name in ("median", "p99", "max")]
    return figures
