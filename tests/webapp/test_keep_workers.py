"""Keeping score in the Mini App with several workers, end to end: the fake Bot API in webhook
mode, PostgreSQL, the receiver and two worker processes serving the Mini App on one port
(SO_REUSEPORT), Chromium. The keeper taps Preferans deals in the Mini App whichever worker
takes each request: every tap is done in the table's lane (``relay``), the page is redrawn from
what is stored, and the stored sheet is what he tapped."""

from __future__ import annotations

import asyncio
import random
import time

from bot.service import records
from storage.store import Storage
from tests.bot.test_workers import Cluster, _press, _quiet
from tests.fakebot import FakeTelegram, Message
from tests.fakebot.model import Chat
from tests.postgres import LazyServer
from tests.webapp.harness import chromium, init_data, open_app, workers_env
from tests.webapp.keeping import enter_deals

DEALS = 3
WAIT = 90.0  # seconds: a guard against a hang on a loaded machine, not a speed limit


async def _with(tg: FakeTelegram, group: Chat, label: str, text: str = "") -> Message:
    """The group's latest message with this button, once it says ``text`` (table edits are
    paced)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for message in reversed(tg.messages(group)):
            if any(b["text"] == label for b in message.buttons) and text in message.text:
                return message
        await asyncio.sleep(0.2)
    raise AssertionError(f"no {label!r} button in {group.title}")


async def test_deals_tapped_on_two_workers(postgres: LazyServer) -> None:
    db = await postgres.new_database()
    async with FakeTelegram() as tg:
        env, url = workers_env(tg, db, "WARNING")
        ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
        group = tg.add_group("Keep", [ann, bob])
        cluster = Cluster(env, workers=2)
        storage = await Storage.open(db)
        try:
            await cluster.start(tg)
            tg.send(ann, group, "/pref")
            keep = "📝 Keep score only (real cards)"
            await _press(tg, ann, await _with(tg, group, keep), text=keep)
            for user in (ann, bob):
                lobby = await _with(tg, group, "✋ Join", "keep score only")
                await _press(tg, user, lobby, text="✋ Join")
            tg.send(ann, group, "/add Cid")
            lobby = await _with(tg, group, "▶ Start", "Ann, Bob, Cid")
            await _press(tg, ann, lobby, text="▶ Start")
            await _with(tg, group, "📱 Open in the Mini App")
            (row,) = await storage.tables.open_tables(chat_id=group.id)
            found = await records.load(storage, row.id)
            assert found.match is not None
            async with chromium() as browser:
                page = await open_app(browser, url, init_data(tg, ann), table=row.id)
                got = await enter_deals(page, found.row, found.match, DEALS, random.Random(7))
            await _quiet(tg, db)
            stored = (await records.load(storage, row.id)).match
        finally:
            await storage.close()
            await cluster.stop()
        assert got.refused == []
        assert stored is not None and len(stored.deals) == DEALS
        assert [d["entry"] for d in stored.deals] == [d["entry"] for d in got.model.deals]
        assert stored.report() == got.model.report()
        assert not [c for c in tg.calls if c.status == 429]
