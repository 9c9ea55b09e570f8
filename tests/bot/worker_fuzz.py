"""A table played on a receiver and two workers (processes) under fuzzed presses, mixed with
its players' own presses of their panels' buttons, each press's answer awaited and timed:
for the workers' fuzz suite (tests/bot/test_fuzz_workers.py) and its figure in
``python -m bench`` (bench/workers_bench.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot.harness import settings_env
from tests.bot.test_poison import _reply
from tests.bot.test_workers import Cluster, Played, _free_port, _open, _text, press_any
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import CallbackAnswer
from tests.fakebot.world import CallbackQuery
from tests.webapp.test_limits import _table_id

ANSWERED = 5.0  # seconds: a press not answered by then is not answered
PLAYED_EVERY = 3  # a player presses a button of his panel after about every third fuzzed one
# Parts of forged callback data (the bench's; the suite draws them with hypothesis).
JUNK = ("pass", "play:AS", "bid:6S", "join", "set", "y", "", "-1", "99999999999999999999",
        "\u202e", "x" * 40)


def forged(table: int, rng: random.Random) -> str:
    """Callback data as a stranger may forge it: of this table or another, any kind, any
    version and seat, any parts."""
    kind = rng.choice("aulvtrkpz")
    parts = [rng.choice(JUNK) for _ in range(rng.randrange(4))]
    if kind == "a":
        parts = [str(rng.randrange(-2, 30)), str(rng.randrange(-1, 4)), rng.choice(JUNK)]
    return ":".join([kind, str(rng.choice((table, table + 1, 10**19))), *parts])


class LoggedCluster(Cluster):
    """The processes, each writing its log to a file of ``folder``."""

    def __init__(self, env: dict[str, str], folder: Path, workers: int) -> None:
        super().__init__(env, workers)
        self.folder = folder

    async def _start(self, role: str, env: dict[str, str] | None = None, *,
                     dying: str | None = None) -> asyncio.subprocess.Process:
        log = (self.folder / f"{role}-{len(list(self.folder.iterdir()))}.log").open("wb")
        with log:
            return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", role,
                                                        env=env or self.env, stderr=log)


@dataclass
class Fuzzed:
    """A table of three players on the cluster, and the presses made at it: the players' own
    and forged ones. ``played.accepted``: the actions the bot accepted, in order, and ``by``
    who pressed each; ``waits``: how long each press took to be answered (seconds)."""

    tg: FakeTelegram
    played: Played
    table: int
    stranger: User
    rng: random.Random
    by: list[int] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    tried: Counter[str] = field(default_factory=Counter)

    async def _answered(self, query: CallbackQuery) -> CallbackAnswer:
        began = time.monotonic()
        answer = await self.tg.answer_to(query, timeout=ANSWERED)
        self.waits.append(time.monotonic() - began)
        return answer

    def _accepted(self, user: User, data: str, answer: CallbackAnswer) -> None:
        if data.startswith("a:") and not answer.show_alert:
            _, _, _, seat, action = data.split(":", 4)
            self.played.accepted.append(_text(int(seat), action))
            self.by.append(user.id)

    async def forged(self, user: User, data: str) -> None:
        """``data`` pressed by ``user`` on the last message of his chat (the stranger's: of
        the group); then, now and then, a player's own press."""
        chat = self.played.group if user is self.stranger else user
        query = self.tg.press_nowait(user, self.tg.last_message(chat), data=data, forge=True)
        self._accepted(user, data, await self._answered(query))
        self.tried["callback data"] += 1
        if self.rng.randrange(PLAYED_EVERY) == 0:
            await self.own()

    async def own(self) -> None:
        """A player presses a button of his panel (if one has any now)."""
        pressed = press_any(self.tg, self.played, self.rng)
        if pressed is not None:
            query, data = pressed
            user = query.user
            self._accepted(user, data, await self._answered(query))
            self.tried["players' presses"] += 1

    def latency(self) -> dict[str, float]:
        """The answers' waits: median, 99th percentile, longest (seconds)."""
        waits = sorted(self.waits)
        return {"median": statistics.median(waits),
                "p99": waits[min(len(waits) - 1, int(len(waits) * 0.99))], "max": waits[-1]}


@contextlib.asynccontextmanager
async def fuzzed_table(tg: FakeTelegram, url: str, logs: Path,
                       seed: int = 31) -> AsyncIterator[Fuzzed]:
    """A receiver and two workers on ``url`` (logging to ``logs``), a Preferans game of three
    started in a group where a stranger is too."""
    port = _free_port()
    env = {**os.environ, **settings_env(
        tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
        LOG_LEVEL="WARNING")}
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    stranger = tg.add_user("Eve")
    played = Played("preferans", tg.add_group("Cards", [*users, stranger]), users)
    cluster = LoggedCluster(env, logs, workers=2)
    try:
        await cluster.start(tg)
        for user in [*users, stranger]:
            tg.press_start(user)
        await _open(tg, played)
        table = await _table_id(tg, played)
        for user in users:  # each has his panel
            await _reply(tg, user)
        yield Fuzzed(tg, played, table, stranger, random.Random(seed))
    finally:
        await cluster.stop()



