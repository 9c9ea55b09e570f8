"""The Mini App's 🔍 Analysis tab (issue 34): after a Preferans deal played by keyboards,
Ann's Mini App has the tab, and opened it shows the deal's analysis as the group's message
words it, the engine's figures in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import ClientSession

from engine.records import analyse
from tests.bot.test_preferans_game import play_deal
from tests.fakebot import FakeTelegram
from tests.webapp.harness import bot_with_webapp, chromium, init_data, open_app, started

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)


async def test_the_analysis_tab(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await started(tg, hub, group, users)
        init = init_data(tg, users[0])
        async with ClientSession() as http, http.get(
                url + "api/analysis", params={"initData": init, "table": str(table.id)}) as got:
            assert got.status == 200 and (await got.json())["text"] == ""  # no deal ended
        await play_deal(tg, hub, users, "whist_and_pass")
        await tg.settled(group)
        found = analyse(table.match.record(), 0)["deals"][0]
        declarer = table.names[found["declarer"]]
        async with chromium() as browser:
            page = await open_app(browser, url, init, table=table.id)
            await page.click("#tabs button[data-tab=analysis]")
            await page.wait_for_function(
                "document.getElementById('analysis').innerText.includes('every hand open')")
            shown = await page.inner_text("#analysis")
        assert "Deal 1: every hand open" in shown
        assert f"{declarer} could take {found['par']} trick" in shown
        assert shown.count("Trick ") == len(found["costly"])
