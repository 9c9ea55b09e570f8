"""The page itself: in the reader's language and Telegram's theme, with the turn's time left
and "I am back" while a robot plays for the reader, loading nothing from anywhere but its own
server, and saying so when its initData proves nobody (or no longer does)."""

from __future__ import annotations

import time
from pathlib import Path

from bot.service import substitutes
from bot.service.outcome import Outcome
from bot.ui.i18n import translator
from bot.webapp.auth import MAX_AGE
from tests.fakebot import FakeTelegram
from tests.webapp.driver import text_of
from tests.webapp.harness import bot_with_webapp, chromium, init_data, open_app, started

RU = translator("ru")


async def test_language_theme_and_nothing_from_elsewhere(tg: FakeTelegram,
                                                         tmp_path: Path) -> None:
    users = [tg.add_user("Ann"), tg.add_user("Боря", language_code="ru"), tg.add_user("Cid")]
    group = tg.add_group("Cards", users)  # in English; Боря reads his own texts in Russian
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await started(tg, hub, group, users, options={"⏱ Turn time": 1})
        async with chromium() as browser:
            asked: list[str] = []
            page = await open_app(browser, url, init_data(tg, users[1]), table=table.id,
                                  language="ru")
            page.on("request", lambda request: asked.append(request.url))
            await page.reload()
            await page.wait_for_selector("#hand .card")
            tabs = await page.eval_on_selector_all("#tabs .tab", "ts => ts.map(t => t.innerText)")
            assert tabs == [RU("Table"), RU("Score"), RU("Rules"), RU("🔍 Analysis")] != [
                "Table", "Score", "Rules", "🔍 Analysis"]
            assert await text_of(page, "#title") == RU("Preferans")
            # The turn's time left, from the table's timer.
            assert RU("{time} left").replace("{time}", "") in await text_of(page, "#clock")
            background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(251, 250, 247)"  # the theme's bg_color, not the default
            assert asked and all(u.startswith(url) for u in asked), asked

            # A robot stands in for Боря: his page offers "I am back", and a tap brings him back.
            seat = table.seat_of(users[1].id)
            out = Outcome()
            async with table.lock:
                assert await substitutes.stand_in(hub.services, table, seat, out)
            hub.services.publish(out.redraw(table))
            back = page.locator("#actions button", has_text=RU("🙋 I am back"))
            await back.click()
            await back.wait_for(state="detached")
            assert seat not in table.row.robot_seats()

            for init in (init_data(tg, users[1], auth_date=time.time() - MAX_AGE - 60),
                         init_data(tg, users[1])[:-2] + "00"):
                refused = await open_app(browser, url, init, table=table.id, language="ru",
                                         drawn=False)
                await refused.wait_for_selector("body.expired")
                assert RU("This Mini App cannot prove who you are (or it was opened too long "
                          "ago): close it and open it again from the bot.") in \
                    await text_of(refused, "#note")
                assert not await refused.locator(".card").count()

            # A page left open past its initData's age says so when its live stream ends.
            ageing = await open_app(browser, url, init_data(
                tg, users[1], auth_date=time.time() - MAX_AGE + 5), table=table.id,
                language="ru")
            await ageing.wait_for_selector("body.expired")
            assert RU("This Mini App cannot prove who you are (or it was opened too long ago): "
                      "close it and open it again from the bot.") in await text_of(ageing, "#note")
