"""The bot is killed (SIGKILL) between two presses and started again: nothing is lost,
nothing is applied twice, and the game goes on past a deal's end (the restart after it
resumes from the snapshot). On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from aiohttp import ClientSession

from engine.records import replay
from storage.store import Storage
from tests.bot.harness import acting, press_first, settings_env
from tests.bot.test_monitoring import scrape
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat
from tests.webapp.harness import free_port

MOMENT = 0.2  # no call for this long: the bot is done with what it sends at once


async def until(tg: FakeTelegram, shown: Callable[[], bool]) -> None:
    """Wait until the bot made no call for a moment and ``shown()`` holds."""
    for _ in range(300):  # 30 s
        await tg.idle(quiet=MOMENT, timeout=30)
        if shown():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the bot did not show what was expected")


def bot_messages(tg: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in tg.messages(chat) if m.sender is tg.bot]


def has_button(tg: FakeTelegram, chat: Chat, label: str) -> bool:
    """The bot's last message in the chat has this button."""
    return any(b["text"] == label for m in bot_messages(tg, chat)[-1:] for b in m.buttons)


class Panels:
    """When the bot (another process) is done with a press: it made no call for a moment,
    someone acts (``acting``: the panels with the latest buttons), and each of their panels
    changed since the press. What a player who does not act is shown may wait for the table's
    next beat (his buttons that went included: a stale press is refused): a restart redraws it
    (the table's ``shown_at`` is behind)."""

    def __init__(self, tg: FakeTelegram, users: list[User], metrics: str) -> None:
        self.tg, self.users, self.metrics = tg, users, metrics
        self.before = self._look()

    def _look(self) -> dict[User, tuple[int, int] | None]:
        """Each panel's message and revision, None for a panel without buttons."""
        looks: dict[User, tuple[int, int] | None] = {}
        for user in self.users:
            panel = next(iter(bot_messages(self.tg, user)[-1:]), None)
            live = panel is not None and any("callback_data" in b for b in panel.buttons)
            looks[user] = (panel.message_id, len(panel.revisions)) if live else None
        return looks

    def _done(self) -> bool:
        now, players = self._look(), acting(self.tg, self.users)
        return bool(players) and all(now[user] != self.before[user] for user in players)

    async def pressed(self) -> None:
        """Wait until the bot is done with a press."""
        await until(self.tg, self._done)
        self.before = self._look()

    async def idle(self) -> None:
        """Wait until the bot sent everything, what may wait for a chat's budget included: no
        call for a moment, and nothing in its outbox (its /metrics)."""
        async with ClientSession() as http:
            for _ in range(600):  # 60 s
                await self.tg.idle(quiet=MOMENT, timeout=60)
                samples = await scrape(http, self.metrics)
                if not sum(v for (name, _), v in samples.items()
                           if name == "cardtable_outbox_backlog"):
                    self.before = self._look()
                    return
                await asyncio.sleep(0.1)
        raise AssertionError("the bot's outbox did not empty")


async def start_bot(tg: FakeTelegram, db: Path | str,
                    metrics: int) -> asyncio.subprocess.Process:
    env = {**os.environ, **settings_env(tg, db), "LOG_LEVEL": "WARNING",
           "METRICS_PORT": str(metrics)}
    before = len(tg.calls_for("getUpdates"))
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env)
    for _ in range(600):  # 30 s: a loaded machine starts Python slowly
        if len(tg.calls_for("getUpdates")) > before:
            return process
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not start polling")


async def kill(process: asyncio.subprocess.Process) -> None:
    process.send_signal(signal.SIGKILL)
    await process.wait()


async def test_killed_between_presses_loses_nothing(tg: FakeTelegram, location: str) -> None:
    db = location
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    port = free_port()
    bot = await start_bot(tg, db, port)
    panels = Panels(tg, users, f"http://127.0.0.1:{port}/")
    try:
        for user in users:
            tg.press_start(user)
        await until(tg, lambda: all(bot_messages(tg, u) for u in users))
        tg.send(users[0], group, "/pref")
        await until(tg, lambda: has_button(tg, group, "✋ Join"))
        for user in users[1:]:
            await tg.press(user, tg.last_message(group), text="✋ Join")
            await tg.idle(quiet=MOMENT)
        await until(tg, lambda: has_button(tg, group, "▶ Start"))
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await panels.pressed()
        moves = 0
        for _ in range(5):
            assert await press_first(tg, users, settle=panels.pressed)
            moves += 1
        await panels.idle()
        await kill(bot)
        # A press while the bot is down waits on Telegram's side and is handled after.
        pending = acting(tg, users)[0]
        panel = tg.last_message(pending)
        action = next(b for b in panel.buttons if b.get("callback_data", "").startswith("a:"))
        query = tg.press_nowait(pending, panel, data=action["callback_data"])
        bot = await start_bot(tg, db, port)
        answer = await tg.answer_to(query, timeout=20)
        assert not answer.show_alert, answer.text
        moves += 1
        await panels.idle()
        for _ in range(3):
            assert await press_first(tg, users, settle=panels.pressed)
            moves += 1
        # Killed again right after a press: the press is either stored or was never seen.
        await panels.idle()
        await kill(bot)
        bot = await start_bot(tg, db, port)
        await panels.idle()
        while await press_first(tg, users, settle=panels.pressed):
            moves += 1
            if any("Deal 1" in t for t in tg.texts(group)):
                break
        assert any(t.startswith("Deal 1") for t in tg.texts(group))
        await panels.idle()
        await kill(bot)  # after a deal's end: the restart resumes from its snapshot
        bot = await start_bot(tg, db, port)
        await panels.idle()
        for _ in range(2):
            assert await press_first(tg, users, settle=panels.pressed)
            moves += 1
    finally:
        await kill(bot)
    refused = [c for c in tg.calls if c.status == 400 and "not modified" in (c.description or "")]
    assert not refused, "a restarted bot must edit only what changed"
    storage = await Storage.open(str(db))
    try:
        table = (await storage.tables.open_tables())[0]
        record = await storage.log.record(table.id)
        resumed = await storage.log.resumable(table.id)
    finally:
        await storage.close()
    assert resumed.snapshot is not None and len(resumed.record["deals"]) == 1
    match = replay(record)  # every stored action replays
    assert match.outputs and match.version == table.last_seq
    # Every accepted press is stored exactly once.
    assert sum(len(deal["actions"]) for deal in record["deals"]) == moves
