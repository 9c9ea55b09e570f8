"""A page whose server answers with an error (a worker restarting, the database away) asks
again, less often each time, and then shows the table live: a browser gives an event stream
up for good after an error answer, so the page opens it again itself. A refusal (a table
that is not the reader's to see) is not asked again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from playwright.async_api import Route

from tests.bot.tabletop import make, seat_users
from tests.fakebot import FakeTelegram
from tests.webapp.harness import (
    bot_with_webapp,
    chromium,
    drawn_after,
    init_data,
    open_app,
    started,
    version,
)

WAIT = 60.0  # seconds: a guard against a page that never asks again, not a speed limit


async def _asked(counts: dict[str, int], name: str, times: int) -> None:
    deadline = time.monotonic() + WAIT
    while counts[name] < times:
        assert time.monotonic() < deadline, f"{name} asked {counts[name]} times, not {times}"
        await asyncio.sleep(0.05)


async def test_a_page_asks_again_after_error_answers_and_shows_the_table_live(
        tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(name) for name in ("Ann", "Bob", "Cid")]
    group = tg.add_group("Cards", users)
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        table = await started(tg, hub, group, users)
        seats = seat_users(hub, users)
        async with chromium() as browser:
            page = await open_app(browser, url, init_data(tg, users[0]), table=table.id)
            refused = {"page": 0, "events": 0}

            async def unavailable(route: Route) -> None:
                refused["events" if "/api/events" in route.request.url else "page"] += 1
                await route.fulfill(status=503, content_type="application/json",
                                    body='{"ok": false, "text": "Not saved: try again"}')

            # The page's own server answers 503 twice to the page and then twice to its stream.
            await page.route("**/api/page*", unavailable)
            await page.route("**/api/events*", unavailable)
            await page.reload()
            await _asked(refused, "page", 2)
            await page.unroute("**/api/page*")
            await _asked(refused, "events", 2)
            await page.unroute("**/api/events*")
            for _ in range(2):  # the stream, opened again, redraws each move
                before = await version(page)
                state = table.match.state
                seat = state.to_act[0]
                await make(tg, seats[state.controller(seat)], state.legal_actions(seat)[0])
                await drawn_after(page, before)
            assert await version(page) == table.match.version

            # Someone else's table in a group he is not in: refused once, not asked again.
            stranger = tg.add_user("Dan")
            asked: list[str] = []
            other = await open_app(browser, url, init_data(tg, stranger), table=table.id,
                                   drawn=False)
            other.on("request", lambda request: asked.append(request.url))
            await other.wait_for_function("document.getElementById('note').innerText !== ''")
            await asyncio.sleep(3.0)  # a page that asked again would have done so by now
            assert not [u for u in asked if "/api/page" in u]
