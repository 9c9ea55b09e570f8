"""The deal being entered outlives the process: stopped with a deal half tapped in (or a
correction pre-filled), the bot started again on the same database shows it as it was, and
the buttons of the message it left go on from there (on SQLite and on PostgreSQL); in
worker mode, a worker killed with SIGKILL leaves the deal to the next one."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

import pytest

from engine.games import get_game
from engine.manual import add_entry, form_for
from engine.match import Match
from engine.records import replay
from storage.store import Storage
from tests.bot.harness import running_bot
from tests.bot.scorekeeping import Keeping, entry_message, open_keeping, table_message
from tests.bot.test_sends import _worker_env
from tests.bot.test_workers import Cluster, _button, _press
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Message
from tests.postgres import LazyServer

NAMES = ["Ann", "Bob", "Cid"]


def reference(texts: list[str]) -> Match:
    """The sheet the engine alone makes of these deals (Cid dealt first)."""
    spec = get_game("preferans")
    match = Match(spec, spec.rules.from_dict({}), NAMES, 2)
    for text in texts:
        add_entry(match, form_for(match).parse(text))
    return match


@pytest.mark.telegram_clock(4)  # what waits here is the chats' budgets
async def test_the_deal_being_entered_survives_restarts(tg: FakeTelegram,
                                                       location: str) -> None:
    ann = tg.add_user("Ann")
    group = tg.add_group("Restart", [ann])
    texts = ["6S Ann 6; Bob whist 2; Cid whist 2", "7H Bob 7; Cid whist 3; Ann pass"]
    async with running_bot(tg, location) as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann,), guests=("Bob", "Cid"))
        table_id = keeping.table_id
        await keeping.tap("Cid")
        await keeping.send(f"/deal {texts[0]}")
        await keeping.tap("Bob", "7♥")  # deal 2 half entered when the bot stops
        shown = keeping.message()
        assert "Entered: Bob · 7♥\n" in shown.text
    async with running_bot(tg, location) as hub:
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert keeping.message().text == shown.text
        await keeping.tap("whist · pass")  # a button of the message shown before the stop
        assert "Entered: Bob · 7♥ · Cid whist · Ann pass\n" in keeping.message().text
        await keeping.tap("0", "7", "✅ Save deal 2")
        stored = await keeping.stored()
        assert stored.record()["deals"] == reference(texts).record()["deals"]
    async with running_bot(tg, location) as hub:  # the saved deal left no draft behind
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert "Deal 3 · Bob deals\n\n" in keeping.message().text
        await keeping.tap("Cid")
        assert "Entered: Cid\n" in keeping.message().text
        await keeping.send("/edit 1")  # a correction pre-filled, replacing the draft
        assert "Correcting deal 1" in keeping.message().text
    async with running_bot(tg, location) as hub:
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert "Correcting deal 1" in keeping.message().text
        await keeping.tap("Stop correcting")
        assert "Deal 3 · Bob deals\n\n" in keeping.message().text
        stored = await keeping.stored()
        assert stored.record()["deals"] == reference(texts).record()["deals"]


Find = Callable[[], Message]  # the message pressed: the group's, or the keeper's entry


async def _shows(find: Find, text: str) -> None:
    """Wait till the message shows ``text`` (the workers are other processes)."""
    deadline = time.monotonic() + 60
    while text not in (shown := _found(find)):
        assert time.monotonic() < deadline, (text, shown)
        await asyncio.sleep(0.1)


def _found(find: Find) -> str:
    try:
        return find().text
    except (LookupError, AssertionError):
        return ""


async def _tap(tg: FakeTelegram, user: User, find: Find, label: str, shows: str) -> None:
    """Press the message's button (accepted), then wait till it shows ``shows``."""
    await _press(tg, user, find(), text=label)
    await _shows(find, shows)


async def test_a_killed_workers_draft_goes_on_with_the_next(tg: FakeTelegram,
                                                           postgres: LazyServer) -> None:
    """Worker mode (a receiver, one worker): the worker that took deal 1's first taps is
    killed with SIGKILL; the one started after it loads the table with its stored draft, and
    the message's next buttons go on from it."""
    url = await postgres.new_database()
    env = _worker_env(tg, url)
    ann = tg.add_user("Ann")
    group = tg.add_group("Workers", [ann])
    cluster = Cluster(env, workers=1)
    try:
        await cluster.start(tg)
        tg.press_start(ann)
        tg.send(ann, group, "/pref")
        await _button(tg, group, "📝 Keep score only (real cards)")

        def lobby() -> Message:
            return table_message(tg, group)

        def entry() -> Message:
            found = entry_message(tg, ann)
            assert found is not None
            return found

        await _tap(tg, ann, lobby, "📝 Keep score only (real cards)", "(1/3): Ann")
        tg.send(ann, group, "/add Bob, Cid")
        await _shows(lobby, "(3/3): Ann, Bob, Cid")
        await _tap(tg, ann, lobby, "▶ Start", "in my private chat")
        tg.follow(ann, next(b["url"] for b in lobby().buttons))
        await _shows(entry, "Who dealt the first deal?")
        await _tap(tg, ann, entry, "Cid", "Deal 1 · Cid deals")
        await _tap(tg, ann, entry, "Bob", "Entered: Bob\n")
        await _tap(tg, ann, entry, "7♥", "Entered: Bob · 7♥\n")
        await cluster.kill_one(random.Random())  # the one worker, SIGKILL; another starts
        await _tap(tg, ann, entry, "whist · pass", "Entered: Bob · 7♥ · Cid whist · Ann pass\n")
        for label, shows in (("0", "talon 0"), ("7", "Bob took 7"),
                             ("✅ Save deal 1", "Deal 2 · Ann deals")):
            await _tap(tg, ann, entry, label, shows)
    finally:
        await cluster.stop()
    async with await Storage.open(url) as store:
        (row,) = await store.tables.open_tables()
        stored = replay(await store.log.record(row.id))
    expected = reference(["7H Bob 7; Cid whist 3; Ann pass"])
    assert stored.record()["deals"] == expected.record()["deals"]
