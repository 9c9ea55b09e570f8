"""The bot with its Mini App on, against the fake Bot API, and Chromium (the system's, driven by
Playwright) opening the page as Telegram opens it: signed initData in the URL's fragment."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import ClientSession
from playwright.async_api import Browser, Page, async_playwright

from bot.service.tables import Table
from bot.telegram.context import BotData
from bot.webapp.auth import sign
from tests.bot.harness import open_table, running_bot, settings_env
from tests.bot.tabletop import only_table
from tests.bot.test_workers import _free_port
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat
from tests.machine import find_chromium

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
PAGE_TIMEOUT_MS = 90_000
THEME = {"bg_color": "#fbfaf7", "text_color": "#000000", "hint_color": "#707579",
         "button_color": "#3390ec", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f4f4f5"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def bot_with_webapp(tg: FakeTelegram, db: Path, *, touch: bool = True,
                          **extra: str) -> AsyncIterator[tuple[BotData, str]]:
    """The bot (polling) with its Mini App on a free loopback port: its hub and the page's
    URL (``touch``: as ``running_bot``'s)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    async with running_bot(tg, db, touch=touch, WEBAPP_URL=url, WEBAPP_PORT=str(port),
                           **extra) as hub:
        yield hub, url


async def started(tg: FakeTelegram, hub: BotData, group: Chat, users: list[User], *,
                  game: str = "preferans", options: dict[str, int] | None = None) -> Table:
    """A game of ``users`` in ``group``, opened and started by the first."""
    lobby = await open_table(tg, group, users, game=game, options=options)
    await tg.press(users[0], lobby, text="▶ Start")
    await tg.settled(group)
    return only_table(hub)


def init_data(tg: FakeTelegram, user: User, *, start_param: str | None = None,
              auth_date: float | None = None, **extra: str) -> str:
    """The initData Telegram would give ``user``'s Mini App, signed with the bot's token."""
    fields = {"auth_date": str(int(time.time() if auth_date is None else auth_date)),
              "user": json.dumps(user.api() | {"allows_write_to_pm": True}, separators=(",", ":")),
              "query_id": f"AAH{user.id}", **extra}
    if start_param is not None:
        fields["start_param"] = start_param
    return sign(fields, tg.token)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_app(browser: Browser, url: str, init: str, *, table: int | None = None,
                   language: str = "en", drawn: bool = True) -> Page:
    """A page as a Mini App opens: the table in the URL (a panel's button) or in initData's
    start_param (the group's link), the launch data in the fragment; ``drawn``: wait until
    it shows the table."""
    context = await browser.new_context(viewport={"width": 420, "height": 860},
                                        device_scale_factor=1, locale=language,
                                        bypass_csp=True)  # for wait_for_function
    page = await context.new_page()
    # A guard against a page that never shows what is awaited, not a speed limit: CI runs
    # eight workers, each with its Chromium, on two cores.
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    query = "" if table is None else f"?table={table}"
    fragment = (f"tgWebAppData={quote(init)}&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop"
                f"&tgWebAppThemeParams={quote(json.dumps(THEME))}")
    await page.goto(f"{url}{query}#{fragment}")
    if drawn:
        await page.wait_for_function("document.getElementById('app').dataset.version !== ''")
    return page


async def version(page: Page) -> int:
    return int(await page.get_attribute("#app", "data-version") or -1)


async def drawn_after(page: Page, before: int) -> None:
    """Wait until the page shows a later version than ``before`` (redrawn live)."""
    await page.wait_for_function(
        f"Number(document.getElementById('app').dataset.version) > {before}")


async def post_press(url: str, body: dict[str, Any] | bytes) -> tuple[int, dict[str, Any]]:
    """A press as the page posts it (``body`` bytes: sent as they are)."""
    sent: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    async with ClientSession() as http, http.post(url + "api/press", **sent) as answer:
        return answer.status, await answer.json(content_type=None)


async def get_page(url: str, init: str, table: int) -> tuple[int, dict[str, Any]]:
    async with ClientSession() as http, http.get(
            url + "api/page", params={"initData": init, "table": str(table)}) as answer:
        return answer.status, await answer.json(content_type=None)


def workers_env(tg: FakeTelegram, db: str, level: str) -> tuple[dict[str, str], str]:
    """The environment of a receiver and workers serving the Mini App on the database at
    ``db``, logging at ``level``; the Mini App's URL."""
    hook, port = _free_port(), _free_port()
    url = f"http://127.0.0.1:{port}/"
    return {**os.environ, **settings_env(
        tg, db, WEBHOOK_URL=f"http://127.0.0.1:{hook}/hook", PORT=str(hook),
        WEBAPP_URL=url, WEBAPP_PORT=str(port), LOG_LEVEL=level)}, url
