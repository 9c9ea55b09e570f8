"""A deal's result never stands above a table that still waits for the last card (issue
33.6): at a deal's end the table message's last edit goes before the result, unpaced,
even while the group's table edits are paced (one every few seconds)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import open_table, press_first, running_bot
from tests.fakebot import FakeTelegram
from tests.fakebot.model import ApiCall


def _text(call: ApiCall) -> str:
    return str(call.params.get("text") or "")


async def test_the_table_shows_the_deals_end_before_its_result(tg: FakeTelegram,
                                                                tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        await open_table(tg, group, users)
        await tg.press(users[0], tg.last_message(group), text="▶ Start")
        await tg.settled(group)
        [table] = hub.services.tables.values()
        for deal in (1, 2):
            while len(table.match.outputs) < deal:  # played at once: the edits are paced
                assert await press_first(tg, users)
            await tg.settled(group)
            calls = [c for c in tg.calls_for(chat=group)
                     if c.method in ("sendMessage", "editMessageText")]
            result = next(i for i, c in enumerate(calls) if c.method == "sendMessage"
                          and _text(c).startswith(f"<b>Deal {deal}</b>"))
            shown = next(i for i, c in enumerate(calls)
                         if f"🔚 <b>Deal {deal} is over.</b>" in _text(c))
            assert shown < result, [(c.method, _text(c)[:40]) for c in calls[shown - 3:]]
            assert calls[result - 1] is calls[shown]  # right before it: nothing in between
