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
import os
import random
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

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

async def _paced(tg: FakeTelegram, table: Seated, until: float, rng: random.Random) -> None:
    """One table's moves, one every 0.5-1.5 s, until ``until``."""
    while time.perf_counter() < until:
        await _play(tg, table, 1)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


async def _joining(server: PostgresServer, tables: int, seconds: float) -> tuple[list[int], int,
                                                                                    int]:
    """One worker plays ``tables`` tables; two more join; ``seconds`` later: how many of the
    lanes worked in since each worker holds, and the group messages sent and edited since
    the join (a lane that moves must edit its table message, not post it again)."""
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
            rng = random.Random(tables)
            until = time.perf_counter() + 5.0 + seconds
            playing = asyncio.gather(*(_paced(tg, table, until, random.Random(rng.random()))
                                       for table in seated))
            await asyncio.sleep(5.0)
            joined = len(tg.calls)
            processes += [await asyncio.create_subprocess_exec(sys.executable, "-m", "bot",
                                                               "work", env=env)
                          for _ in range(2)]
            await playing
            storage = await Storage.open(url)
            try:
                async with storage.db.reading() as conn:
                    rows = await conn.fetch(
                        "SELECT owner, count(*) FROM lanes WHERE lane LIKE 'c%' GROUP BY owner")
            finally:
                await storage.close()
            since = [c for c in tg.calls[joined:]
                     if isinstance(c.chat_id, int) and c.chat_id < 0 and c.status == 200]
        finally:
            await _stop(processes)
    held = sorted((int(row[1]) for row in rows), reverse=True)
    return held, sum(c.method == "sendMessage" for c in since), \
        sum(c.method == "editMessageText" for c in since)


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
    tables, moves = (30, 20) if quick else (60, 40)
    note = f"{tables} Preferans tables at once, first deal, no flood limits"
    _, sqlite = asyncio.run(bot_bench._latency(tables, moves))
    figures = [Figure("workers", "cards/s, one process on SQLite", sqlite, "cards/s", note)]
    server = PostgresServer().start()
    try:
        for workers in (1, 2, 3):
            rate = asyncio.run(_workers(server, workers, tables, moves))
            figures.append(Figure("workers", f"cards/s, {workers} worker(s) on PostgreSQL", rate,
                                  "cards/s", note + "; with a receiver, webhook"))
        held, sent, edited = asyncio.run(_joining(server, tables, 10.0))
        fuzzed = asyncio.run(_fuzzed(server, 60 if quick else 300))
    finally:
        server.stop()
    figures += [
        Figure("workers", "lanes each worker holds 10 s after two joined one",
               min(held) / sum(held) * 100 if len(held) == 3 else 0.0, "% (the fewest)",
               f"{tables} tables moving every 0.5-1.5 s: {'/'.join(map(str, held))} lanes;"
               " a third is 33 %"),
        Figure("workers", "group messages posted again after the join", sent, "messages",
               f"{edited} table messages edited meanwhile; goal 0 posted")]
    note = (f"{fuzzed['presses']:.0f} presses, forged and players' own, one at a time, at a "
            "receiver and 2 workers (the workers' fuzz suite's load); goal 2 s each")
    figures += [Figure("workers", f"fuzzed presses answered, {name}", fuzzed[name] * 1000,
                       "ms", note) for name in ("median", "p99", "max")]
    return figures
