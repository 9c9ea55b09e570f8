"""The harness itself: guard rails against impossible actions, inspection helpers, idle()."""

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from tests.fakebot import FakeTelegram


async def test_impossible_user_actions_are_refused_clearly(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Table", [alice])
    with pytest.raises(ValueError, match="is not in"):
        tg.send(bob, group, "/join")
    with pytest.raises(ValueError, match="has not started the bot"):
        tg.send(bob, bob, "hello")
    tg.block(bob)
    with pytest.raises(ValueError, match="blocked the bot"):
        tg.send(bob, bob, "/start")
    with pytest.raises(ValueError, match="not a start link"):
        tg.follow(bob, "https://t.me/some_other_bot?start=x")
    link = InlineKeyboardButton("Open", url=f"https://t.me/{bot.username}?start=t1")
    await bot.send_message(group.id, "lobby", reply_markup=InlineKeyboardMarkup([[link]]))
    with pytest.raises(ValueError, match="not a callback button"):
        tg.press_nowait(alice, tg.last_message(group), text="Open")
    with pytest.raises(ValueError, match="cannot see"):
        tg.press_nowait(bob, tg.last_message(group), data="x", forge=True)
    with pytest.raises(ValueError, match="is not a basic group"):
        tg.migrate(tg.migrate(group))
    tg.follow(bob, link.url or "")  # opening the bot again unblocks it
    assert tg.private_chat(bob).bot_status == "member"


async def test_members_join_and_leave_groups(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Table", [alice])
    tg.join(group, bob)
    tg.send(bob, group, "/join")
    tg.leave(group, bob)
    with pytest.raises(ValueError, match="is not in"):
        tg.send(bob, group, "/join")
    updates = [u.message for u in await bot.get_updates()]
    assert [m.new_chat_members[0].id for m in updates[:1]] == [bob.id]
    assert (updates[1].text, updates[2].left_chat_member.id) == ("/join", bob.id)
    assert (await bot.get_chat_member(group.id, bob.id)).status == "left"


async def test_privacy_helpers_see_what_each_user_saw(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    tg.press_start(alice)
    group = tg.add_group("Table", [alice, bob])
    hand = InlineKeyboardMarkup([[InlineKeyboardButton("A♠", callback_data="t1:v1:play:AS")]])
    await bot.send_message(alice.id, "Your hand", reply_markup=hand)
    await bot.send_message(group.id, "Alice to play")
    assert "A♠" in tg.seen_by(alice)
    assert "A♠" not in tg.seen_by(bob) and "Alice to play" in tg.seen_by(bob)
    assert all("A♠" not in str(call.params) for call in tg.calls_for(chat=group))


async def test_peak_rate_counts_sends_and_edits_in_any_window(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Table", [alice])
    table = await bot.send_message(group.id, "v0")
    for n in range(1, 4):
        await bot.edit_message_text(f"v{n}", group.id, table.message_id)
    await bot.get_chat(group.id)  # not a message
    tg.advance(61)
    await bot.edit_message_text("v4", group.id, table.message_id)
    assert tg.peak_rate(group) == 4
    assert tg.peak_rate(group, period=120.0) == 5
    assert tg.peak_rate(alice) == 0


async def test_idle_explains_what_it_waits_for(tg: FakeTelegram) -> None:
    tg.press_start(tg.add_user("Alice"))
    with pytest.raises(AssertionError, match=r"1 updates not taken by the bot: \['message'\]"):
        await tg.idle(timeout=0.2)


async def test_close_and_log_out_are_acknowledged(bot: Bot) -> None:
    assert await bot.log_out()
    assert await bot.close()
