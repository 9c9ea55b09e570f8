"""Worker mode's kept one-off calls (storage/sends.py): a worker killed with SIGKILL after it
committed a unit of work that sends one-off messages or answers a press, and before it made
the calls, leaves them to another worker, which makes them, once (a press's answer only while
Telegram still takes it)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections.abc import AsyncIterator

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram.answers import Answer
from bot.telegram.calls import Call
from bot.telegram.sending.budgets import Budgets
from bot.telegram.sending.outbox import Outbox
from bot.telegram.sending.ports import Delivery
from bot.telegram.worker import DEAD_AFTER
from storage.sends import SendQueue
from storage.sql import Database, Row
from storage.store import Storage
from tests.bot.harness import settings_env
from tests.bot.test_workers import (
    Cluster,
    Played,
    _button,
    _free_port,
    _open,
    _press,
    press_any,
)
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat
from tests.postgres import LazyServer

RESULT = "-card deal · trump"  # in a Joker deal's result: "Deal 1 · 1-card deal · trump ♥"


def _results(tg: FakeTelegram, group: Chat) -> tuple[list[str], int]:
    """The group's deal results and its pictures."""
    messages = tg.messages(group)
    return ([m.text for m in messages if RESULT in m.text],
            sum(1 for m in messages if m.file is not None))


def _worker_env(tg: FakeTelegram, url: str, level: str = "WARNING") -> dict[str, str]:
    """The environment of a receiver and its workers on the database at ``url``."""
    port = _free_port()
    return {**os.environ, **settings_env(
        tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
        LOG_LEVEL=level)}


def _joker(tg: FakeTelegram, name: str) -> Played:
    """A Joker table's players and group."""
    users = [tg.add_user(f"{name}{i}") for i in range(4)]
    return Played("joker", tg.add_group("joker", users), users)


async def _sheet_on(tg: FakeTelegram, cluster: Cluster, played: Played) -> None:
    """The cluster started, the table opened and started, the sheet's picture asked for."""
    await cluster.start(tg)
    for user in played.users:
        tg.press_start(user)
    await _open(tg, played)
    tg.send(played.users[0], played.group, "/sheet on")


async def _play_until_dead(tg: FakeTelegram, played: Played, cluster: Cluster,
                           rng: random.Random) -> None:
    """Random presses of panel buttons until the worker has killed itself."""
    worker = cluster.workers[0]
    deadline = time.monotonic() + 180
    while worker.returncode is None:
        assert time.monotonic() < deadline, "the worker never died"
        pressed = press_any(tg, played, rng)
        if pressed is None:
            await asyncio.sleep(0.2)
            continue
        query = pressed[0]
        while worker.returncode is None and not query.answer.done():
            await asyncio.sleep(0.05)  # (the press it died at is answered by the next worker)


async def test_a_dead_workers_messages_are_sent_once_by_another(postgres: LazyServer) -> None:
    """One worker plays a Joker table (each deal's result with the sheet's picture) and kills
    itself right after committing the press that ends the first deal: no result is in the
    group then. A second worker started after sends the result and the picture, once each."""
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        env = _worker_env(tg, url)
        played = _joker(tg, "jok")
        cluster = Cluster(env, workers=1, dying=RESULT)
        try:
            await _sheet_on(tg, cluster, played)
            await _play_until_dead(tg, played, cluster, random.Random(18))
            assert cluster.workers[0].returncode == -signal.SIGKILL
            assert _results(tg, played.group) == ([], 0)
            await cluster.add_worker(env)
            deadline = time.monotonic() + 60
            while _results(tg, played.group)[1] < 1:
                assert time.monotonic() < deadline, "the dead worker's messages never came"
                await asyncio.sleep(0.2)
            await asyncio.sleep(3 * DEAD_AFTER)  # time for any call to be made again
            await tg.idle(quiet=2.0, timeout=30)
        finally:
            await cluster.stop()
        results, pictures = _results(tg, played.group)
        assert len(results) == 1 and "Deal 1" in results[0], results
        assert pictures == 1
        assert not await _left(url)


