"""The database out of reach during play, as an operator's bad day has it (issue 35).

PostgreSQL: a receiver and two workers (`python -m bot receive`, `python -m bot work`) on a
server of the test's own; players press random buttons of their panels while the server is
restarted, then stopped for 20 s and started again. Every deal scored is told once in its
group; every press is answered, and ends either stored once (accepted) or not stored
(answered "not saved, try again", or refused as out of date): the actions stored are
exactly those of the presses accepted (each button names the version it was drawn for).
The processes write no traceback and no ERROR line, and each outage is one WARNING and
one INFO of each process that saw it.

SQLite: the single process plays while another process holds the file's write lock for
5 s (as a backup would): the presses made meanwhile wait, then are stored; nothing is lost,
no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import resource
import sys
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ui.callbacks import action_data
from storage.outage import EXIT_CODE
from storage.store import Storage
from tests.bot.harness import open_table, playable, running_bot, settings_env
from tests.bot.tabletop import only_table, seat_users
from tests.bot.test_sends import RESULT, _joker, _left, _results, _sheet_on, _worker_env
from tests.bot.test_workers import (
    _RESULT,
    Cluster,
    Played,
    _open,
    _play,
    _quiet,
    _text,
    press_any,
    pressed_at,
)
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import CallbackAnswer
from tests.postgres import LazyServer, PostgresServer
from tests.storage.test_outage import _locked

NOT_STORED = "Not saved: my storage is out of reach for a moment. Please try again."
PLAY = 50.0  # seconds of random presses
RESTART_AT = 6.0  # the server restarted (stopped and started at once)
STOP_AT = 16.0  # the server stopped ...
DOWN = 20.0  # ... for this long


class Logged:
    """``python -m bot`` processes on a PostgreSQL server of the test's own, each writing
    its log to a file; all stopped at the end (``running``), then their logs read."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server = PostgresServer()
        self.processes: list[asyncio.subprocess.Process] = []
        self.logs: list[Path] = []

    async def start(self, role: str, env: dict[str, str]) -> asyncio.subprocess.Process:
        log = self.folder / f"{role}{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("ab") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", role, env=env, stderr=out)
        self.processes.append(process)
        return process

    async def cluster(self, tg: FakeTelegram, env: dict[str, str], *, workers: int) -> None:
        """The receiver, once it set the webhook, and the workers."""
        await self.start("receive", env)
        while not tg.world.webhook.url:
            await asyncio.sleep(0.05)
        for _ in range(workers):
            await self.start("work", env)

    def said(self) -> str:
        """The logs: none with a traceback or an ERROR line."""
        said = "\n".join(log.read_text(errors="replace") for log in self.logs)
        assert "Traceback" not in said, said[-6000:]
        assert " ERROR " not in said, said[-6000:]
        return said


@contextlib.asynccontextmanager
async def running(folder: Path) -> AsyncIterator[Logged]:
    logged = Logged(folder)
    logged.server.start()
    try:
        yield logged
    finally:
        for process in logged.processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
        logged.server.stop()


