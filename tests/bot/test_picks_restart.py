"""A player's picks before he confirms (the Preferans discard, card by card) outlive the
process: one card picked, the bot started again on the same database shows it picked, and
the second pick offers the discard of both (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import pytest

from bot.service import loading
from engine.records import replay
from tests.bot.harness import act, open_table, running_bot
from tests.bot.test_preferans_game import choose
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Message

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def card_button(panel: Message, card: str) -> dict[str, str]:
    """The button of the panel that picks ``card``."""
    return next(b for b in panel.buttons if b.get("callback_data", "").startswith("u:")
                and b["callback_data"].endswith(":" + card))


async def pick(tg: FakeTelegram, user: User, card: str) -> None:
    answer = await tg.press(user, tg.last_message(user),
                            data=card_button(tg.last_message(user), card)["callback_data"])
    assert not answer.show_alert, answer.text
    await tg.idle()


async def test_a_discard_half_picked_survives_a_restart(tg: FakeTelegram,
                                                      location: str) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, location) as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        table_id = table.id
        opener = table.match.state.to_act[0]
        while table.match.state.phase != "discard":
            state = table.match.state
            await act(tg, users[state.controller(state.to_act[0])],
                      choose(state, "whist_and_pass", opener))
        seat = table.match.state.to_act[0]
        declarer = users[table.match.state.controller(seat)]
        first, second = table.match.state.view(seat)["hand"][:2]
        await pick(tg, declarer, first)
        assert card_button(tg.last_message(declarer), first)["text"].startswith("✅")
    async with running_bot(tg, location) as hub:
        table = await loading.table(hub.services, table_id)
        assert card_button(tg.last_message(declarer), first)["text"].startswith("✅")
        await pick(tg, declarer, second)
        panel = tg.last_message(declarer)
        assert card_button(panel, first)["text"].startswith("✅")
        assert card_button(panel, second)["text"].startswith("✅")
        confirm = [b for b in panel.buttons if b.get("callback_data", "").startswith("a:")]
        assert len(confirm) == 1, panel.buttons
        answer = await tg.press(declarer, panel, data=confirm[0]["callback_data"])
        assert not answer.show_alert, answer.text
        await tg.idle()
        record = await hub.services.store.log.record(table_id)
        row = await hub.services.store.tables.get_table(table_id)
        assert [s.picks for s in row.seats] == [frozenset()] * 3  # the discard ended them
    match = replay(record)
    assert match.state is not None
    assert sorted(map(str, match.state.discarded)) == sorted([first, second])
    async with running_bot(tg, location) as hub:  # the discard made left no picks behind
        table = await loading.table(hub.services, table_id)
        assert table.selection == {}
