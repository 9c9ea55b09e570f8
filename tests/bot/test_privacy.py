"""No card of a hand reaches any chat but its owner's before the rules make it public: every
kind of deal is checked after each press in tests/bot/test_preferans_game.py; here a deal's
screens that reach the chats after its end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.bot import test_preferans_game as game
from tests.bot.harness import open_table, running_bot
from tests.bot.privacy import Privacy
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_a_deals_screens_that_arrive_after_its_end_show_only_what_it_made_public(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal's end stored slowly (a loaded disk): a waiting player's edit of the deal, due
    meanwhile, reaches him after the next deal is dealt; it shows no more than that deal
    made public, and then every panel shows the next deal."""
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        log = hub.services.store.log
        append = log.append

        async def slow(*args: Any, **kwargs: Any) -> float:
            if kwargs.get("result") is not None:  # a deal's end
                await asyncio.sleep(2.5)  # within a press's 5 s
            return await append(*args, **kwargs)

        monkeypatch.setattr(log, "append", slow)
        privacy = Privacy(tg, hub, users, group)
        await open_table(tg, group, users, options={"Players": 1})
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        for intent in ("open", "raspasy"):
            await game.play_deal(tg, hub, users, intent, after=privacy.check)
        await tg.settled()
        privacy.check()
        assert privacy.late, "no screen of a deal arrived after its end"
        table = next(iter(hub.services.tables.values()))
        deal = table.match.deal_count
        for user in users:  # the next deal, or (waiting for his turn in it) no turn buttons
            panel = tg.last_message(user)  # (a finished deal's analysis stays valid)
            assert f"· deal {deal}\n" in panel.text or (
                user.id not in table.acting_users()
                and all(b["text"] == "🔍 Analysis" for b in panel.buttons)), panel
