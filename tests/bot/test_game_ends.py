"""What a game's end and a newcomer read (issue 33.8): a newcomer to a full table is
greeted before he is refused; an old game's "Play again" does not bring back its seating
after a later game; a /timer picker of an ended game loses its buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import open_table, running_bot
from tests.bot.tabletop import command
from tests.bot.test_rematch import end_by_vote
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_a_newcomer_to_a_full_table_is_greeted_first(tg: FakeTelegram,
                                                           tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    dan = tg.add_user("Dan")
    group = tg.add_group("Cards", [*users, dan])
    async with running_bot(tg, tmp_path / "bot.db"):
        lobby = await open_table(tg, group, users)
        answer = await tg.press(dan, lobby, text="✋ Join")
        assert answer.url  # the bot's private chat, whose Start brings him back
        tg.follow(dan, answer.url)
        await tg.settled(dan)
        said = [m.text for m in tg.messages(dan) if m.sender is tg.bot]
        assert said[0].startswith("Card table") and said[-1] == "The table is full."


async def test_an_old_play_again_and_an_old_timer_picker_do_nothing(tg: FakeTelegram,
                                                                    tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db"):
        lobby = await open_table(tg, group, users)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.settled(group)
        first = await end_by_vote(tg, group, users, "/abort", "The game was abandoned")
        for user in users:  # game 2: the same players one seat on
            await tg.press(user, first, text="🔁 Play again")
            await tg.settled(group)
        picker = await command(tg, users[0], group, "/timer")
        assert picker.buttons
        await end_by_vote(tg, group, users, "/abort", "The game was abandoned")

        answer = await tg.press(users[1], first, text="🔁 Play again")
        assert answer.show_alert and answer.text == (
            "A later game was played here since: press “Play again” under the last one.")
        answer = await tg.press(users[0], picker, data=picker.buttons[0]["callback_data"])
        assert answer.show_alert
        await tg.settled(group)
        assert picker.buttons == []
