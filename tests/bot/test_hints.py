"""Hints for learners (issue 34), by buttons on the fake Bot API: at a table whose lobby
turned hints on, the player to act has "💡 Hint"; pressed, his panel shows the robot's
suggestion with one line of why, and no one else's panel does. At an ordinary (rated)
table there is no such button, a hint asked for anyway is refused, and a game with hints
is not rated."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import hints
from bot.service.ratings import rated
from bot.service.tables import HINTS
from storage.rows import FinishedGame, PlayerResult
from tests.bot.harness import open_table, running_bot, started_game
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_a_hint_at_a_learners_table(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group),
                       text="💡 Hints for learners (not rated): off")
        await tg.settled(group)
        assert any(b["text"] == "💡 Hints for learners (not rated): on"
                   for b in tg.last_message(group).buttons)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        state = table.match.state
        player = users[state.to_act[0]]
        assert [b["text"] for b in tg.last_message(player).buttons][-1] == "💡 Hint"
        answer = await tg.press(player, tg.last_message(player), text="💡 Hint")
        assert not answer.show_alert, answer.text
        await tg.idle()
        panel = tg.last_message(player).text
        line = next(line for line in panel.split("\n") if line.startswith("💡 "))
        assert "your hand looks worth" in line or "misère" in line, line
        others = [u for u in users if u is not player]
        assert all("💡 " not in tg.last_message(u).text for u in others)
        assert table.row.settings[HINTS] is True


async def test_no_hints_at_a_rated_table(tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        users, _ = await started_game(tg)
        table = next(iter(hub.services.tables.values()))
        seat = table.match.state.to_act[0]
        panel = tg.last_message(users[seat])
        assert all("💡" not in b["text"] for b in panel.buttons)
        # A forged press (the panel has no such button) asks the use case itself.
        out = await hints.press(table, table.user_of(seat), (str(table.match.version), str(seat)))
        assert out.refusal is not None and out.refusal.code == "hints_off"


def test_a_game_with_hints_is_not_rated() -> None:
    results = tuple(PlayerResult(s, 100 + s, n, b, p) for s, n, b, p in (
        (0, "Ann", 10.0, 1), (1, "Bob", 0.0, 2), (2, "Cid", -10.0, 3)))
    game = FinishedGame(1, -5, "preferans", {}, {}, results)
    assert rated(game)
    assert not rated(FinishedGame(1, -5, "preferans", {}, {HINTS: True}, results))
