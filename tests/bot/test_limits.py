"""Telegram's limits and refusals: the group budget, 429, a blocked bot, a migrated group."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.screens.look import context, plugin_of
from bot.screens.table import panel
from bot.telegram.sending.limits import GROUP_LIMIT
from tests.bot.harness import open_table, press_first, running_bot
from tests.bot.tabletop import only_table
from tests.fakebot import FakeTelegram, FloodLimits


async def test_group_never_over_budget_and_latest_state_wins(tmp_path: Path) -> None:
    # Telegram's own limits (20 a minute in a group) and the bot's default budget.
    async with FakeTelegram(flood=FloodLimits()) as tg:
        users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
        group = tg.add_group("Cards", users)
        async with running_bot(tg, tmp_path / "bot.db", GROUP_MESSAGES_PER_MINUTE="18") as hub:
            for user in users:
                tg.press_start(user)
            tg.send(users[0], group, "/pref")
            await tg.settled(group)
            for user in users[1:]:
                await tg.press(user, tg.last_message(group), text="✋ Join")
            await tg.press(users[0], tg.last_message(group), text="▶ Start")
            await tg.idle()
            moves = 0
            while moves < 30:  # as fast as the players can press
                assert await press_first(tg, users, settle=lambda: tg.idle(quiet=0.01))
                moves += 1
            table = next(iter(hub.services.tables.values()))
            expected = plugin_of(table).table(table.match.state.view(None),
                                      context(table, hub.presenter.translator(group.id))).text

            def shown() -> str:
                return next(m.text for m in tg.messages(group)
                            if m.message_id == hub.presenter.book.slot(table, None).message_id)

            for _ in range(80):  # the last edit waits for the budget, then shows the latest
                if shown() == _plain(expected):
                    break
                await asyncio.sleep(1)
            assert shown() == _plain(expected)
            assert tg.peak_rate(group, period=60) <= 18
            assert not [c for c in tg.calls if c.status == 429]


def _plain(html: str) -> str:
    """The text a message shows for this HTML (its tags gone)."""
    return re.sub(r"</?(b|a)\b[^>]*>", "", html)


async def test_retry_after_is_waited_out_and_nothing_is_lost(tg: FakeTelegram,
                                                            tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        for user in users:
            tg.force_retry_after(2, times=1, chat=user, method="editMessageText")
        tg.force_retry_after(2, times=1, chat=group, method="editMessageText")
        assert await press_first(tg, users)
        assert await press_first(tg, users)
        await tg.settled()  # the 429s waited out
        table = next(iter(hub.services.tables.values()))
        acting = table.acting_users()
        assert acting
        for seat, user in enumerate(users):
            slot = hub.presenter.book.slot(table, seat)
            assert not slot.queued  # nothing left behind a 429
            if user.id in acting:  # (a waiting panel may wait for the table's beat)
                shown = panel(table, seat, hub.presenter.translator(user.id),
                              hub.presenter.look(table))
                assert shown is not None and tg.last_message(user).text == _plain(shown.text)
        assert [c for c in tg.calls if c.status == 429]


async def test_a_player_who_blocks_the_bot_is_told_in_the_group(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        tg.block(users[2])
        await tg.idle()
        table = only_table(hub)
        assert await press_first(tg, users[:2])
        while users[2].id not in table.acting_users():  # until his turn comes
            assert await press_first(tg, users[:2])
        await tg.settled()  # his panel, his turn in it, meets the block
        warning = tg.last_message(group)
        assert "Cid" in warning.text and "start=t" in warning.text
        tg.press_start(users[2])  # he opens the bot again: his panel comes back
        await tg.idle()
        assert "Your hand" in tg.last_message(users[2]).text


async def test_group_migrated_to_supergroup_keeps_the_table(tg: FakeTelegram,
                                                            tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        supergroup = tg.migrate(group)
        await tg.idle()
        assert await press_first(tg, users)
        table = next(iter(hub.services.tables.values()))
        assert table.chat_id == supergroup.id
        assert "Preferans" in tg.last_message(supergroup).text
        tg.send(users[0], supergroup, "/score")
        await tg.idle()
        assert "balance" in tg.last_message(supergroup).text
        assert await hub.services.store.tables.open_table(supergroup.id) is not None


async def test_a_restart_counts_the_private_calls_of_the_process_before(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """Telegram counts a private chat's last calls across a restart, open tables or not: the
    new process waits for them (the fixture fails on any 429)."""
    ann = tg.add_user("Ann")
    db = tmp_path / "bot.db"
    async with running_bot(tg, db):
        for _ in range(3):
            tg.press_start(ann)
        await tg.idle()
    assert len(tg.calls_for("sendMessage", ann)) >= 3
    async with running_bot(tg, db):
        tg.press_start(ann)
        await tg.idle()
    assert len(tg.calls_for("sendMessage", ann)) >= 4


async def test_a_restart_counts_the_group_calls_of_the_minute_before(location: str) -> None:
    """Telegram counts a group's calls of the last minute across a restart: the new process
    knows them from its database and waits for them, so that none is refused, and answers."""
    async with FakeTelegram(flood=FloodLimits()) as tg:
        ann = tg.add_user("Ann")
        group = tg.add_group("Cards", [ann])
        budget = {"GROUP_MESSAGES_PER_MINUTE": str(GROUP_LIMIT)}
        async with running_bot(tg, location, **budget):
            while len(tg.calls_for("sendMessage", group)) < GROUP_LIMIT:  # the bot's minute
                tg.send(ann, group, "/help")
                await tg.idle()
        async with running_bot(tg, location, **budget) as hub:
            for _ in range(3):
                tg.send(ann, group, "/help")
            tg.press_start(ann)
            await tg.settled()
            async with hub.services.store.db.reading() as conn:  # a private chat's are not kept
                kept = await conn.fetch("SELECT DISTINCT chat_id FROM chat_calls")
        assert not [c for c in tg.calls if c.status == 429]
        answered = [c for c in tg.calls_for("sendMessage", group) if c.status == 200]
        assert len(answered) == GROUP_LIMIT + 3
        assert tg.calls_for("sendMessage", ann)
        assert [tuple(row) for row in kept] == [(group.id,)]
