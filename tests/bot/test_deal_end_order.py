"""A deal's result never stands above a table that still waits for the last card (issue
33.6): at a deal's end the table message's last edit goes before the result, unpaced,
even while the group's table edits are paced (one every few seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import press_first
from tests.bot.test_group_life import _game
from tests.fakebot import FakeTelegram
from tests.fakebot.model import ApiCall

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def _text(call: ApiCall) -> str:
    return str(call.params.get("text") or "")


async def test_the_table_shows_the_deals_end_before_its_result(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    async with _game(tg, tmp_path) as (users, group, _, table):
        for deal in (1, 2):
            while len(table.match.outputs) < deal:  # played at once: the edits are paced
                assert await press_first(tg, users)
            await tg.settled(group)
            calls = [c for c in tg.calls_for(chat=group)
                     if c.method in ("sendMessage", "editMessageText")]
            result = next(i for i, c in enumerate(calls) if c.method == "sendMessage"
                          and _text(c).startswith(f"<b>Deal {deal}</b>"))
            shown = next(i for i, c in enumerate(calls)
                         if f"🔚 <b>Deal {deal} is over.</b>" in _text(c))
            assert shown < result, [(c.method, _text(c)[:40]) for c in calls[shown - 3:]]
            assert calls[result - 1] is calls[shown]  # right before it: nothing in between
