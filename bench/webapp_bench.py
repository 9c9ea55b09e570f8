"""The Mini App on loopback: action latency from a tap (the press posted) to every open client
of that table redrawn (its event stream delivered the new page and the client read it), with
100 tables playing at once and 300 open clients (each seat's player watching his page).

The clients are what the page does over HTTP (an event stream, a JSON post), without a
browser: 300 Chromium pages do not fit on the machine these figures are made on.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import ClientSession, TCPConnector

from bench.bot_bench import _percentile, _seed, next_move
from bench.figures import Figure
from bot.telegram.context import BotData
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.webapp.harness import bot_with_webapp, init_data


class Client:
    """One open Mini App: the versions its event stream has delivered."""

    def __init__(self) -> None:
        self.version = -1
        self.moved = asyncio.Event()

    async def read(self, http: ClientSession, url: str, init: str, table_id: int) -> None:
        async with http.get(url + "api/events",
                            params={"initData": init, "table": str(table_id)}) as answer:
            async for line in answer.content:
                if line.startswith(b"data: "):
                    self.version = json.loads(line[6:])["version"]
                    self.moved.set()

    async def seen(self, version: int) -> None:
        while self.version < version:
            self.moved.clear()
            await self.moved.wait()


@dataclass
class Latencies:
    """Each tap's latency to every client redrawn (``total``), and the part of it after the
    press was answered (``redraw``: the rest is the press's use case, its commit included)."""

    total: list[float] = field(default_factory=list)
    redraw: list[float] = field(default_factory=list)


async def _play(tg: FakeTelegram, hub: BotData, http: ClientSession, url: str, table_id: int,
                users: list[User], clients: list[Client], moves: int, latencies: Latencies,
                pause: tuple[float, float]) -> None:
    """``moves`` taps at one table, each once the last is drawn everywhere, after a pause of
    ``pause`` seconds (at random between the two)."""
    rng = random.Random(table_id)
    for _ in range(moves):
        await asyncio.sleep(rng.uniform(*pause))
        move = next_move(hub, table_id)
        if move is None:
            return
        version, seat, player, action = move
        body = {"initData": init_data(tg, users[player]), "nonce": secrets.token_hex(16),
                "table": table_id, "kind": "a", "version": version, "seat": seat,
                "action": action}
        started = time.perf_counter()
        async with http.post(url + "api/press", json=body) as answer:
            said = await answer.json()
        if not said["ok"]:
            raise AssertionError(f"table {table_id}: refused: {said['text']}")
        answered = time.perf_counter()
        await asyncio.gather(*(c.seen(version + 1) for c in clients))
        latencies.total.append(time.perf_counter() - started)
        latencies.redraw.append(time.perf_counter() - answered)


async def _latency(tables: int, moves: int, pause: tuple[float, float]) -> Latencies:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits.off()) as tg:
            seated = await _seed(Path(tmp) / "bench.db", tg, tables)
            # Telegram's budgets as deployed: the keyboards' messages follow at their pace.
            async with bot_with_webapp(tg, Path(tmp) / "bench.db", GROUP_MESSAGES_PER_MINUTE="18",
                                       TELEGRAM_CALLS_PER_SECOND="28") as (hub, url), \
                    ClientSession(connector=TCPConnector(limit=0)) as http:
                await tg.idle(timeout=600)
                ids = {t.chat_id: t.id for t in hub.services.tables.values()}
                clients = {(ids[g.id], u.id): Client() for g, users in seated for u in users}
                readers = [asyncio.create_task(c.read(http, url, init_data(tg, user), table))
                           for (table, user_id), c in clients.items()
                           for user in [tg.world.users[user_id]]]
                await asyncio.gather(*(c.seen(0) for c in clients.values()))
                latencies = Latencies()
                await asyncio.gather(*(
                    _play(tg, hub, http, url, ids[group.id], users,
                          [clients[(ids[group.id], u.id)] for u in users], moves, latencies,
                          pause)
                    for group, users in seated))
                for reader in readers:
                    reader.cancel()
                await tg.idle(timeout=600)
    return latencies


PACES = {"as fast as they can": (0.0, 0.0), "a tap every 2-6 s a table": (2.0, 6.0)}


def run(quick: bool) -> list[Figure]:
    tables, moves = (30, 3) if quick else (100, 20)
    figures = []
    for pace, pause in PACES.items():
        latencies = asyncio.run(_latency(tables, moves, pause))
        note = f"{tables} tables, {tables * 3} open clients, {len(latencies.total)} taps, {pace}"
        for what, measured in (("tap to all redrawn", latencies.total),
                               ("press answered to all redrawn", latencies.redraw)):
            figures += [Figure("webapp", f"Mini App action latency median ({what})",
                               statistics.median(measured) * 1000, "ms", note),
                        Figure("webapp", f"Mini App action latency p99 ({what})",
                               _percentile(measured, 0.99) * 1000, "ms", note)]
    return figures
