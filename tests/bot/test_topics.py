"""Each forum topic is a chat of its own (issue 33.2): every command typed in a topic is
about that topic's table; a topic's message, which Telegram makes a reply to the topic's
first message, is not a reply to its author; chat-wide answers stay in the topic they were
asked in; /score in General lists the topics that play; a player at two tables of one
forum reads on each panel which topic it belongs to."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import press_first, running_bot
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def _table(tg: FakeTelegram, forum: Chat, users: list[User], topic: int) -> None:
    """A Preferans game of ``users`` in the forum's ``topic``, begun."""
    tg.send(users[0], forum, "/pref", topic=topic)
    await tg.settled(forum)
    for user in [*users[1:], users[0]]:
        lobby = next(m for m in reversed(tg.topic_messages(forum, topic)) if m.sender is tg.bot)
        answer = await tg.press(user, lobby, text="✋ Join" if user is not users[0] else "▶ Start")
        assert not answer.show_alert, answer.text
        await tg.idle()
    await tg.settled(forum)


async def _ask(tg: FakeTelegram, user: User, forum: Chat, text: str, topic: int) -> Message:
    """The bot's answer to a command in a topic (or General, 0): it must come there."""
    before = len(tg.messages(forum))
    tg.send(user, forum, text, topic=topic)
    await tg.settled(forum)
    answers = [m for m in tg.messages(forum)[before:] if m.sender is tg.bot]
    assert answers, f"no answer to {text!r}"
    assert {m.thread_id for m in answers} == {topic}, (text, [m.thread_id for m in answers])
    return answers[-1]


async def test_two_tables_in_two_topics_with_one_player_at_both(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    ann, bob, cid, dan, eve = (tg.add_user(n) for n in ("Ann", "Bob", "Cid", "Dan", "Eve"))
    forum = tg.add_group("Club", [ann, bob, cid, dan, eve], forum=True)  # Ann made it
    friday, evening = tg.add_topic(forum, "Friday"), tg.add_topic(forum, "Evening")
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        for user in (ann, bob, cid, dan, eve):
            tg.press_start(user)
        await tg.idle()
        await _table(tg, forum, [ann, bob, cid], friday)
        [table] = hub.services.tables.values()
        while not table.match.outputs:  # deal 1 of Friday's table, by buttons
            assert await press_first(tg, [ann, bob, cid])
        await _table(tg, forum, [ann, dan, eve], evening)
        await tg.settled()

        # Ann's two panels say which topic each belongs to.
        panels = {m.text.splitlines()[0] for m in tg.messages(ann)
                  if m.sender is tg.bot and m.text.startswith("📍")}
        assert panels == {"📍 Topic «Friday»", "📍 Topic «Evening»"}

        # /history and /score are each topic's own.
        assert "Last deals" in (await _ask(tg, bob, forum, "/history", friday)).text
        assert (await _ask(tg, dan, forum, "/history", evening)).text == (
            "No deals have been played here yet.")
        assert "No game is being played" not in (await _ask(tg, bob, forum, "/score",
                                                            friday)).text
        general = await _ask(tg, bob, forum, "/score", 0)
        assert general.text.splitlines() == [
            "No game is being played in this topic. Being played in this group:",
            "• Preferans: Friday", "• Preferans: Evening"]
        links = [e["url"] for e in general.current.content.entities if e["type"] == "text_link"]
        assert [link.split("/")[-2] for link in links] == [str(friday), str(evening)]
        assert "No deals" not in (await _ask(tg, ann, forum, "/rules", evening)).text

        # A topic's message is a reply to the topic's first message (Ann's): not to Ann.
        stats = await _ask(tg, dan, forum, "/stats", evening)
        assert stats.text == "Dan has not played with me yet."  # not Ann, who made the topic
        replace = await _ask(tg, dan, forum, "/replace", evening)
        assert replace.text == "Name the new player: /replace @new, or /replace @old @new."
        said = tg.send(eve, forum, "I can sit in", topic=evening)
        stats = tg.send(dan, forum, "/stats", reply_to=said)
        await tg.settled(forum)
        assert tg.last_message(forum).text.startswith("Eve has not played")  # a real reply
        assert stats.thread_id == evening

        # Chat-wide answers stay in the topic where they were asked.
        picker = await _ask(tg, eve, forum, "/language", evening)
        assert picker.buttons
        assert (await _ask(tg, eve, forum, "/top", friday)).text
        assert (await _ask(tg, eve, forum, "/help", evening)).text
