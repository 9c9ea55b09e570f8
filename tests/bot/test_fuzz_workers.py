"""The fuzz suite's presses and commands against a receiver and two workers on PostgreSQL
(processes), the fuzzed presses mixed with the players' own presses of their panels' buttons
(the game goes on under them): every press answered, no ERROR or traceback in any process's
log, and the stored table is what a replay of the presses the bot accepted gives: its
record's actions are exactly those presses, in order (records replayed through the engine in
this process: ``test_workers._check``, which also draws the table as stored and compares
every message), so nothing forged reached storage.

How soon presses are answered is printed (``pytest -s``), not asserted beyond ``ANSWERED``
(a bound for "answered at all" on a loaded machine): it is measured in ``python -m bench``
(bench/workers_bench.py, "fuzzed presses answered")."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.store import Storage
from tests.bot.test_fuzz_edge import (
    COMMAND_EXAMPLES,
    COMMANDS,
    FUZZ_SETTINGS,
    WORDS,
    callback_data,
)
from tests.bot.test_workers import _check, _quiet, pressed_at
from tests.bot.worker_fuzz import fuzzed_table
from tests.fakebot import FakeTelegram, User
from tests.postgres import LazyServer

PRESSES = int(os.environ.get("FUZZ_WORKER_PRESSES", "100"))


async def test_fuzzed_presses_and_commands_on_workers(postgres: LazyServer,
                                                      tmp_path: Path) -> None:
    url = await postgres.new_database()
    logs = tmp_path / "logs"
    logs.mkdir()
    async with FakeTelegram() as tg, fuzzed_table(tg, url, logs) as fuzz:
        loop = asyncio.get_running_loop()
        people = st.sampled_from([*fuzz.played.users, fuzz.stranger])
        rng = random.Random(31)  # which chat a command goes to

        async def command(user: User, text: str) -> None:
            tg.send(user, fuzz.played.group if rng.random() < 0.5 else user, text)
            await asyncio.sleep(0.05)
            fuzz.tried["commands"] += 1

        @settings(FUZZ_SETTINGS, max_examples=PRESSES)
        @given(user=people, data=callback_data(fuzz.table, 1))
        def presses(user: User, data: str) -> None:
            asyncio.run_coroutine_threadsafe(fuzz.forged(user, data), loop).result(60)

        @settings(FUZZ_SETTINGS, max_examples=COMMAND_EXAMPLES)
        @given(user=people, name=st.sampled_from(COMMANDS), words=st.lists(WORDS, max_size=4))
        def commands(user: User, name: str, words: list[str]) -> None:
            text = " ".join([f"/{name}", *words])[:4096]
            asyncio.run_coroutine_threadsafe(command(user, text), loop).result(60)

        await asyncio.to_thread(presses)
        await _quiet(tg, url)
        # What is stored is the accepted presses replayed, each by the user who pressed it;
        # the messages show it.
        await _check(tg, url, [fuzz.played])
        assert await _stored_by(url, fuzz.table) == fuzz.by
        await asyncio.to_thread(commands)
        await _quiet(tg, url)
        assert await _stored_by(url, fuzz.table) == fuzz.by  # commands add no action
    print("fuzzed on workers:", dict(fuzz.tried), "accepted actions:", len(fuzz.by),
          "answered in (s):", {k: round(v, 3) for k, v in fuzz.latency().items()})
    text = "".join(p.read_text(errors="replace") for p in sorted(logs.iterdir()))
    assert " ERROR " not in text and "Traceback" not in text, text[-3000:]
    assert fuzz.tried["callback data"] == PRESSES
    assert fuzz.tried["commands"] == COMMAND_EXAMPLES
    assert fuzz.by, "no player's press was accepted: the game did not go on"


async def _stored_by(url: str, table: int) -> list[int]:
    """Who pressed each stored action a player pressed (not one made for his seat), in order
    (the entry of a press at version v is the log's v+1st)."""
    storage = await Storage.open(url)
    try:
        async with storage.db.reading() as conn:
            users = {row[0]: row[1] for row in await conn.fetch(
                "SELECT seq, user_id FROM log_entries WHERE table_id = ? AND kind = 'action'",
                (table,))}
        pressed, _ = pressed_at(await storage.log.record(table))
    finally:
        await storage.close()
    return [users[version + 1] for version in pressed]
