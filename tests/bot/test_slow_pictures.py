"""Drawing a scoresheet takes tens of milliseconds per picture: it happens in a worker
thread, so that the other tables go on meanwhile (a slow drawer here takes seconds)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.games import PLUGINS
from bot.ui.pictures.canvas import Picture
from engine.match import Match
from tests.bot.harness import open_table, running_bot
from tests.fakebot import FakeTelegram

DRAWING = 1.5  # seconds the slow drawer takes


async def test_another_tables_press_is_answered_while_a_sheet_is_drawn(
        tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draw = PLUGINS["preferans"].picture

    def slow(match: Match, tr: Callable[[str], str]) -> Picture:
        time.sleep(DRAWING)  # blocks only the thread it runs in
        return draw(match, tr)

    monkeypatch.setitem(PLUGINS, "preferans",
                        dataclasses.replace(PLUGINS["preferans"], picture=slow))
    sheet_players = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    seep_players = [tg.add_user(n) for n in ("Dan", "Eve", "Fay", "Gil")]
    sheet_group = tg.add_group("Sheet", sheet_players)
    seep_group = tg.add_group("Seep", seep_players)
    async with running_bot(tg, tmp_path / "bot.db"):
        for group, users, game in ((sheet_group, sheet_players, "preferans"),
                                   (seep_group, seep_players, "seep")):
            await open_table(tg, group, users, game=game)
            await tg.press(users[0], tg.last_message(group), text="▶ Start")
            await tg.idle()
        # the Seep player to act: a bid, or a card if his one bid was made for him
        bidder = next(u for u in seep_players if any(
            b.get("callback_data", "").startswith(("a:", "u:"))
            for b in tg.last_message(u).buttons))
        panel = tg.last_message(bidder)
        bid = next(b["callback_data"] for b in panel.buttons
                   if b.get("callback_data", "").startswith(("a:", "u:")))
        asked = len(tg.calls_for("answerCallbackQuery"))
        tg.send(sheet_players[0], sheet_group, "/sheet")
        answer = await tg.press(bidder, panel, data=bid)
        await tg.idle()
    assert not answer.show_alert, answer.text
    (photo,) = tg.calls_for("sendPhoto", sheet_group)
    (press,) = tg.calls_for("answerCallbackQuery")[asked:]
    assert photo.status == 200 and press.status == 200
    # the Seep press was answered while the picture was being drawn, before it was sent
    assert press.time < photo.time
