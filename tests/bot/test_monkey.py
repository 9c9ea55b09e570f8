"""People pressing anything they can see, sending any command, with restarts: every press
is answered, nothing crashes, and every stored game still replays."""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

import pytest

from engine.records import replay
from storage.store import Storage
from tests.bot.harness import running_bot
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

COMMANDS = ("/newgame", "/pref", "/seep", "/joker", "/score", "/history", "/rules", "/help",
            "/leave", "/abort", "/export", "/sheet", "/stats", "/top", "/language",
            "/pause", "/resume", "/timer", "/undo", "/deal 7H", "/settle", "/start",
            "/newgame joker", "/quiet", "/add Zed")


SEEDS = [int(s) for s in os.environ.get("MONKEY_SEEDS", "7,8").split(",")]
STEPS = int(os.environ.get("MONKEY_STEPS", "70"))  # per run of the bot (three runs)


@pytest.mark.parametrize("seed", SEEDS)
async def test_monkeys_with_restarts(tg: FakeTelegram, tmp_path: Path,
                                     caplog: pytest.LogCaptureFixture, seed: int) -> None:
    rng = random.Random(seed)
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan", "Eve")]
    groups = [tg.add_group(f"Table {i}", users) for i in range(2)]
    for user in users[:4]:
        tg.press_start(user)
    caplog.set_level(logging.ERROR)
    db = tmp_path / "bot.db"
    for _ in range(3):  # three runs of the bot on one database
        async with running_bot(tg, db):
            for _ in range(STEPS):
                actors = [u for u in users if any(m.buttons for m in tg.messages(u)[-1:])]
                user = rng.choice(actors) if actors and rng.random() < 0.6 else rng.choice(users)
                if rng.random() < 0.1:
                    chat = rng.choice([*groups, user])
                    if chat is user and tg.private_chat(user).bot_status != "member":
                        tg.press_start(user)
                    else:
                        tg.send(user, chat, rng.choice(COMMANDS))
                    await tg.idle()
                    continue
                own = [m for m in tg.messages(user)[-1:] if m.buttons]
                if own and rng.random() < 0.7:
                    message = own[0]  # his panel: mostly what players press
                else:
                    visible = [m for chat in [*groups, user] for m in tg.messages(chat)
                               if any("callback_data" in b for b in m.buttons)]
                    if not visible:
                        continue
                    # Mostly the newest messages (lobbies, tables), sometimes an old one.
                    message = visible[-1] if rng.random() < 0.5 else rng.choice(visible[-6:])
                data = rng.choice([b["callback_data"] for b in message.buttons
                                   if "callback_data" in b])
                answer = await tg.press(user, message, data=data)
                if answer.url:
                    tg.follow(user, answer.url)
                await tg.idle()
    assert not [r for r in caplog.records if r.name.startswith(("bot", "storage"))], caplog.text
    storage = await Storage.open(str(db))
    try:
        for table in await storage.tables.open_tables():
            if table.status != "lobby":
                replay(await storage.log.record(table.id))
    finally:
        await storage.close()
