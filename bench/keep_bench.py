"""Keeping score by buttons (issue 33.3) on the fake Bot API under Telegram's real limits: a
keeper enters Preferans deals in his private chat as fast as each next question shows, at
most 3 taps a second, while a player asks /history in the group. How long each next question
takes (a private chat allows about one edit a second, a burst of 3), what the group pays per
deal, how long the /history reply takes. Then the same keeper taps the deals in the Mini App
(Chromium): how long each next question takes to show there, ready to tap."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
from pathlib import Path

from bench.figures import Figure
from tests.bot.harness import running_bot
from tests.bot.keep_pace import enter_deals
from tests.bot.scorekeeping import open_keeping
from tests.fakebot import FakeTelegram, FloodLimits
from tests.webapp.harness import bot_with_webapp, chromium, init_data, open_app
from tests.webapp.keeping import enter_deals as tap_deals

TAPS_A_SECOND = 3.0


async def _entered(deals: int) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits()) as tg:
            ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
            group = tg.add_group("Keep", [ann, bob])
            async with running_bot(tg, Path(tmp) / "bench.db") as hub:
                keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob),
                                             guests=("Cid",))
                got = await enter_deals(tg, keeping, deals, TAPS_A_SECOND, bob)
    waits = sorted(got.waits)
    note = f"{deals} deals, {got.taps} taps, at most {TAPS_A_SECOND:g} a second"
    return [
        Figure("keep", "next question after a tap, median", statistics.median(waits), "s", note),
        Figure("keep", "next question after a tap, p90", waits[int(0.9 * (len(waits) - 1))],
               "s", note),
        Figure("keep", "next question after a tap, max", waits[-1], "s", note),
        Figure("keep", "taps refused", len(got.refused), "taps", note),
        Figure("keep", "deals entered a minute", 60 * deals / got.seconds, "deals", note),
        Figure("keep", "group sends+edits per deal",
               (len(got.sends) + len(got.edits) - 1) / deals, "calls",
               "its result and the message's edit, folded; the /history reply apart"),
        Figure("keep", "/history reply meanwhile", got.history_answered - got.history_sent,
               "s", "sent when the last deal's entry begins"),
    ]


async def _tapped(deals: int) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(flood=FloodLimits()) as tg:
            ann, bob = tg.add_user("Ann"), tg.add_user("Bob")
            group = tg.add_group("Keep", [ann, bob])
            async with bot_with_webapp(tg, Path(tmp) / "bench.db") as (hub, url):
                keeping = await open_keeping(tg, hub, group, ann, joiners=(ann, bob),
                                             guests=("Cid",), private=False)
                async with chromium() as browser:
                    page = await open_app(browser, url, init_data(tg, ann),
                                          table=keeping.table_id)
                    table = keeping.table
                    got = await tap_deals(page, table.row, table.match, deals,
                                          random.Random(deals), TAPS_A_SECOND)
    waits = sorted(got.waits)
    note = (f"Mini App: {len(got.model.deals)} deals, {len(waits)} taps, at most "
            f"{TAPS_A_SECOND:g} a second")
    return [
        Figure("keep", "Mini App: next question after a tap, median", statistics.median(waits),
               "s", note),
        Figure("keep", "Mini App: next question after a tap, max", waits[-1], "s", note),
        Figure("keep", "Mini App: taps refused", len(got.refused), "taps", note),
    ]


def run(quick: bool) -> list[Figure]:
    deals = 4 if quick else 8
    return asyncio.run(_entered(deals)) + asyncio.run(_tapped(deals))
