"""Three tables (Preferans, Seep, Joker) played by people who press random buttons of their
panels, with the bot restarted twice: games progress, nothing crashes, everything replays."""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

import pytest

from engine.records import replay
from storage.store import Storage
from tests.bot.harness import open_table, running_bot
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

SEEDS = [int(s) for s in os.environ.get("RANDOM_PLAYER_SEEDS", "3").split(",")]
STEPS = int(os.environ.get("RANDOM_PLAYER_STEPS", "120"))  # presses per run of the bot


@pytest.mark.parametrize("seed", SEEDS)
async def test_random_players_across_restarts(tg: FakeTelegram, tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture,
                                              seed: int) -> None:
    rng = random.Random(seed)
    db = tmp_path / "bot.db"
    tables = []
    async with running_bot(tg, db):
        for game, n in (("preferans", 3), ("seep", 4), ("joker", 4)):
            users = [tg.add_user(f"{game[:3]}{i}") for i in range(n)]
            group = tg.add_group(game, users)
            await open_table(tg, group, users, game=game)
            await tg.press(users[0], tg.last_message(group), text="▶ Start")
            await tg.idle()
            tables.append(users)
    caplog.set_level(logging.ERROR)
    for _ in range(2):
        async with running_bot(tg, db):
            for _ in range(STEPS):
                users = rng.choice(tables)
                panels = [(u, m) for u in users for m in tg.messages(u)[-1:]
                          if any(b.get("callback_data", "")[:2] in ("a:", "u:")
                                 for b in m.buttons)]
                if not panels:
                    continue
                user, panel = rng.choice(panels)
                data = rng.choice([b["callback_data"] for b in panel.buttons
                                   if b.get("callback_data", "")[:2] in ("a:", "u:")])
                await tg.press(user, panel, data=data)
                await tg.idle()
    assert not [r for r in caplog.records if r.name.startswith(("bot", "storage"))], caplog.text
    storage = await Storage.open(str(db))
    try:
        played = 0
        for table in await storage.tables.open_tables():
            match = replay(await storage.log.record(table.id))
            played += match.version
        assert played > STEPS  # the games went on (every accepted press is a stored action)
    finally:
        await storage.close()
