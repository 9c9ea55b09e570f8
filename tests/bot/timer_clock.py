"""Driving the bot's timers with a controllable clock.

time-machine stops and moves the wall clock that the bot's deadlines, APScheduler (under
PTB's JobQueue) and the fake Bot API read; the event loop's monotonic clock is
left alone. After a jump APScheduler is woken, so that what fell due runs at
once, and the test waits until the bot is idle (due jobs included).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import time_machine

from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from tests.bot.harness import open_table, running_bot
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.fakebot.flood import FloodControl
from tests.fakebot.model import Chat

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
HOUR = 3600.0
MINUTE = 60.0


@dataclass
class Players:
    tg: FakeTelegram
    users: list[User]
    group: Chat
    db: Path | str  # a SQLite file or a PostgreSQL URL
    clock: time_machine.Traveller


@contextlib.contextmanager
def players(tg: FakeTelegram, tmp_path: Path, *, usernames: bool = False,
            location: str | None = None) -> Iterator[Players]:
    """Ann, Bob and Cid in a group, the bot's database at ``location`` (a SQLite file of
    ``tmp_path`` if None), with the wall clock standing at START: it moves only
    when ``advance`` (or the test) moves it, so that deadlines are exact. The fake Bot
    API's flood limits read that clock, so they are switched off; the bot's own budgets
    run on the monotonic clock and still apply."""
    users = [tg.add_user(n, username=n.lower() if usernames else None)
             for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    tg.world.flood = FloodControl(FloodLimits.off())
    with time_machine.travel(START, tick=False) as clock:
        yield Players(tg, users, group, location or tmp_path / "bot.db", clock)


@dataclass
class Game:
    """A running bot with a started table, and the players' view of it."""

    p: Players
    hub: Hub

    @property
    def table(self) -> Table:
        (table,) = self.hub.services.tables.values()
        return table

    def to_act(self) -> User:
        """The user whose decision the table waits for."""
        state = self.table.match.state
        return self.p.users[state.controller(state.to_act[0])]

    async def advance(self, seconds: float) -> None:
        await advance(self.p, self.hub, seconds)


async def advance(p: Players, hub: Hub, seconds: float) -> None:
    """Move the clock on and let every job that fell due run."""
    p.clock.shift(seconds)
    assert hub.services.scheduler is not None
    hub.services.scheduler.scheduler.wakeup()
    await asyncio.sleep(0.05)  # the scheduler hands due jobs to the loop
    await p.tg.idle()


@contextlib.asynccontextmanager
async def bot(p: Players) -> AsyncIterator[Game]:
    """The bot running on the players' database (a second one is a restart)."""
    async with running_bot(p.tg, p.db) as hub:
        await p.tg.idle()
        yield Game(p, hub)


@contextlib.asynccontextmanager
async def game(p: Players, options: dict[str, int]) -> AsyncIterator[Game]:
    """A Preferans table with the lobby's time buttons pressed as given, started."""
    async with bot(p) as started:
        await open_table(p.tg, p.group, p.users, options=options)
        answer = await p.tg.press(p.users[0], p.tg.last_message(p.group), text="▶ Start")
        assert not answer.show_alert, answer.text
        await p.tg.idle()
        yield started


async def robot_entries(g: Game) -> list[tuple[int, int, str]]:
    """(seq, seat, payload) of every log entry a robot chose, as the bot's storage holds
    them."""
    async with g.hub.services.store.db.reading() as conn:
        return [tuple(row) for row in await conn.fetch(
            "SELECT seq, seat, payload FROM log_entries WHERE robot = 1 ORDER BY seq")]


def texts_with(tg: FakeTelegram, chat: Chat | User, marker: str) -> list[str]:
    """The bot's messages in a chat that contained ``marker`` when sent."""
    return [text for m in tg.messages(chat, include_deleted=True)
            if m.sender is tg.bot and marker in (text := m.revisions[0].content.text)]


def sent_at(tg: FakeTelegram, chat: Chat | User, marker: str) -> float:
    """When the one message containing ``marker`` was sent to the chat (seconds after START)."""
    (call,) = [c for c in tg.calls_for("sendMessage", chat) if marker in c.params["text"]]
    return call.time - START.timestamp()
