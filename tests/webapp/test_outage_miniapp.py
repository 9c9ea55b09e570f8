"""The Mini App on workers through a database outage (issue 35): the receiver and a worker
serving the Mini App on a PostgreSQL server of the test's own, which is stopped for a few
seconds. A tap made meanwhile is answered at once "not saved, try again" with 503 and
changes nothing; the reader's event stream stays open, and once the server is back it shows
the tap made again; the worker writes no traceback and no ERROR line, and says the outage
once (a WARNING) and its end once (an INFO)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from aiohttp import ClientSession

from bot.service import records
from storage.store import Storage
from tests.bot.test_outage import running
from tests.bot.test_workers import Played, _open
from tests.fakebot import FakeTelegram
from tests.webapp.harness import init_data, post_press, workers_env

NOT_STORED = "Not saved: my storage is out of reach for a moment. Please try again."
DOWN = 6.0  # seconds the server is stopped


async def _versions(url: str, init: str, table_id: int, seen: list[int]) -> None:
    """Read the event stream, each page's version into ``seen``, until cancelled."""
    async with ClientSession() as http, http.get(
            url + "api/events", params={"initData": init, "table": str(table_id)}) as stream:
        assert stream.status == 200
        async for line in stream.content:
            if line.startswith(b"data: "):
                seen.append(json.loads(line[6:])["version"])


async def _until(seen: list[int], wanted: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not seen or seen[-1] < wanted:
        assert time.monotonic() < deadline, (seen, wanted)
        await asyncio.sleep(0.1)


async def test_a_tap_during_an_outage_is_not_saved_and_the_stream_lives(
        tmp_path: Path) -> None:
    async with running(tmp_path) as logged:
        server = logged.server
        db = await server.new_database()
        async with FakeTelegram() as tg:
            env, url = workers_env(tg, db, "INFO")
            users = [tg.add_user(name) for name in ("Ann", "Bob", "Cid")]
            played = Played("preferans", tg.add_group("Cards", users), users)
            await logged.cluster(tg, env, workers=1)
            for user in users:
                tg.press_start(user)
            await _open(tg, played)
            storage = await Storage.open(db)
            try:
                (row,) = await storage.tables.open_tables(chat_id=played.group.id)
                match = (await records.load(storage, row.id)).match
            finally:
                await storage.close()
            assert match is not None and match.state is not None
            seat = match.state.to_act[0]
            user = next(u for u in users if u.id == row.seats[seat].user_id)
            seen: list[int] = []
            reading = asyncio.create_task(_versions(url, init_data(tg, user), row.id, seen))
            await _until(seen, match.version)

            def tap(nonce: str) -> dict[str, object]:
                assert match is not None and match.state is not None
                return {"initData": init_data(tg, user), "nonce": nonce, "table": row.id,
                        "kind": "a", "version": match.version, "seat": seat,
                        "action": match.state.legal_actions(seat)[0]}

            await asyncio.to_thread(server.halt)
            started = time.monotonic()
            status, said = await post_press(url, tap("1" * 32))
            assert (status, said) == (503, {"ok": False, "text": NOT_STORED})
            assert time.monotonic() - started < DOWN / 2  # at once, not when it is back
            await asyncio.sleep(DOWN - (time.monotonic() - started))
            await asyncio.to_thread(server.resume)
            while (answer := await post_press(url, tap("2" * 32)))[0] == 503:
                await asyncio.sleep(0.5)  # the worker sees the server back within a second
            assert answer == (200, {"ok": True, "text": ""}), answer
            await _until(seen, match.version + 1)  # the stream that lived through it
            assert not reading.done()
            reading.cancel()
        storage = await Storage.open(db)
        try:
            stored = (await records.load(storage, row.id)).match
        finally:
            await storage.close()
        assert stored is not None and stored.version == match.version + 1  # stored once
    logged.said()
    worker = logged.logs[1].read_text()
    assert worker.count("is out of reach") == worker.count(" is back after ") == 1, worker
