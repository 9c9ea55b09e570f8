"""Telegram's budgets (issue 16): under the fake's real limits (private chats about one send or
edit a second with a burst of 3, 20 a minute per group, 30 a second overall) players pressing
as fast as the fake allows get no 429, every message ends exact, and each deal's result goes to
the group before the table message's edit that shows the deal's end (the seconds it takes are
the bench's); a forum runs one table per topic."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.screens.table import panel, table_message
from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from engine.seep import robot as seep_robot
from tests.bot.harness import act, open_table, running_bot
from tests.bot.tabletop import make, only_table, seat_users
from tests.bot.test_joker_game import choose as joker_choose
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram, User
from tests.fakebot.flood import EDITS, SENDS
from tests.fakebot.formatting import format_text
from tests.fakebot.model import Chat


def shown(html: str) -> str:
    """The text Telegram shows for a message's HTML."""
    return format_text(html, "HTML", None).text


def assert_exact(tg: FakeTelegram, hub: Hub, table: Table, group: Chat,
                 users: list[User]) -> None:
    """The table message and the panel of each player to act show the table as it is now;
    a waiting player's panel may keep an older moment (it changes at his turn:
    bot/telegram/rhythm.py) but offers no button but the deal's analysis."""
    presenter = hub.presenter
    look = presenter.look(table)
    message = next(m for m in tg.messages(group)
                   if m.message_id == presenter.book.slot(table, None).message_id)
    expected = table_message(table, presenter.translator(group.id), look)
    assert message.text == shown(expected.text)
    for seat, user in enumerate(users):
        drawn = panel(table, seat, presenter.translator(user.id), look)
        last = tg.last_message(user)
        if user.id in table.acting_users():
            assert last.text == shown(drawn.text), user
        else:
            assert all(b["text"] == "🔍 Analysis" for b in last.buttons), (user, last.buttons)


def assert_result_first(tg: FakeTelegram, group: Chat, number: int, since: int) -> None:
    """Deal ``number``'s result reached the group right after its last card (pressed when
    ``tg.calls`` had ``since`` calls), right behind the table message's edit that shows the
    deal's end (issue 33.6: never a result above a table still waiting for the last card),
    if the next deal did not begin by itself first: those two are the group's first calls
    after it, or behind an edit already on its way. How many seconds that takes is
    measured by ``python -m bench --only bot``."""
    calls = [c for c in tg.calls[since:] if c.chat_id == group.id and c.method in SENDS | EDITS]
    result = next(i for i, c in enumerate(calls) if c.method == "sendMessage"
                  and str(c.params.get("text", "")).startswith(f"<b>Deal {number}</b>"))
    assert calls[result].status == 200
    over = [i for i, c in enumerate(calls) if f"Deal {number} is over" in str(
        c.params.get("text", ""))]
    first = result - 1 if over else result  # the deal's end, or else the result
    assert not over or over[0] == first, (result, over)
    assert first == 0 or (first == 1 and calls[0].method in EDITS), calls[:result]


Choose = Callable[[Any], str]


def preferans_deal(table: Table, number: int) -> Choose:
    """A whisted game, raspasy, a misère: by the deal's opener's intent."""
    opener = table.match.state.to_act[0]
    intent = ("whist_and_pass", "raspasy", "miser")[number]
    return lambda state: choose(state, intent, opener)


def seep_deal(table: Table, number: int) -> Choose:
    rng = random.Random(number)
    return lambda state: seep_robot.choose(state.view(state.to_act[0]), table.match.rules, rng)


def joker_deal(table: Table, number: int) -> Choose:
    return joker_choose


# game, players, deals played, each deal's choices, how a choice is pressed
GAMES = [("preferans", 3, 3, preferans_deal, act), ("seep", 4, 1, seep_deal, make),
         ("joker", 4, 3, joker_deal, make)]


@pytest.mark.parametrize(("game", "players", "deals", "deal", "press"), GAMES,
                         ids=[g[0] for g in GAMES])
async def test_fast_presses_within_the_real_limits(
        tg: FakeTelegram, tmp_path: Path, game: str, players: int, deals: int,
        deal: Callable[[Table, int], Choose], press: Callable[[FakeTelegram, User, str], Any],
        ) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan")[:players]]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        lobby = await open_table(tg, group, users, game=game)
        await tg.press(users[0], lobby, text="▶ Start")
        await tg.idle()
        table = only_table(hub)
        seats = seat_users(hub, users)
        for number in range(deals):
            scored = len(table.match.outputs)
            chooser = deal(table, number)
            while len(table.match.outputs) == scored or not _played(table.match.outputs[-1]):
                scored, since = len(table.match.outputs), len(tg.calls)
                state = table.match.state
                await press(tg, seats[state.controller(state.to_act[0])], chooser(state))
            await tg.settled()
            assert_result_first(tg, group, len(table.match.outputs), since)
            assert_exact(tg, hub, table, group, [seats[seat] for seat in sorted(seats)])
        assert not [c for c in tg.calls if c.status == 429]
        assert tg.peak_rate(group, period=60) <= 18
        for user in users:
            assert tg.peak_rate(user, period=3.0) <= 3


def _played(output: dict[str, Any]) -> bool:
    """A deal with a result (not a Seep redeal before any bid)."""
    return output.get("bid", True) is not None


async def test_two_tables_in_two_topics_of_one_forum(tg: FakeTelegram, tmp_path: Path) -> None:
    players = [[tg.add_user(f"{n}{t}") for n in ("Ann", "Bob", "Cid")] for t in (1, 2)]
    forum = tg.add_group("Club", [u for side in players for u in side], forum=True)
    topics = [tg.add_topic(forum, "Table one"), tg.add_topic(forum, "Table two")]
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        for users, topic in zip(players, topics, strict=True):
            for user in users:
                tg.press_start(user)
            await tg.idle()
            tg.send(users[0], forum, "/pref", topic=topic)
            await tg.settled(forum)
            lobby = tg.topic_messages(forum, topic)[-1]
            for user in users[1:]:
                answer = await tg.press(user, lobby, text="✋ Join")
                assert not answer.show_alert, answer.text
                await tg.settled(forum)
            await tg.press(users[0], lobby, text="▶ Start")
            await tg.settled(forum)
        assert len(hub.services.tables.values()) == 2
        for users in players:
            for _ in range(3):
                acting = next(u for u in users if tg.last_message(u).buttons)
                data = next(b["callback_data"] for b in tg.last_message(acting).buttons
                            if b.get("callback_data", "").startswith("a:"))
                await tg.press(acting, tg.last_message(acting), data=data)
                await tg.idle()
        asked = tg.send(players[1][0], forum, "/score", topic=topics[1])
        await tg.settled(forum)
        score = next(m for m in tg.topic_messages(forum, topics[1])
                     if m.sender is tg.bot and m.message_id > asked.message_id)
        assert "Ann2" in score.text and "Ann1" not in score.text
        bot_messages = [m for m in tg.messages(forum) if m.sender is tg.bot]
        assert bot_messages and all(m.thread_id in topics for m in bot_messages)
        for table in hub.services.tables.values():
            topic = table.thread_id
            names = {u.first_name for u in players[topics.index(topic)]}
            for message in tg.topic_messages(forum, topic):
                if message.sender is tg.bot:
                    others = {u.first_name for side in players for u in side} - names
                    assert not any(name in message.text for name in others), message.text
