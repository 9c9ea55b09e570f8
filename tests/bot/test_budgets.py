"""Telegram's budgets (issue 16): under the fake's real limits (private chats about one send or
edit a second with a burst of 3, 20 a minute per group, 30 a second overall) players pressing
as fast as the fake allows get no 429, every message ends exact, and each deal's result goes to
the group before the table message's edit that shows the deal's end (the seconds it takes are
the bench's); a forum runs one table per topic."""

from __future__ import annotations

from pathlib import Path

from bot.screens.table import panel, table_message
from bot.telegram.context import BotData as Hub
from tests.bot.harness import act, open_table, running_bot
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram, FloodLimits, User
from tests.fakebot.flood import EDITS, SENDS
from tests.fakebot.formatting import format_text
from tests.fakebot.model import Chat


def shown(html: str) -> str:
    """The text Telegram shows for a message's HTML."""
    return format_text(html, "HTML", None).text


def assert_exact(tg: FakeTelegram, hub: Hub, group: Chat, users: list[User]) -> None:
    """Every panel and the table message show the table as it is now."""
    table = next(iter(hub.services.tables.values()))
    presenter = hub.presenter
    look = presenter.look(table)
    message = next(m for m in tg.messages(group)
                   if m.message_id == presenter.slot(table, None).message_id)
    expected = table_message(table, presenter.translator(group.id), look)
    assert message.text == shown(expected.text)
    for seat, user in enumerate(users):
        drawn = panel(table, seat, presenter.translator(user.id), look)
        assert tg.last_message(user).text == shown(drawn.text), user


def assert_result_first(tg: FakeTelegram, group: Chat, number: int) -> None:
    """Deal ``number``'s result reached the group right after its last card: before the
    group's next call of any kind (the table message's edit showing the deal's end waits
    behind it). How many seconds that takes is measured by ``python -m bench --only bot``."""
    calls = [c for c in tg.calls if c.chat_id == group.id and c.method in SENDS | EDITS]
    result = next(i for i, c in enumerate(calls) if c.method == "sendMessage"
                  and str(c.params.get("text", "")).startswith(f"<b>Deal {number}</b>"))
    over = next(i for i, c in enumerate(calls) if f"Deal {number} is over" in str(
        c.params.get("text", "")))
    assert calls[result].status == 200 and result < over, (result, over)


async def test_fast_presses_within_the_real_limits(tmp_path: Path) -> None:
    async with FakeTelegram(flood=FloodLimits()) as tg:
        users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
        group = tg.add_group("Cards", users)
        async with running_bot(tg, tmp_path / "bot.db", GROUP_MESSAGES_PER_MINUTE="18") as hub:
            await open_table(tg, group, users)
            await tg.press(users[0], tg.last_message(group), text="▶ Start")
            await tg.idle()
            table = next(iter(hub.services.tables.values()))
            for intent in ("whist_and_pass", "raspasy", "miser"):
                deals = len(table.match.outputs)
                opener = table.match.state.to_act[0]
                while len(table.match.outputs) == deals:
                    state = table.match.state
                    user = users[state.controller(state.to_act[0])]
                    await act(tg, user, choose(state, intent, opener))
                await tg.settled()
                assert_result_first(tg, group, len(table.match.outputs))
                assert_exact(tg, hub, group, users)
            assert not [c for c in tg.calls if c.status == 429]
            assert tg.peak_rate(group, period=60) <= 18
            for user in users:
                assert tg.peak_rate(user, period=3.0) <= 3


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
            await tg.idle()
            lobby = tg.topic_messages(forum, topic)[-1]
            for user in users[1:]:
                answer = await tg.press(user, lobby, text="✋ Join")
                assert not answer.show_alert, answer.text
                await tg.idle()
            await tg.press(users[0], lobby, text="▶ Start")
            await tg.idle()
        assert len(hub.services.tables.values()) == 2
        for users in players:
            for _ in range(3):
                acting = next(u for u in users if tg.last_message(u).buttons)
                data = next(b["callback_data"] for b in tg.last_message(acting).buttons
                            if b.get("callback_data", "").startswith("a:"))
                await tg.press(acting, tg.last_message(acting), data=data)
                await tg.idle()
        tg.send(players[1][0], forum, "/score", topic=topics[1])
        await tg.idle()
        score = tg.topic_messages(forum, topics[1])[-1]
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
