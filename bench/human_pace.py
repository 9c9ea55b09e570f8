"""The bot's latency at a human pace: many tables, each pressing every 2.5-7.5 s.

The closed loop of ``bot_bench`` (each table presses as soon as it is answered) measures
throughput; real players press a few seconds apart, so the latency that matters is that of
a press among many tables at that pace: from the press to its answer (after the move is
stored durably). An answer later than Telegram's 15 s is lost.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bot_bench import _percentile, _seed, next_move, seen
from bench.figures import Figure
from bot.telegram.context import BotData
from bot.ui.callbacks import action_data
from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram, FloodLimits, User

PACE = (2.5, 7.5)  # seconds between a table's presses
LOST_AFTER = 15.0  # Telegram drops a press's answer after this


async def _table(tg: FakeTelegram, hub: BotData, users: list[User], table_id: int,
                 until: float, latencies: list[float], rng: random.Random) -> None:
    await asyncio.sleep(rng.uniform(0, PACE[1]))  # the tables do not start in step
    while time.perf_counter() < until:
        move = next_move(hub, table_id)
        if move is None:  # between deals: the next is dealt in a moment
            await asyncio.sleep(1.0)
            continue
        version, seat, player, action = move
        started = time.perf_counter()
        query = tg.press_nowait(users[player], tg.last_message(users[player]),
                                data=action_data(table_id, version, seat, action), forge=True)
        await asyncio.wait({query.answer}, timeout=60)
        latencies.append(time.perf_counter() - started if query.answer.done() else 60.0)
        await asyncio.sleep(min(rng.uniform(*PACE), max(0.0, until - time.perf_counter())))


async def _human(tables: int, seconds: float) -> tuple[list[float], float]:
    """The presses' latencies, and the process's CPU seconds a press (the bot's and the fake
    Bot API's work: a machine shared with other work changes it little)."""
    rng = random.Random(tables)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        async with FakeTelegram(flood=FloodLimits.off()) as tg:
            seated = await _seed(db, tg, tables)
            async with running_bot(tg, db, TELEGRAM_CALLS_PER_SECOND="100000") as hub:
                await tg.idle(timeout=600)
                ids = {t.chat_id: t.id for t in hub.services.tables.values()}
                seen(hub)
                latencies: list[float] = []
                until, cpu = time.perf_counter() + seconds, time.process_time()
                await asyncio.gather(*(_table(tg, hub, users, ids[group.id], until, latencies,
                                              random.Random(rng.getrandbits(64)))
                                       for group, users in seated))
                cpu = time.process_time() - cpu
                await tg.idle(timeout=600)
    return latencies, cpu / len(latencies)


def run(quick: bool) -> list[Figure]:
    figures = []
    seconds = 6.0 if quick else 60.0
    for tables in (100, 300):
        latencies, cpu = asyncio.run(_human(tables, seconds))
        lost = sum(1 for value in latencies if value > LOST_AFTER)
        note = (f"{tables} tables, a press every {PACE[0]}-{PACE[1]} s each for {seconds:g} s,"
                f" {len(latencies)} presses, {lost} answers later than {LOST_AFTER:.0f} s")
        figures += [Figure("bot", f"human-pace press latency median, {tables} tables",
                           statistics.median(latencies) * 1000, "ms", note + "; goal < 50"),
                    Figure("bot", f"human-pace press latency p99, {tables} tables",
                           _percentile(latencies, 0.99) * 1000, "ms", "goal < 300"),
                    Figure("bot", f"human-pace CPU a press, {tables} tables", cpu * 1000, "ms",
                           "the bot's and the fake Bot API's work, by the process's CPU time "
                           "(a machine shared with other work changes it little)")]
    return figures


if __name__ == "__main__":  # python -m bench.human_pace [--quick]
    for figure in run("--quick" in sys.argv):
        print(figure.row(), flush=True)