async def test_postgres_restarted_and_stopped_during_play(tmp_path: Path) -> None:
    rng = random.Random(35)
    async with running(tmp_path) as logged:
        server = logged.server
        url = await server.new_database()
        async with FakeTelegram() as tg:
            env = _worker_env(tg, url, "INFO")
            tables = []
            for n, (game, seats) in enumerate((("preferans", 3), ("joker", 4))):
                users = [tg.add_user(f"o{n}p{i}") for i in range(seats)]
                tables.append(Played(game, tg.add_group(f"{game} {n}", users), users))
            await logged.cluster(tg, env, workers=2)
            for played in tables:
                for user in played.users:
                    tg.press_start(user)
            await asyncio.gather(*(_open(tg, played) for played in tables))
            started = time.monotonic()
            players = asyncio.gather(*(_play(tg, played, random.Random(rng.random()),
                                             started + PLAY, wait=20)
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
            assert all(p.returncode is None for p in logged.processes), "a process stopped"
            await _check_stored(url, tables, started)
            results = 0
            for played in tables:
                told = Counter(int(found.group(1)) for m in tg.messages(played.group)
                               if (found := _RESULT.match(m.text)))
                assert all(n == 1 for n in told.values()), (played.game, told)
                results += len(told)
                posts = Counter(m.text for m in tg.messages(played.group))  # votes too
                assert set(posts.values()) == {1}, (played.game, posts)
            print(f"{sum(len(p.presses) for p in tables)} presses:"
                  f" {sum(len(p.accepted) for p in tables)} actions stored,"
                  f" {sum(1 for p in tables for _, a, _ in p.presses if _not_saved(a))} 'not"
                  f" saved'; {results} results told once each")
        assert sum(len(p.accepted) for p in tables) > 6, "the games went on"
    said = logged.said()
    assert said.count("is out of reach") >= 2, said[-3000:]  # each outage: once a process
    assert said.count("is out of reach") == said.count(" is back after "), said[-3000:]


def _not_saved(answer: CallbackAnswer | None) -> bool:
    return answer is not None and answer.show_alert and "Not saved" in (answer.text or "")


async def _check_stored(url: str, tables: list[Played], started: float) -> None:
    """Every press was answered; the actions stored are exactly those whose presses were
    accepted, each once (a press answered "not saved" stored only if pressed again and
    accepted then)."""
    storage = await Storage.open(url)
    try:
        rows = {row.chat_id: row for row in await storage.tables.open_tables()}
        for played in tables:
            stored, _ = pressed_at(await storage.log.record(rows[played.group.id].id))
            said = [(round(at - started, 1), data, answer and answer.text)
                    for data, answer, at in played.presses]
            assert all(answer is not None for _, answer, _ in played.presses), (
                played.game, [press for press in said if press[2] is None
                              and not any(a for d, a, _ in played.presses if d == press[1])])
            accepted: Counter[tuple[int, tuple[int, str]]] = Counter()
            for data, answer, _ in played.presses:
                if data.startswith("a:") and answer is not None and not answer.show_alert:
                    _, _, version, seat, action = data.split(":", 4)
                    accepted[int(version), _text(int(seat), action)] += 1
            assert set(accepted.values()) <= {1}, (played.game, accepted)
            assert set(accepted) == set(stored.items()), (played.game, said, stored)
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


async def test_a_commit_gone_unanswered_is_settled_by_its_worker(postgres: LazyServer) -> None:
    """The worker's COMMIT of the press that ends a Joker deal goes through, and the server
    goes away before it answers (tests/bot/doubting_worker.py): the worker, alive, finds the
    unit committed and makes its kept calls (no other worker makes a live one's), once: the
    deal's result and the sheet's picture, one each; the press answered."""
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        played = _joker(tg, "doubt")
        cluster = Cluster(_worker_env(tg, url), workers=1, dying=RESULT, how="doubting_worker")
        try:
            await _sheet_on(tg, cluster, played)
            rng = random.Random(35)
            deadline = time.monotonic() + 120
            while not _results(tg, played.group)[0]:
                assert time.monotonic() < deadline, "the deal's result was never told"
                await _play(tg, played, rng, time.monotonic() + 1, wait=20)
            await tg.idle(quiet=3.0, timeout=30)
            assert cluster.workers[0].returncode is None
        finally:
            await cluster.stop()
        results, pictures = _results(tg, played.group)
        assert len(results) == 1 and "Deal 1" in results[0], results
        assert pictures == 1
        assert all(answer is not None for _, answer, _ in played.presses), played.presses
        assert not await _left(url)


async def _told(tg: FakeTelegram, user: User, timeout: float) -> list[str]:
    """What the bot wrote to the user once it wrote anything (nothing within ``timeout``:
    [])."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        said = [m.text for m in tg.messages(user) if m.sender is tg.bot]
        if said:
            return said
        await asyncio.sleep(0.1)
    return []


async def test_the_single_process_waits_out_a_full_disk_and_exits_75_past_its_limit(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """`python -m bot` on SQLite, its outage limit 4 s. Its files may not grow (as on a full
    disk: RLIMIT_FSIZE, the error SQLite's "disk I/O error") for 2 s: a new player's /start
    waits, then is answered; then another process holds the file's write lock for longer
    than the limit (a backup): the /start made meanwhile is answered "Not saved ... try
    again", and the process exits with code 75. Its log: a WARNING for each outage, an INFO
    for the end of the first, one ERROR when it gives up; no traceback."""
    db = tmp_path / "bot.db"
    env = {**os.environ, **settings_env(tg, db, LOG_LEVEL="INFO", DATABASE_OUTAGE_SECONDS="4")}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env,
                                                   stderr=asyncio.subprocess.PIPE)
    assert process.stderr is not None
    said = asyncio.create_task(process.stderr.read())
    holder: threading.Thread | None = None
    try:
        ann, bob, cid = (tg.add_user(name) for name in ("ann", "bob", "cid"))
        tg.press_start(ann)
        assert await _told(tg, ann, 60), "the bot did not start"
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (1024, hard))
        tg.press_start(bob)
        assert not await _told(tg, bob, 2.0)  # it cannot store him yet
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (soft, hard))
        assert await _told(tg, bob, 30)
        locked = threading.Event()
        holder = threading.Thread(target=_locked, args=(str(db), 15.0, locked))
        holder.start()
        await asyncio.to_thread(locked.wait)
        tg.press_start(cid)
        assert await asyncio.wait_for(process.wait(), 30) == EXIT_CODE
        assert await _told(tg, cid, 1) == [NOT_STORED]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        if holder is not None:
            await asyncio.to_thread(holder.join)
    log = (await said).decode(errors="replace")
    assert "Traceback" not in log, log[-6000:]
    assert log.count(" WARNING storage.outage: ") == 2, log[-6000:]
    assert log.count(" INFO storage.outage: ") == 1, log[-6000:]
    assert [line for line in log.splitlines() if " ERROR " in line] == [
        line for line in log.splitlines() if "stopping (exit code 75)" in line], log[-6000:]
    assert log.count("stopping (exit code 75)") == 1, log[-6000:]


async def test_a_press_stored_before_an_outage_and_never_taken_is_answered_not_saved(
        tmp_path: Path) -> None:
    """The receiver stores a press that no worker takes (the only one was killed), and
    PostgreSQL stops: 12 s after storing it the receiver, unable to look, answers it "not
    saved". The worker started once the server is back finds it too late: not stored."""
    async with running(tmp_path) as logged:
        url = await logged.server.new_database()
        async with FakeTelegram() as tg:
            env = _worker_env(tg, url, "INFO")
            users = [tg.add_user(f"late{i}") for i in range(3)]
            played = Played("preferans", tg.add_group("late", users), users)
            await logged.cluster(tg, env, workers=1)
            for user in users:
                tg.press_start(user)
            await _open(tg, played)
            deadline = time.monotonic() + 60.0  # a guard, not a speed limit
            while not any(playable(m) for u in users for m in tg.messages(u)[-1:]):
                assert time.monotonic() < deadline, "no panel offers a turn"
                await asyncio.sleep(0.1)  # the worker deals and draws the first turn
            worker = logged.processes[1]
            worker.kill()
            await worker.wait()
            pressed = press_any(tg, played, random.Random(35))
            assert pressed is not None
            query, data = pressed
            await asyncio.sleep(2.0)  # stored (the receiver answers the webhook once it is)
            await asyncio.to_thread(logged.server.halt)
            answer = await tg.answer_to(query, timeout=30)
            assert _not_saved(answer), answer
            await asyncio.to_thread(logged.server.resume)
            await logged.start("work", env)
            await _quiet(tg, url)
            storage = await Storage.open(url)
            try:
                (row,) = await storage.tables.open_tables(chat_id=played.group.id)
                stored, _ = pressed_at(await storage.log.record(row.id))
            finally:
                await storage.close()
            _, _, version, _, _ = data.split(":", 4)
            assert int(version) not in stored, (data, stored)
    said = logged.said()
    assert "update" in said and "not done" in said, said[-3000:]
