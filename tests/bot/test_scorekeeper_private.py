"""The keep-score entry in the keeper's private chat (issue 33.3): the group's message says
who enters the next deal and links to the entry; another keeper's link takes it over (the
former keeper's message says so and loses the deal's buttons); /edit N pre-fills the deal in
the sender's private chat."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import running_bot
from tests.bot.scorekeeping import entry_message, open_keeping
from tests.fakebot import FakeTelegram

pytestmark = pytest.mark.telegram_clock(4)


async def test_the_entry_moves_to_whoever_opens_it(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Private entry", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",))
        assert "✏️ Ann is entering deal 1." in keeping.group_message().text
        assert keeping.group_message().button_texts == ["✏️ Enter deal 1"]
        await keeping.tap("Cid", "Bob")
        stale = keeping.message().buttons[0]["callback_data"]
        await keeping.open(bob)  # Bob takes the entry over, where Ann left it
        bobs = entry_message(tg, bob, keeping.table_id)
        assert bobs is not None and "Entered: Bob\n" in bobs.text
        anns = keeping.message()
        assert "✏️ Bob enters the deals now." in anns.text
        assert [b.get("url", "") for b in anns.buttons] == [
            keeping.group_message().buttons[0]["url"]]  # only the link to take it back
        answer = await tg.press(ann, anns, data=stale, forge=True)
        assert answer.show_alert and "out of date" in answer.text
        assert "✏️ Bob is entering deal 1." in keeping.group_message().text
        edits = len(keeping.group_message().revisions)
        for label in ("7♥", "whist · pass", "0", "7"):
            answer = await tg.press(bob, entry_message(tg, bob, keeping.table_id), text=label)
            assert not answer.show_alert, answer.text
            await tg.settled()
        assert len(keeping.group_message().revisions) == edits  # the taps cost the group none
        await tg.press(bob, entry_message(tg, bob, keeping.table_id), text="✅ Save deal 1")
        await tg.settled()
        assert "✏️ Bob is entering deal 2." in keeping.group_message().text
        assert len(keeping.group_message().revisions) == edits + 1
        assert "Deal 2 · Ann deals" in entry_message(tg, bob, keeping.table_id).text
        # /edit 1 by Ann: the deal pre-filled in her private chat, the reply links to it
        reply = await keeping.send("/edit 1")
        assert "Deal 1 is ready to be corrected in my private chat" in reply, reply
        assert "Correcting deal 1" in keeping.message().text
        assert "✏️ Ann is correcting deal 1." in keeping.group_message().text
        assert keeping.group_message().button_texts == ["✏️ Correct deal 1"]
        assert "✏️ Ann enters the deals now." in entry_message(tg, bob, keeping.table_id).text
