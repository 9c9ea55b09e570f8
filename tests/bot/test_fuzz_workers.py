"""The fuzz suite's presses and commands against a receiver and two workers on PostgreSQL
(processes): every press answered within 5 s (a legal one too: the state is not compared
here, the one-process suite does that), no ERROR or traceback in any process's log."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bot.harness import settings_env
from tests.bot.test_fuzz_edge import (
    COMMAND_EXAMPLES,
    COMMANDS,
    FUZZ_SETTINGS,
    WORDS,
    callback_data,
)
from tests.bot.test_poison import _reply
from tests.bot.test_workers import Cluster, Played, _free_port, _open
from tests.fakebot import FakeTelegram, User
from tests.postgres import LazyServer
from tests.webapp.test_limits import _table_id

ANSWERED_WITHIN = 5.0
PRESSES = int(os.environ.get("FUZZ_WORKER_PRESSES", "100"))


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


async def test_fuzzed_presses_and_commands_on_workers(postgres: LazyServer,
                                                      tmp_path: Path) -> None:
    url = await postgres.new_database()
    port = _free_port()
    logs = tmp_path / "logs"
    logs.mkdir()
    async with FakeTelegram() as tg:
        env = {**os.environ, **settings_env(
            tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
            LOG_LEVEL="WARNING")}
        users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
        stranger = tg.add_user("Eve")
        played = Played("preferans", tg.add_group("Cards", [*users, stranger]), users)
        cluster = LoggedCluster(env, logs, workers=2)
        loop = asyncio.get_running_loop()
        tried = {"callback data": 0, "commands": 0}
        try:
            await cluster.start(tg)
            for user in [*users, stranger]:
                tg.press_start(user)
            await _open(tg, played)
            table = await _table_id(tg, played)
            for user in users:  # each has his panel
                await _reply(tg, user)
            rng = random.Random(31)  # which chat a command goes to

            async def press(user: User, data: str) -> None:
                chat = played.group if user is stranger else user
                query = tg.press_nowait(user, tg.last_message(chat), data=data, forge=True)
                await tg.answer_to(query, timeout=ANSWERED_WITHIN)
                tried["callback data"] += 1

            async def command(user: User, text: str) -> None:
                tg.send(user, played.group if rng.random() < 0.5 else user, text)
                await asyncio.sleep(0.05)
                tried["commands"] += 1

            @settings(FUZZ_SETTINGS, max_examples=PRESSES)
            @given(user=st.sampled_from([*users, stranger]), data=callback_data(table, 1))
            def presses(user: User, data: str) -> None:
                asyncio.run_coroutine_threadsafe(press(user, data), loop).result(60)

            @settings(FUZZ_SETTINGS, max_examples=COMMAND_EXAMPLES)
            @given(user=st.sampled_from([*users, stranger]), name=st.sampled_from(COMMANDS),
                   words=st.lists(WORDS, max_size=4))
            def commands(user: User, name: str, words: list[str]) -> None:
                text = " ".join([f"/{name}", *words])[:4096]
                asyncio.run_coroutine_threadsafe(command(user, text), loop).result(60)

            await asyncio.to_thread(presses)
            await asyncio.to_thread(commands)
        finally:
            await cluster.stop()
    print("fuzzed on workers:", tried)  # the counts the note reports
    text = "".join(p.read_text(errors="replace") for p in sorted(logs.iterdir()))
    assert " ERROR " not in text and "Traceback" not in text, text[-3000:]
    assert tried == {"callback data": PRESSES, "commands": COMMAND_EXAMPLES}
