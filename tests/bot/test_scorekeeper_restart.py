"""The deal being entered outlives the bot: stopped with a deal half tapped in (or a
correction pre-filled), the bot started again on the same database shows it as it was, and
the buttons of the message it left go on from there. On SQLite and on PostgreSQL."""

from __future__ import annotations

from engine.games import get_game
from engine.manual import add_entry, form_for
from engine.match import Match
from tests.bot.harness import running_bot
from tests.bot.scorekeeping import Keeping, open_keeping
from tests.fakebot import FakeTelegram

NAMES = ["Ann", "Bob", "Cid"]


def reference(texts: list[str]) -> Match:
    """The sheet the engine alone makes of these deals (Cid dealt first)."""
    spec = get_game("preferans")
    match = Match(spec, spec.rules.from_dict({}), NAMES, 2)
    for text in texts:
        add_entry(match, form_for(match).parse(text))
    return match


async def test_the_deal_being_entered_survives_restarts(tg: FakeTelegram,
                                                       location: str) -> None:
    ann = tg.add_user("Ann")
    group = tg.add_group("Restart", [ann])
    texts = ["6S Ann 6; Bob whist 2; Cid whist 2", "7H Bob 7; Cid whist 3; Ann pass"]
    async with running_bot(tg, location) as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann,), guests=("Bob", "Cid"))
        table_id = keeping.table_id
        await keeping.tap("Cid")
        await keeping.send(f"/deal {texts[0]}")
        await keeping.tap("Bob", "7♥")  # deal 2 half entered when the bot stops
        shown = keeping.message()
        assert "Entered: Bob · 7♥\n" in shown.text
    async with running_bot(tg, location) as hub:
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert keeping.message().text == shown.text
        await keeping.tap("whist · pass")  # a button of the message shown before the stop
        assert "Entered: Bob · 7♥ · Cid whist · Ann pass\n" in keeping.message().text
        await keeping.tap("0", "7", "✅ Save deal 2")
        stored = await keeping.stored()
        assert stored.record()["deals"] == reference(texts).record()["deals"]
    async with running_bot(tg, location) as hub:  # the saved deal left no draft behind
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert "Deal 3 · Bob deals\n\n" in keeping.message().text
        await keeping.tap("Cid")
        assert "Entered: Cid\n" in keeping.message().text
        await keeping.send("/edit 1")  # a correction pre-filled, replacing the draft
        assert "Correcting deal 1" in keeping.message().text
    async with running_bot(tg, location) as hub:
        keeping = Keeping(tg, hub, group, ann, table_id=table_id)
        assert "Correcting deal 1" in keeping.message().text
        await keeping.tap("Stop correcting")
        assert "Deal 3 · Bob deals\n\n" in keeping.message().text
        stored = await keeping.stored()
        assert stored.record()["deals"] == reference(texts).record()["deals"]
