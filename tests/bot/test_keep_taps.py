"""Keeping score without waits (issue 33.3), under Telegram's real limits (no sped-up clock):
the keeper enters 8 deals by buttons in his private chat, tapping as soon as each next
question shows, never faster than 3 taps a second. No tap is refused, the group's message is
edited at most once per saved deal (each deal costs the group its result and at most that
edit), the group stays within its 20 calls a minute, and a /history sent meanwhile is
answered before any table edit that was waiting. How long each next question takes is
measured by ``python -m bench --only keep``.
"""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import running_bot
from tests.bot.keep_pace import enter_deals
from tests.bot.scorekeeping import open_keeping
from tests.fakebot import FakeTelegram

DEALS = 8


async def test_eight_deals_at_three_taps_a_second(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
    group = tg.add_group("Quick hands", [ann, bob])
    async with running_bot(tg, tmp_path / "bot.db") as hub:
        keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob), guests=("Cid",))
        got = await enter_deals(tg, keeping, DEALS, 3.0, bob)
        assert got.refused == []  # never "out of date"
        assert len((await keeping.stored()).deals) == DEALS
        results = [t for t in tg.texts(group) if t.startswith(tuple(
            f"Deal {n}\n" for n in range(1, DEALS + 1)))]
        assert len(results) == DEALS
        assert len(got.sends) == DEALS + 1  # each deal's result, and the /history reply
        assert 1 <= len(got.edits) <= DEALS  # the group's message: once per deal at most
        assert tg.peak_rate(group) <= 20
        assert got.history_answered  # and nothing waiting in the group went before it
        assert not [at for at in got.edits if got.history_sent < at < got.history_answered]
