"""The bot is killed (SIGKILL) between two presses and started again: nothing is lost,
nothing is applied twice, and the game goes on past a deal's end (the restart after it
resumes from the snapshot). On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from engine.records import replay
from storage.store import Storage
from tests.bot.harness import press_first, settings_env
from tests.fakebot import FakeTelegram

# The bot runs in another process: idle means no call for this long, longer than a private
# chat's budget may hold an edit back (3 calls in 3 s) or a waiting panel may rest (2 s).
QUIET = 3.5


async def start_bot(tg: FakeTelegram, db: Path | str) -> asyncio.subprocess.Process:
    env = {**os.environ, **settings_env(tg, db), "LOG_LEVEL": "WARNING"}
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
    bot = await start_bot(tg, db)
    try:
        for user in users:
            tg.press_start(user)
        await tg.idle(quiet=QUIET)
        tg.send(users[0], group, "/pref")
        await tg.idle(quiet=QUIET)
        for user in users[1:]:
            await tg.press(user, tg.last_message(group), text="✋ Join")
            await tg.idle(quiet=QUIET)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle(quiet=QUIET)
        moves = 0
        for _ in range(5):
            assert await press_first(tg, users, quiet=QUIET)
            moves += 1
        await kill(bot)
        # A press while the bot is down waits on Telegram's side and is handled after.
        pending = next(u for u in users if any(
            b.get("callback_data", "").startswith("a:") for b in tg.last_message(u).buttons))
        panel = tg.last_message(pending)
        action = next(b for b in panel.buttons if b.get("callback_data", "").startswith("a:"))
        query = tg.press_nowait(pending, panel, data=action["callback_data"])
        bot = await start_bot(tg, db)
        answer = await tg.answer_to(query, timeout=20)
        assert not answer.show_alert, answer.text
        moves += 1
        await tg.idle(quiet=QUIET)
        for _ in range(3):
            assert await press_first(tg, users, quiet=QUIET)
            moves += 1
        # Killed again right after a press: the press is either stored or was never seen.
        await kill(bot)
        bot = await start_bot(tg, db)
        await tg.idle(quiet=QUIET)
        while await press_first(tg, users, quiet=QUIET):
            moves += 1
            if any("Deal 1" in t for t in tg.texts(group)):
                break
        assert any(t.startswith("Deal 1") for t in tg.texts(group))
        await tg.idle(quiet=QUIET)
        await kill(bot)  # after a deal's end: the restart resumes from its snapshot
        bot = await start_bot(tg, db)
        await tg.idle(quiet=QUIET)
        for _ in range(2):
            assert await press_first(tg, users, quiet=QUIET)
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
