"""The database out of reach during play, as an operator's bad day has it (issue 35).

PostgreSQL: a receiver and two workers (`python -m bot receive`, `python -m bot work`) on a
server of the test's own; players press random buttons of their panels while the server is
restarted, then stopped for 20 s and started again. Every deal scored is told once in its
group, every press accepted is stored once (a press answered with "not saved", or not
answered while the server was down, may be stored or not, never twice: each button names
the version it was drawn for), the processes write no traceback and no ERROR line, and
each outage is one WARNING and one INFO of each process that saw it.

SQLite: the single process plays while another process holds the file's write lock for
5 s (as a backup would): the presses made meanwhile wait, then are stored; nothing is lost,
no traceback."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.ui.callbacks import action_data
from storage.store import Storage
from tests.bot.harness import open_table, running_bot, settings_env
from tests.bot.tabletop import only_table, seat_users
from tests.bot.test_workers import (
    _RESULT,
    Played,
    _free_port,
    _open,
    _play,
    _pressed,
    _quiet,
)
from tests.fakebot import FakeTelegram
from tests.postgres import PostgresServer
from tests.storage.test_outage import _locked

PLAY = 50.0  # seconds of random presses
RESTART_AT = 6.0  # the server restarted (stopped and started at once)
STOP_AT = 16.0  # the server stopped ...
DOWN = 20.0  # ... for this long


async def _start(role: str, env: dict[str, str], log: Path) -> asyncio.subprocess.Process:
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", role, env=env,
                                                    stderr=out)


async def test_postgres_restarted_and_stopped_during_play(tmp_path: Path) -> None:
    rng = random.Random(35)
    server = PostgresServer().start()
    processes: list[asyncio.subprocess.Process] = []
    try:
        url = await server.new_database()
        port = _free_port()
        async with FakeTelegram() as tg:
            env = {**os.environ, **settings_env(
                tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
                LOG_LEVEL="INFO")}
            tables = []
            for n, (game, seats) in enumerate((("preferans", 3), ("joker", 4))):
                users = [tg.add_user(f"o{n}p{i}") for i in range(seats)]
                tables.append(Played(game, tg.add_group(f"{game} {n}", users), users))
            logs = [tmp_path / f"{role}{i}.log" for i, role in enumerate(("receive", "work",
                                                                          "work"))]
            processes.append(await _start("receive", env, logs[0]))
            for _ in range(600):
                if tg.world.webhook.url:
                    break
                await asyncio.sleep(0.05)
            processes += [await _start("work", env, log) for log in logs[1:]]
            for played in tables:
                for user in played.users:
                    tg.press_start(user)
            await asyncio.gather(*(_open(tg, played) for played in tables))
            started = time.monotonic()
            maybe: list[tuple[int, str]] = []
            players = asyncio.gather(*(_play(tg, played, random.Random(rng.random()),
                                             started + PLAY, maybe=maybe, wait=40)
                                       for played in tables))
            await asyncio.sleep(RESTART_AT)
            await asyncio.to_thread(server.halt)
            await asyncio.to_thread(server.resume)
            await asyncio.sleep(STOP_AT - (time.monotonic() - started))
            await asyncio.to_thread(server.halt)
            await asyncio.sleep(DOWN)
            await asyncio.to_thread(server.resume)
            await players
            await _quiet(tg, url)
            assert all(p.returncode is None for p in processes), "a process stopped"
            await _check_stored(url, tables, maybe)
            results = 0
            for played in tables:
                told = Counter(int(found.group(1)) for m in tg.messages(played.group)
                               if (found := _RESULT.match(m.text)))
                assert all(n == 1 for n in told.values()), (played.game, told)
                results += len(told)
            print(f"{sum(len(p.accepted) for p in tables)} presses accepted, {len(maybe)} not"
                  f" told or 'not saved', {results} results told once each")
        assert sum(len(p.accepted) for p in tables) > 6, "the games went on"
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
        server.stop()
    said = "\n".join(log.read_text(errors="replace") for log in logs)
    assert "Traceback" not in said, said[-6000:]
    assert " ERROR " not in said, said[-6000:]
    assert said.count("is out of reach") >= 2, said[-3000:]  # each outage: once a process
    assert said.count("is out of reach") == said.count(" is back after "), said[-3000:]


async def _check_stored(url: str, tables: list[Played], maybe: list[tuple[int, str]]) -> None:
    """Each table's stored actions: every accepted press, in order, and otherwise only
    presses that were not told (each button's version makes a second store impossible)."""
    storage = await Storage.open(url)
    try:
        rows = {row.chat_id: row for row in await storage.tables.open_tables()}
        for played in tables:
            stored = _pressed(await storage.log.record(rows[played.group.id].id)).pressed
            accepted = iter(played.accepted)
            expected = next(accepted, None)
            for action in stored:
                if action == expected:
                    expected = next(accepted, None)
                else:
                    assert action in maybe, (played.game, action, stored, played.accepted)
            assert expected is None, (played.game, expected, stored)
    finally:
        await storage.close()


async def test_sqlite_file_locked_for_5_seconds_during_play(
        tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="storage.outage")
    db = tmp_path / "bot.db"
    users = [tg.add_user(f"p{i}") for i in range(3)]
    group = tg.add_group("locked", users)
    async with running_bot(tg, db) as hub:
        lobby = await open_table(tg, group, users)
        assert not (await tg.press(users[0], lobby, text="▶ Start")).show_alert
        await tg.settled()
        table = only_table(hub)
        by_seat = seat_users(hub, users)
        presses = 0
        locked = threading.Event()
        holder = threading.Thread(target=_locked, args=(str(db), 5.0, locked))
        holder.start()
        try:
            await asyncio.to_thread(locked.wait)
            started = time.monotonic()
            while time.monotonic() - started < 8.0 and table.match is not None:
                state = table.match.state
                assert state is not None
                seat = state.to_act[0]
                user = by_seat[state.controller(seat)]
                query = tg.press_nowait(user, tg.last_message(user), forge=True, data=action_data(
                    table.id, table.match.version, seat, state.legal_actions(seat)[0]))
                answer = await tg.answer_to(query, timeout=20)
                assert not answer.show_alert, answer
                presses += 1
        finally:
            await asyncio.to_thread(holder.join)
        assert presses >= 3
        version = table.match.version if table.match is not None else None
    storage = await Storage.open(str(db))
    try:
        row = (await storage.tables.open_tables())[0]
        assert row.last_seq == version  # every answered press is stored
    finally:
        await storage.close()
    said = [r for r in caplog.records if r.name.startswith("storage.outage")]
    assert [r.levelname for r in said] == ["WARNING", "INFO"], said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