UNDONE = "SELECT id FROM sends WHERE done_at IS NULL"  # the kept calls not done


async def _fetch(url: str, sql: str) -> list[Row]:
    storage = await Storage.open(url)
    try:
        async with storage.db.reading() as conn:
            return await conn.fetch(sql)
    finally:
        await storage.close()


async def _left(url: str) -> list[Row]:
    return await _fetch(url, UNDONE)


async def _undone(db: Database) -> list[Row]:
    async with db.reading() as conn:
        return await conn.fetch(UNDONE)


@contextlib.asynccontextmanager
async def _lobby(tg: FakeTelegram, url: str, die: str | None, *, admin: bool = False
                 ) -> AsyncIterator[tuple[Cluster, list[User], Chat, Message]]:
    """A Preferans lobby in a group (``admin``: where the bot may pin), opened by a worker
    that kills itself once it committed a call with ``die`` in it (None: it lives; the group's
    lane is that worker's); then a second worker is started."""
    env = _worker_env(tg, url)
    users = [tg.add_user(f"pref{i}") for i in range(3)]
    group = tg.add_group("pref", users, supergroup=admin,
                         bot_status="administrator" if admin else "member")
    cluster = Cluster(env, workers=1, dying=die)
    try:
        await cluster.start(tg)
        for user in users:
            tg.press_start(user)
        tg.send(users[0], group, "/newgame preferans")
        lobby = await _button(tg, group, "✋ Join")
        await cluster.add_worker(env)
        yield cluster, users, group, lobby
    finally:
        await cluster.stop()


async def _died(cluster: Cluster) -> None:
    """The first worker killed itself; the other had time to make any call again."""
    assert await asyncio.wait_for(cluster.workers[0].wait(), 60) == -signal.SIGKILL
    await asyncio.sleep(3 * DEAD_AFTER)


async def test_a_dead_workers_press_is_answered_once_by_another(postgres: LazyServer) -> None:
    """The worker that opened a lobby kills itself right after committing a Join press: the
    player's press is answered all the same, by the other worker, once."""
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        async with _lobby(tg, url, "answer_callback_query") as (cluster, users, _, lobby):
            query = tg.press_nowait(users[1], lobby, text="✋ Join")
            answer = await tg.answer_to(query, timeout=60)
            await _died(cluster)
        assert not answer.show_alert  # joined
        answers = [call for call in tg.calls_for("answerCallbackQuery")
                   if call.params.get("callback_query_id") == query.id]
        assert [call.status for call in answers] == [200]
        assert not await _left(url)


async def _start(tg: FakeTelegram, users: list[User], group: Chat, lobby: Message) -> None:
    """The others join, the first starts the game."""
    for user in users[1:]:
        await _press(tg, user, lobby, text="✋ Join")
    await _press(tg, users[0], await _button(tg, group, "▶ Start"), text="▶ Start")


async def test_a_worker_pins_the_table_message(postgres: LazyServer) -> None:
    """In worker mode too the game's table message is pinned (a call the presenter makes from
    the chat's sending task, which a unit of work started: not held as the unit's)."""
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        async with _lobby(tg, url, None, admin=True) as (_, users, group, lobby):
            await _start(tg, users, group, lobby)
            deadline = time.monotonic() + 60
            while not group.pinned:
                assert time.monotonic() < deadline, "the table message was never pinned"
                await asyncio.sleep(0.2)
        assert await _pinned(url) == group.pinned


async def _pinned(url: str) -> list[int]:
    """The table message, if it is the one stored as pinned."""
    (row,) = await _fetch(url, "SELECT table_message_id, pinned_message_id FROM game_tables")
    return [row["table_message_id"]] if row["pinned_message_id"] == row[0] else []


