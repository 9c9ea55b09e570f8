"""Forged and poisoned updates on workers: the receiver answers Telegram 200 for every
well-formed update (placing what it cannot in the sender's private lane), a worker sets an
update that always fails aside as a dead letter, and the lane goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

import aiohttp

from bot.telegram.receiver import SECRET_HEADER
from storage import inbox
from storage.store import Storage
from tests.bot.harness import settings_env
from tests.bot.test_workers import Cluster, _free_port
from tests.fakebot import FakeTelegram, Message, User
from tests.postgres import LazyServer

SECRET = "edge-secret"
ANSWERED_WITHIN = 5.0
NOT_MINE = "This button is not one of mine, or it is too old."


async def _reply(tg: FakeTelegram, user: User) -> Message:
    """The bot's first message to the user (the workers' sends are not the fake's to await)."""
    for _ in range(600):
        with contextlib.suppress(LookupError):
            return tg.last_message(user)
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not answer /start")


async def test_a_poisoned_update_is_set_aside_and_the_lane_goes_on(postgres: LazyServer) -> None:
    url = await postgres.new_database()
    port = _free_port()
    async with FakeTelegram() as tg:
        env = {**os.environ, **settings_env(
            tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
            WEBHOOK_SECRET=SECRET, LOG_LEVEL="WARNING")}
        ann = tg.add_user("Ann")
        cluster = Cluster(env, workers=1)
        try:
            await cluster.start(tg)
            tg.press_start(ann)
            message = await _reply(tg, ann)
            # A forged button with a table id no integer column holds, in Ann's private chat.
            for digits in (20, 40):
                forged = tg.press_nowait(ann, message, data="l:" + "9" * digits, forge=True)
                said = await tg.answer_to(forged, timeout=30)
                assert said.show_alert and said.text == NOT_MINE
            # An update of Ann's chat that no worker can read (a message without its date
            # and id): stored, tried, set aside.
            poison = {"update_id": 10**12, "message": {
                "text": "/help", "chat": {"id": ann.id, "type": "private"},
                "from": {"id": ann.id, "is_bot": False, "first_name": "Ann"}}}
            odd = {"update_id": 10**12 + 1, "callback_query": {
                "id": "x", "from": {"id": ann.id}, "message": {"chat": "nowhere"}}}
            async with aiohttp.ClientSession() as http:
                for update in (poison, odd):
                    async with http.post(f"http://127.0.0.1:{port}/hook", json=update,
                                         headers={SECRET_HEADER: SECRET}) as response:
                        assert response.status == 200
            started = time.monotonic()
            query = tg.press_nowait(ann, message, data="zz:1", forge=True)
            answer = await tg.answer_to(query, timeout=ANSWERED_WITHIN)
            assert answer.show_alert and time.monotonic() - started < ANSWERED_WITHIN
            storage = await Storage.open(url)
            try:
                for _ in range(100):
                    async with storage.db.reading() as conn:
                        if await inbox.dead_letters(conn) == 2:
                            break
                    await asyncio.sleep(0.1)
                async with storage.db.reading() as conn:
                    rows = await conn.fetch("SELECT update_id, lane, attempts, error"
                                            " FROM dead_letters ORDER BY update_id")
                    pending = await inbox.pending(conn)
            finally:
                await storage.close()
            assert [(r["update_id"], r["lane"]) for r in rows] == [
                (10**12, f"p{ann.id}"), (10**12 + 1, f"p{ann.id}")]
            assert all(r["attempts"] == 5 and "Traceback" in r["error"] for r in rows)
            assert pending == 0
            assert tg.world.webhook.last_error_message is None
        finally:
            await cluster.stop()
