"""/pause and /resume, /replace and /timer: by the players' vote; a paused table takes no
moves and runs no timers; a newcomer takes an absent player's seat; time settings change
in the lobby and, by vote, during the game."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.bot.harness import act
from tests.bot.timer_clock import HOUR, MINUTE, START, game, players, texts_with
from tests.fakebot import FakeTelegram


async def test_pause_and_resume_by_vote(tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        async with game(p, {"⏱ Turn time": 1, "⌛ On timeout": 1}) as g:
            users, group, table = p.users, p.group, g.table
            version = table.match.version
            tg.send(users[0], group, "/pause")
            await tg.settled(group)
            vote = tg.last_message(group)
            assert "Ann wants to pause the game." in vote.text
            await tg.press(users[1], vote, text="❌ Refuse")
            await tg.idle()
            assert table.status == "playing"
            assert vote.text.endswith("❌ Bob refused: the game goes on.")  # the vote says so
            tg.send(users[0], group, "/pause")
            await tg.settled(group)
            vote = tg.last_message(group)
            answer = await tg.press(users[0], vote, text="✅ Agree")
            assert answer.show_alert  # the one who asks does not vote
            for user in users[1:]:
                await tg.press(user, vote, text="✅ Agree")
                await tg.idle()
            assert table.status == "paused" and table.row.timer_deadline is None
            assert "⏸ The game is paused: no moves and no timers until /resume." in tg.texts(
                group)
            player = g.to_act()
            moves = [b for b in tg.last_message(player).buttons if "callback_data" in b]
            assert moves == []  # a paused panel has no buttons
            await g.advance(2 * HOUR)
            assert table.match.version == version  # no timeout while paused
            tg.send(users[0], group, "/pause")
            await tg.settled(group)
            assert "The game is paused already" in tg.last_message(group).text
            tg.send(users[2], group, "/resume")
            await tg.settled(group)
            vote = tg.last_message(group)
            for user in users[:2]:
                await tg.press(user, vote, text="✅ Agree")
                await tg.idle()
            assert table.status == "playing"
            assert table.row.timer_deadline == START.timestamp() + 2 * HOUR + 5 * MINUTE
            await act(tg, player, "bid:pass")
            assert table.match.version == version + 1


async def test_replace_an_absent_player_by_vote(tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path, usernames=True) as p:
        users, group = p.users, p.group
        dan = tg.add_user("Dan", username="dan")
        tg.join(group, dan)
        async with game(p, {"⏱ Turn time": 1}) as g:  # 5 min, reminders, wait
            table = g.table
            gone = g.to_act()
            seat = users.index(gone)
            present = [u for u in users if u is not gone]
            tg.send(present[0], group, "/replace @dan")
            await tg.settled(group)
            assert "I do not know @dan" in tg.last_message(group).text
            tg.send(dan, group, "/score")  # Dan is known to the bot, but has not started it
            await tg.idle()
            tg.send(present[0], group, "/replace @dan")
            await tg.settled(group)
            assert "Whose seat should" in tg.last_message(group).text  # nobody is away yet
            await g.advance(5 * MINUTE)  # the time is up: gone is away
            tg.send(present[0], group, "/replace @dan")
            await tg.settled(group)
            assert "Dan must open me privately first" in tg.last_message(group).text
            tg.press_start(dan)
            await tg.idle()
            tg.send(present[0], group, "/replace @dan")
            await tg.settled(group)
            vote = tg.last_message(group)
            assert f"proposes that Dan takes the seat of {gone.first_name}" in vote.text
            answer = await tg.press(gone, vote, text="✅ Agree")
            assert answer.show_alert  # the absent player is not asked
            await tg.press(present[1], vote, text="✅ Agree")
            await tg.settled()
            assert table.user_of(seat) == dan.id
            assert texts_with(tg, group, "🔄 Dan takes the seat") != []
            assert texts_with(tg, gone, "🔄 Dan took your seat") != []
            assert table.row.timer_deadline == START.timestamp() + 10 * MINUTE  # fresh time
            await act(tg, dan, "bid:pass")
            with sqlite3.connect(p.db) as conn:
                (user_id, payload), = conn.execute(
                    "SELECT user_id, payload FROM log_entries WHERE kind = 'action'").fetchall()
            assert user_id == dan.id and json.loads(payload)["seat"] == seat
            assert table.names == ["Ann", "Bob", "Cid"]  # the record keeps the seat's name


async def test_time_settings_in_the_lobby_and_by_vote(tg: FakeTelegram, tmp_path: Path) -> None:
    with players(tg, tmp_path) as p:
        users, group = p.users, p.group
        async with game(p, {"⏱ Turn time": 4, "🔔 Reminders": 1,
                            "⌛ On timeout": 3}) as g:  # 24 h, off, wait
            table = g.table
            assert table.row.settings == {"turn_time": 86400, "reminders": False,
                                          "timeout": "wait", "ping": 60}
            assert table.row.timer_deadline is None  # waiting without reminders does nothing
            tg.send(users[1], group, "/timer")
            await tg.settled(group)
            screen = tg.last_message(group)
            assert "⏱ Turn time: 24 h · 🔔 Reminders: off · ⌛ On timeout: wait" in screen.text
            assert "• 24 h" in screen.button_texts
            await tg.press(users[1], screen, text="robot plays")
            await tg.settled(group)
            vote = tg.last_message(group)
            assert "Bob proposes: ⌛ On timeout: robot plays." in vote.text
            for user in (users[0], users[2]):
                await tg.press(user, vote, text="✅ Agree")
                await tg.idle()
            assert table.row.settings["timeout"] == "robot"
            assert "Time settings now: ⏱ Turn time: 24 h · 🔔 Reminders: off · ⌛ On timeout: "\
                   "robot plays · 📨 New message after: 1 min idle" in tg.texts(group)
            assert table.row.timer_deadline == START.timestamp() + 24 * HOUR
            answer = await tg.press(users[1], screen, text="robot plays")
            assert answer.text == "That is the setting already."
