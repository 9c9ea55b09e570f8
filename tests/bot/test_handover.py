"""A lane taken over by another worker while the one before still has screens of it to send
(bot/telegram/worker.py ``Worker.ours``): two workers in this process, on one PostgreSQL
database, each doing one update at a time when the test says so.

Worker A does a press of a Preferans table: the player to act next gets his panel at once, the
others' panels wait for the table's next beat (bot/telegram/rhythm.py: they need not act). Then
A stops beating (frozen past its lease), and B does the next update of the group's lane: the
next player's press, or a command that does not touch the table. Taking the lane over, B loads
the table, whose messages A had not all sent, redraws it and sends every panel at once; A's
panels, drawn before, must not follow. Every message ends showing the table as stored (a
waiting one: an older moment of the deal)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from bot.app import new_worker, stop
from bot.config import load_settings
from bot.telegram.receiver import Receiver, secret_of
from bot.telegram.worker import DEAD_AFTER, Worker
from storage import inbox
from storage.postgres import PostgresDatabase
from tests.bot.harness import settings_env
from tests.bot.test_workers import Played, _check, _free_port, _open, _text, press_any
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer


@contextlib.asynccontextmanager
async def _receiving(worker: Worker, url: str, secret: str) -> AsyncIterator[None]:
    """``python -m bot receive`` in this process: the fake Bot API posts updates to it."""
    db = await PostgresDatabase.open(url, size=2)
    app = web.Application()
    app.router.add_post("/hook", Receiver(db, secret).handle)
    runner = web.AppRunner(app)
    await runner.setup()
    port = _free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    await worker.app.bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token=secret)
    try:
        yield
    finally:
        await runner.cleanup()
        await db.close()


@contextlib.asynccontextmanager
async def two_workers(tg: FakeTelegram, url: str) -> AsyncIterator[tuple[Worker, Worker]]:
    """Workers A and B on the database, beating, the updates received into its inbox; each
    does an update only when told (``_do_next``, ``_pumping``)."""
    settings = load_settings(settings_env(tg, url, WEBHOOK_URL="http://127.0.0.1/hook"))
    a = await new_worker(settings, name="a")
    b = await new_worker(settings, name="b")
    unwatch = [tg.watch_chats(w.presenter.outbox.holds) for w in (a, b)]
    try:
        async with _receiving(a, url, secret_of(settings)):
            for worker in (a, b):
                await worker.beat()
            yield a, b
    finally:
        for undo in unwatch:
            undo()
        for worker in (a, b):
            await stop(worker.app)
            await worker.app.shutdown()


async def freeze(worker: Worker) -> None:
    """The worker stops beating (no beat since long ago): its lanes are anyone's."""
    async with worker.db.pool.acquire() as raw:
        await raw.execute("UPDATE workers SET seen_at = $1 WHERE id = $2",
                          time.time() - 2 * DEAD_AFTER, worker.id)


async def alone(worker: Worker) -> None:
    """Only this worker is live (the others seem frozen): every lane is its (the lanes are
    spread over the live workers)."""
    async with worker.db.pool.acquire() as raw:
        await raw.execute("UPDATE workers SET seen_at = $1 WHERE id <> $2",
                          time.time() - 2 * DEAD_AFTER, worker.id)
    await worker.beat()


async def _pending(db: PostgresDatabase) -> int:
    async with db.reading() as conn:
        return await inbox.pending(conn)


async def _do_next(tg: FakeTelegram, worker: Worker) -> None:
    """The worker, alone, does the update the fake Bot API just sent (once it is stored)."""
    await alone(worker)
    await tg.idle()
    assert await _pending(worker.db) == 1
    assert await worker.step()


@contextlib.asynccontextmanager
async def _pumping(worker: Worker) -> AsyncIterator[None]:
    """Inside, the worker, alone, does every update that comes."""
    await alone(worker)
    done = asyncio.Event()

    async def pump() -> None:
        while not done.is_set():
            if not await worker.step():
                await asyncio.sleep(0.02)

    task = asyncio.create_task(pump())
    try:
        yield
    finally:
        done.set()
        await task


async def open_with(tg: FakeTelegram, played: Played, worker: Worker) -> None:
    """The players start the bot and open the table, the worker doing every update."""
    for user in played.users:
        tg.press_start(user)
    async with _pumping(worker):
        await _open(tg, played)
        await tg.settled()


async def _press(tg: FakeTelegram, played: Played, worker: Worker) -> None:
    """A press of the player to act, done by ``worker``; accepted."""
    pressed = press_any(tg, played, random.Random(18), to_act=True)
    assert pressed is not None, "nobody has a button to press"
    query, data = pressed
    await _do_next(tg, worker)
    answer = await tg.answer_to(query)
    assert not answer.show_alert, answer
    _, _, _, seat, action = data.split(":", 4)
    played.accepted.append(_text(int(seat), action))


@pytest.mark.parametrize("next_update", ["press", "command"])
async def test_panels_drawn_before_a_takeover_are_not_sent_after_it(
        tg: FakeTelegram, postgres: LazyServer, next_update: str) -> None:
    url = await postgres.new_database()
    users = [tg.add_user(f"p{i}") for i in range(3)]
    played = Played("preferans", tg.add_group("preferans", users), users)
    async with two_workers(tg, url) as (a, b):
        await open_with(tg, played, a)
        await _press(tg, played, a)
        await tg.idle()  # the next player's panel is there; the others' wait
        assert any(slot.pending for mine in a.presenter.book.slots.values()
                   for slot in mine.values())
        await freeze(a)
        if next_update == "press":
            await _press(tg, played, b)
        else:
            tg.send(users[0], played.group, "/help")
            await _do_next(tg, b)
        await tg.settled()
    await _check(tg, url, [played])