async def test_a_dead_workers_pin_is_made_once_by_another(postgres: LazyServer) -> None:
    """The worker that started a game kills itself right after storing which message it pins
    (the pin kept with it): the other worker pins the table message, once."""
    url = await postgres.new_database()
    async with FakeTelegram() as tg:
        async with _lobby(tg, url, "pin_chat_message", admin=True) as (
                cluster, users, group, lobby):
            await _start(tg, users, group, lobby)
            await _died(cluster)
        assert [call.status for call in tg.calls_for("pinChatMessage")] == [200]
        assert await _pinned(url) == group.pinned
        assert not await _left(url)


async def test_a_dead_workers_late_answer_is_not_made(postgres: LazyServer) -> None:
    """Of the answers a dead worker kept, the live worker that claims them makes a fresh
    one; one kept a minute ago (Telegram would say "query is too old") is only marked done."""
    storage = await Storage.open(await postgres.new_database())
    async with FakeTelegram() as tg, Bot(tg.token, base_url=tg.base_url) as bot:
        try:
            db = storage.db
            now = "extract(epoch FROM clock_timestamp())"
            await db.write(lambda conn: conn.execute(
                f"INSERT INTO workers (id, seen_at) VALUES ('dead', {now} - 60), ('live', {now})"))
            user = tg.add_user("Ann")
            group = tg.add_group("Cards", [user])
            await bot.send_message(group.id, "lobby", reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Join", callback_data="join")]]))
            fresh, late = (tg.press_nowait(user, tg.last_message(group), text="Join")
                           for _ in range(2))
            dying = Outbox(bot, Delivery(), Budgets(), queue=SendQueue(db, "dead"))
            with dying.holding() as held:  # its unit of work, committed: then it died
                await dying.answer(fresh.id, Answer.note("joined"))
                await dying.answer(late.id, Answer.note("joined"))
            await dying.keep(held)
            late_row = held.answers[1].token
            await db.write(lambda conn: conn.execute(
                "UPDATE sends SET created_at = created_at - 60 WHERE id = ?", (late_row,)))
            queue = SendQueue(db, "live")
            outbox = Outbox(bot, Delivery(), Budgets(), queue=queue)
            for kept in await queue.claim(dead_after=DEAD_AFTER):
                await outbox.resume(kept.chat_id, Call.of(kept.call, kept.file), kept.id,
                                    kept.age)
            assert (await tg.answer_to(fresh)).text == "joined"
            deadline = time.monotonic() + 30
            while await _undone(db):
                assert time.monotonic() < deadline, "the answers were never marked done"
                await asyncio.sleep(0.05)
            assert [call.params.get("callback_query_id")
                    for call in tg.calls_for("answerCallbackQuery")] == [fresh.id]
            assert not late.answer.done()
        finally:
            await storage.close()


async def test_kept_calls_go_to_a_live_worker_once(postgres: LazyServer) -> None:
    """A dead worker's kept calls are claimed by one live worker, in order; not again by
    another, nor those of a live worker; done ones are not claimed."""
    storage = await Storage.open(await postgres.new_database())
    try:
        db = storage.db
        now = "extract(epoch FROM clock_timestamp())"
        await db.write(lambda conn: conn.execute(
            f"INSERT INTO workers (id, seen_at) VALUES ('dead', {now} - 60),"
            f" ('a', {now}), ('b', {now})"))
        dead, a, b = (SendQueue(db, name) for name in ("dead", "a", "b"))
        first = await dead.keep(-5, 0, '{"n":1}', None)
        second = await dead.keep(-5, 0, '{"n":2}', b"png")
        answered = await dead.keep(-5, 0, '{"n":3}', None)
        await dead.done(answered)
        await a.keep(-5, 0, '{"n":4}', None)
        claimed = await b.claim(dead_after=DEAD_AFTER)
        assert [(k.id, k.call, k.file) for k in claimed] == [
            (first, '{"n":1}', None), (second, '{"n":2}', b"png")]
        assert await a.claim(dead_after=DEAD_AFTER) == []
    finally:
        await storage.close()
