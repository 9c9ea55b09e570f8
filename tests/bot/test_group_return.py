"""The group as the bot finds it again (issue 17's last items): a private panel leads back to
the group's table message; after a restart the bot neither pins the table message again nor
forgets to unpin it, and a vote asked before the restart says how it ended on its own message.
The restarts are real: the bot stops and a new one starts on the same database, with
nothing of the first one's memory."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.telegram.context import BotData as Hub
from tests.bot.harness import acting, open_table, press_first, running_bot
from tests.bot.tabletop import command
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.model import Chat

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def _back(panel: Message) -> list[str]:
    """The links of a panel's text that lead into a group (not the bot's start links)."""
    return [e["url"] for e in panel.current.content.entities
            if e["type"] == "text_link" and "?start" not in e["url"]]


def _acts(tg: FakeTelegram, user: User) -> bool:
    return any(b.get("callback_data", "").startswith("a:") for b in tg.last_message(user).buttons)


def _waiting(tg: FakeTelegram, users: list[User]) -> User:
    """A player whose panel has nothing to press now."""
    return next(u for u in users if not _acts(tg, u))


async def _russian_table(tg: FakeTelegram, group: Chat, users: list[User],
                         topic: int = 0) -> None:
    """A Preferans game of Russian players in ``group`` (its ``topic``), begun."""
    for user in users:
        tg.press_start(user)
    tg.send(users[0], group, "/pref", topic=topic)
    await tg.settled(group)
    for user in [*users[1:], users[0]]:
        lobby = next(m for m in reversed(tg.messages(group))
                     if m.sender is tg.bot and m.thread_id == topic)
        await tg.press(user, lobby, text="✋ Сесть" if user is not users[0] else "▶ Начать")
        await tg.idle()


async def _begin(tg: FakeTelegram, hub: Hub, group: Chat, users: list[User]) -> None:
    """A Preferans game of ``users`` in ``group``, begun and shown."""
    await open_table(tg, group, users)
    await tg.press(users[0], tg.last_message(group), text="▶ Start")
    await tg.settled()


def _admin_group(tg: FakeTelegram) -> tuple[list[User], Chat]:
    """Three players in a supergroup where the bot may pin."""
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    return users, tg.add_group("Cards", users, supergroup=True, bot_status="administrator")


async def test_a_panel_leads_back_to_the_table_message_of_a_supergroup(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users, supergroup=True)
    db = tmp_path / "bot.db"
    async with running_bot(tg, db) as hub:
        await _begin(tg, hub, group, users)
        (table,) = hub.services.tables.values()
        table_message = hub.presenter.book.slot(table, None).message_id
        link = f"https://t.me/c/{-group.id - 10**12}/{table_message}"
        for user in users:  # the game's start: every panel, the first bidder's too
            panel = tg.last_message(user)
            assert _back(panel) == [link] and "↩ Back to the table" in panel.text
            assert tg.open_link(user, link).message_id == table_message
        assert await press_first(tg, users)  # the first bid: now the others wait
        await tg.settled()
        to_act = acting(tg, users)
        assert len(to_act) == 1 and _back(tg.last_message(to_act[0])) == []
        assert _back(tg.last_message(_waiting(tg, users))) == [link]
    async with running_bot(tg, db) as hub:  # the link survives a restart
        assert await press_first(tg, users)
        await tg.settled()
        assert _back(tg.last_message(_waiting(tg, users))) == [link]


async def test_a_forum_topic_and_a_public_group_are_linked_in_russian_too(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n, language_code="ru") for n in ("Аня", "Боря", "Вера")]
    public = tg.add_group("Карты", users, username="karty_club")
    forum = tg.add_group("Клуб", users, forum=True)
    thread = tg.add_topic(forum, "Преферанс")
    db = tmp_path / "bot.db"
    async with running_bot(tg, db) as hub:
        await _russian_table(tg, public, users)
        await _russian_table(tg, forum, users, thread)
        await tg.settled()
        by_chat = {t.chat_id: t for t in hub.services.tables.values()}
        public_message = hub.presenter.book.slot(by_chat[public.id], None).message_id
        topic_message = hub.presenter.book.slot(by_chat[forum.id], None).message_id
        links = {f"https://t.me/karty_club/{public_message}",
                 f"https://t.me/c/{-forum.id - 10**12}/{thread}/{topic_message}"}
        panels = [m for u in users for m in tg.messages(u) if m.sender is tg.bot
                  and not m.deleted and _back(m)]
        assert {url for m in panels for url in _back(m)} == links
        assert all("↩ Назад к столу" in m.text for m in panels)
        opened = {tg.open_link(users[1], url).message_id for url in links}
        assert opened == {public_message, topic_message}


async def test_a_basic_group_cannot_be_linked_so_the_panel_names_it(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Friday cards", users)
    db = tmp_path / "bot.db"
    async with running_bot(tg, db) as hub:
        await _begin(tg, hub, group, users)
        panel = tg.last_message(users[1])
        assert _back(panel) == [] and "↩ The table is in the group «Friday cards»." in panel.text
    async with running_bot(tg, db) as hub:  # the name is stored: known after a restart
        assert await press_first(tg, users)
        await tg.settled()
        assert "↩ The table is in the group «Friday cards»." in tg.last_message(
            _waiting(tg, users)).text


async def test_after_a_restart_the_bot_neither_pins_again_nor_forgets_to_unpin(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users, group = _admin_group(tg)
    db = tmp_path / "bot.db"
    async with running_bot(tg, db) as hub:
        await _begin(tg, hub, group, users)
        (table,) = hub.services.tables.values()
        message_id = hub.presenter.book.slot(table, None).message_id
        assert group.pinned == [message_id]
        vote = await command(tg, users[0], group, "/abort")  # asked before the restart
        assert vote.buttons
    pins = len(tg.calls_for("pinChatMessage"))
    async with running_bot(tg, db) as hub:
        for _ in range(2):  # the table message is edited: it is pinned already
            assert await press_first(tg, users)
        await tg.settled()
        assert len(tg.calls_for("pinChatMessage")) == pins and group.pinned == [message_id]
        for user in users[1:]:
            await tg.press(user, vote, text="✅ Agree")
            await tg.idle()
        await tg.settled()
        assert group.pinned == []  # the game is over: unpinned by the bot that did not pin
        assert vote.buttons == [] and vote.text.endswith("✅ Everyone agreed.")
        assert "wants to abandon the game" in vote.text


async def test_a_vote_asked_before_a_restart_says_how_it_ended_in_russian(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n, language_code="ru") for n in ("Аня", "Боря", "Вера")]
    group = tg.add_group("Карты", users)
    db = tmp_path / "bot.db"
    async with running_bot(tg, db):
        await _russian_table(tg, group, users)
        await tg.settled()
        vote = await command(tg, users[0], group, "/leave")
        asked = vote.text.splitlines()[0]
    async with running_bot(tg, db):
        posted = len(tg.messages(group))
        await tg.press(users[2], vote, text="❌ Отказаться")
        await tg.settled()
        assert vote.buttons == []
        assert vote.text == asked + "\n❌ Вера против: игра продолжается."
        assert len(tg.messages(group)) == posted  # said on the vote's own message only


async def test_an_unpin_cut_off_by_a_stop_is_made_at_the_next_start(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users, group = _admin_group(tg)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await _begin(tg, hub, group, users)
        assert len(group.pinned) == 1
        tg.force_retry_after(3600, method="unpinChatMessage")  # the unpin waits...
        vote = await command(tg, users[0], group, "/abort")
        await tg.press(users[1], vote, text="✅ Agree")
        await tg.idle()
        tg.press_nowait(users[2], vote, text="✅ Agree")
        for _ in range(200):  # the game ends; its unpin waits behind the 429
            if any(t.startswith("The game was abandoned") for t in tg.texts(group)):
                break
            await asyncio.sleep(0.05)
        assert any(t.startswith("The game was abandoned") for t in tg.texts(group))
    assert len(group.pinned) == 1  # ...and the bot stopped before it was made
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await tg.settled()
        assert group.pinned == []
