"""The Mini App with several workers, end to end: the fake Bot API in webhook mode,
PostgreSQL, the receiver and two worker processes serving the Mini App on one port
(SO_REUSEPORT), Chromium. A Preferans deal is played half by taps in the players' Mini Apps
and half by their keyboards, in turns; mid-deal every worker that serves one of their event
streams is SIGKILLed (and another started in its place): the pages reconnect and show the
current state, the deal goes on to its end, and the stored actions are exactly those the
players made, none lost, none doubled."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Page, Response

from bot.service import records
from engine.base import DealState
from storage.store import Storage
from tests.bot.harness import panel_of, playable
from tests.bot.test_workers import Cluster, Played, _open, _pressed, _quiet
from tests.bot.test_workers import _text as as_pressed
from tests.fakebot import FakeTelegram, User
from tests.postgres import LazyServer
from tests.webapp.harness import chromium, init_data, open_app, version, workers_env

KILL_AFTER = 6  # actions stored before the kill: mid-deal (a Preferans deal has 13 or more)
WAIT = 90.0  # seconds: a guard against a hang on a loaded machine, not a speed limit


async def _stored(storage: Storage, table_id: int) -> tuple[int, DealState | None, Any]:
    """The table as stored: its match's version, the first deal while it is in play (None
    once it is scored), the row."""
    found = await records.load(storage, table_id)
    match = found.match
    assert match is not None
    state = match.state if match.in_deal and not match.outputs else None
    return match.version, state, found.row


async def _after(storage: Storage, table_id: int, before: int) -> int:
    """Wait until the stored match moved past ``before``; its version."""
    deadline = time.monotonic() + WAIT
    while True:
        now, _, _ = await _stored(storage, table_id)
        if now > before:
            return now
        assert time.monotonic() < deadline, f"table {table_id} stuck at version {before}"
        await asyncio.sleep(0.1)


async def _showing(page: Page, wanted: int) -> None:
    """Wait until the page shows the stored version (live: its event stream)."""
    await page.wait_for_function(
        f"Number(document.getElementById('app').dataset.version) === {wanted}")


def _stream_opened(response: Response) -> bool:
    """A page's event stream answered: the page is connected to a worker that listens."""
    return "/api/events?" in response.url and response.status == 200


async def _tap(page: Page) -> tuple[int, str]:
    """Ann's first offered action (of her seat, or of a hand she plays), by taps (as
    driver.tap, without waiting for quiet)."""
    offered = await page.evaluate("app.state.page.drawing.actions")
    chosen = offered[0]
    for card in chosen["cards"]:
        await page.click(f".card.legal[data-card='{card}'] >> nth=0")
    alike = [a for a in offered if a["cards"] == chosen["cards"]]
    if len(chosen["cards"]) != 1 or len(alike) > 1:
        await page.click(f"#actions button[data-action='{chosen['action']}']")
    return as_pressed(int(chosen["seat"]), str(chosen["action"]))


async def _key(tg: FakeTelegram, user: User, rng: random.Random) -> tuple[int, str] | None:
    """A press of a playable button of the user's panel: the action if it was one the bot
    accepted (a card picked for a discard, or a refused press, or no panel yet: None)."""
    panel = panel_of(tg, user)  # a late reply to his /start may stand below it
    if panel is None:
        await asyncio.sleep(0.1)
        return None
    data = rng.choice(playable(panel))
    answer = await tg.answer_to(tg.press_nowait(user, panel, data=data), timeout=WAIT)
    if not data.startswith("a:") or answer.show_alert:
        return None
    _, _, _, seat, action = data.split(":", 4)
    return as_pressed(int(seat), action)


def _serving(port: int, pids: list[int]) -> list[int]:
    """The processes among ``pids`` that hold a connection accepted on ``port``."""
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(name) as fh:
            for line in fh.readlines()[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    found = []
    for pid in pids:
        with os.scandir(f"/proc/{pid}/fd") as fds:
            links = set()
            for fd in fds:
                try:
                    links.add(os.readlink(fd.path))
                except OSError:
                    continue
        if links & inodes:
            found.append(pid)
    return found


async def test_a_deal_by_taps_and_keys_on_two_workers_one_killed(postgres: LazyServer) -> None:
    rng = random.Random(29)
    db = await postgres.new_database()
    async with FakeTelegram() as tg:
        env, url = workers_env(tg, db, "WARNING")
        users = [tg.add_user(name) for name in ("Ann", "Bob", "Cid")]
        played = Played("preferans", tg.add_group("Cards", users), users)
        cluster = Cluster(env, workers=2)
        storage = await Storage.open(db)
        try:
            await cluster.start(tg)
            for user in users:
                tg.press_start(user)
            await _open(tg, played)
            (row,) = await storage.tables.open_tables(chat_id=played.group.id)
            table_id = row.id
            async with chromium() as browser:
                pages = {u.id: await open_app(browser, url, init_data(tg, u), table=table_id)
                         for u in users}
                taps = killed = 0
                moved, since = -1, time.monotonic()
                while True:
                    stored, state, row = await _stored(storage, table_id)
                    if state is None:
                        break  # the deal is over
                    if stored != moved:
                        moved, since = stored, time.monotonic()
                    assert time.monotonic() - since < WAIT, f"the deal stuck at {stored}"
                    actor = row.user_of(state.controller(state.to_act[0]))
                    if len(played.accepted) % 2 == 0:  # by taps, then by keys, in turns
                        page = pages[actor]
                        await _showing(page, stored)  # the stream shows what is stored
                        tapped = await _tap(page)
                        await _after(storage, table_id, stored)
                        played.accepted.append(tapped)
                        taps += 1
                    else:
                        user = next(u for u in users if u.id == actor)
                        pressed = await _key(tg, user, rng)
                        if pressed is not None:
                            played.accepted.append(pressed)
                            await _after(storage, table_id, stored)
                    if not killed and len(played.accepted) >= KILL_AFTER:
                        pids = [p.pid for p in cluster.workers]
                        serving = _serving(urlsplit(url).port or 0, pids)
                        assert serving, "no worker holds the players' event streams"
                        # Every page's stream is on a worker killed now: each page opens a
                        # new one, and shows the stored state, before the next tap (one made
                        # while no worker listens is not made: the page says it is offline).
                        async with contextlib.AsyncExitStack() as reconnected:
                            for page in pages.values():
                                await reconnected.enter_async_context(
                                    page.expect_response(_stream_opened))
                            for pid in serving:
                                await cluster.kill(pids.index(pid))
                        killed = len(serving)
                        now = (await _stored(storage, table_id))[0]
                        for page in pages.values():
                            await _showing(page, now)
                await _quiet(tg, db)
                final, _, _ = await _stored(storage, table_id)
                for page in pages.values():
                    await _showing(page, final)
                    assert await version(page) == final
            pressed, _ = _pressed(await storage.log.record(table_id))
        finally:
            await storage.close()
            await cluster.stop()
        assert pressed == played.accepted  # nothing lost, nothing doubled
        assert killed and taps >= len(played.accepted) // 2 >= KILL_AFTER
        assert not [c for c in tg.calls if c.status == 429]

