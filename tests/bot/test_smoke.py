"""A first look: lobby, deep-link join, start, one deal through buttons."""

from pathlib import Path

import pytest

from tests.bot.harness import Table, running_bot
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_lobby_join_start_and_a_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob, cid = tg.add_user("Ann"), tg.add_user("Bob"), tg.add_user("Cid")
    group = tg.add_group("Friday cards", [ann, bob, cid])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        tg.press_start(ann)
        await tg.idle()
        tg.send(ann, group, "/newgame")
        await tg.settled(group)
        assert tg.last_message(group).button_texts == ["Preferans", "Seep", "Joker"]
        await tg.press(ann, tg.last_message(group), text="Preferans")
        await tg.settled(group)
        lobby = tg.last_message(group)
        assert "Preferans" in lobby.text and "Ann" in lobby.text
        answer = await tg.press(bob, lobby, text="✋ Join")
        assert answer.url and "start=j" in answer.url
        tg.follow(bob, answer.url)
        await tg.settled(group)
        assert "Bob" in tg.last_message(group).text
        tg.press_start(cid)
        await tg.settled(group)
        await tg.press(cid, tg.last_message(group), text="✋ Join")
        await tg.settled(group)
        await tg.press(ann, tg.last_message(group), text="▶ Start")
        await tg.idle()
        table = Table(tg, group, [ann, bob, cid])
        steps = 0
        while True:
            acting = table.to_act()
            if not acting:
                break
            user = acting[0]
            button = table.buttons(user)[0]
            answer = await tg.press(user, table.panel(user), data=button["callback_data"])
            assert not answer.show_alert, answer.text
            await tg.idle()
            steps += 1
            if hub.services.tables.by_id and next(iter(hub.services.tables.values())).match.outputs:
                break
            assert steps < 200
        await tg.settled(group)
        assert any(text.startswith("Deal 1") for text in tg.texts(group))
