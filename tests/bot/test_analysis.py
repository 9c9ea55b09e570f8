"""Deal analysis at the bot (issue 34), end to end on the fake Bot API: a deal played by
buttons, "🔍 Analysis" pressed under its result, and the message's numbers those of the
engine's analysis of the exported record; a second press is told the analysis is above,
and nothing is sent before a press."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.records import analyse
from tests.bot.harness import running_bot, started_game
from tests.bot.test_preferans_game import play_deal
from tests.fakebot import FakeTelegram

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


def _result_with_button(tg: FakeTelegram, group) -> object:
    return next(m for m in reversed(tg.messages(group))
                if any(b["text"] == "🔍 Analysis" for b in m.buttons))


async def test_the_analysis_of_a_played_deal(tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        users, group = await started_game(tg)
        output = await play_deal(tg, hub, users, "whist_and_pass")
        await tg.settled(group)
        assert output["kind"] == "game"
        sent = len(tg.calls_for("sendMessage"))
        result = _result_with_button(tg, group)
        assert len(tg.calls_for("sendMessage")) == sent  # nothing analysed unless pressed
        answer = await tg.press(users[1], result, text="🔍 Analysis")
        assert not answer.show_alert, answer.text
        await tg.settled(group)
        shown = tg.last_message(group).text
        tg.send(users[0], group, "/export")
        await tg.settled(group)
        record = json.loads(tg.last_message(group).file.data)
        found = analyse(record, 0)["deals"][0]
        declarer = record["players"][found["declarer"]]
        assert shown.startswith("🔍 Deal 1: every hand open")
        par = found["par"]
        took = found["tricks"][found["declarer"]]
        assert (f"{declarer} could take {par} trick{'s' if par != 1 else ''}, took {took}."
                in shown)
        lines = [line for line in shown.split("\n") if line.startswith("Trick ")]
        assert len(lines) == len(found["costly"])
        for line, costly in zip(lines, found["costly"], strict=True):
            who = record["players"][costly["seat"]]
            assert line.startswith(f"Trick {costly['trick']}: {who}'s ")
            assert f" {costly['tricks']} trick" in line
            if costly["whists"]:
                assert f"({costly['whists']:g} whists)" in line
        again = await tg.press(users[2], result, text="🔍 Analysis")
        await tg.settled(group)
        assert "above" in again.text and tg.last_message(group).file is not None
