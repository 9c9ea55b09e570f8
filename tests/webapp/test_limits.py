"""The Mini App's port under a flood, in a bot process held to the usual 1,024 descriptors
(``python -m bot``, polling the fake Bot API): 1,100 half-sent requests, then 1,100 event
streams. The excess is refused (503; a user past his own cap 429), the half-sent requests
are closed after the header timeout, the keyboards are answered all along, and the log
has no ERROR line (before, the descriptors ran out: presses failed and asyncio logged
``socket.accept() out of system resource`` millions of times)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import resource
import signal
import sys
import time
from pathlib import Path
from urllib.parse import quote

from bot.webapp.limits import HEADER_TIMEOUT, Caps
from tests.bot.harness import settings_env
from tests.bot.test_workers import Played, _open, press_any
from tests.fakebot import FakeTelegram, User
from tests.webapp.harness import free_port, init_data

DESCRIPTORS = 1024
FLOOD = 1100
SPECTATORS = 275  # 4 streams each: 1,100
ANSWERED_WITHIN = 10.0
_TABLE_IN_LINK = re.compile(r"[?&](?:startapp=|start=t|table=)(\d+)")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _half_request(port: int) -> int | Conn:
    """Half a request's headers on a new connection: the status it is answered with (0: the
    connection closed), or the connection if it is held open."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/page HTTP/1.1\r\nHost: cards\r\n")
    try:
        line = await asyncio.wait_for(reader.readline(), 3)
    except TimeoutError:
        return reader, writer
    writer.close()
    return int(line.split()[1]) if line else 0


async def _closed_by_server(conn: Conn) -> bool:
    with contextlib.suppress(ConnectionError):
        await asyncio.wait_for(conn[0].read(), HEADER_TIMEOUT + 10)
    return True


async def _stream(port: int, query: str) -> int | Conn:
    """An event stream: its status if refused, else the connection (held open)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/events?{query} HTTP/1.1\r\nHost: cards\r\n\r\n".encode())
    line = await asyncio.wait_for(reader.readline(), 60)
    status = int(line.split()[1]) if line else 0
    if status == 200:
        return reader, writer
    writer.close()
    return status


async def _keyboards_answer(tg: FakeTelegram, played: Played, rng: random.Random) -> None:
    pressed = press_any(tg, played, rng)
    assert pressed is not None, "no panel has a button"
    started = time.monotonic()
    await tg.answer_to(pressed[0], timeout=ANSWERED_WITHIN)
    assert time.monotonic() - started < ANSWERED_WITHIN


async def _table_id(tg: FakeTelegram, played: Played) -> int:
    """The table's id, from a link on the table message or a panel's Mini App button."""
    for _ in range(300):
        for chat in (played.group, *played.users):
            for message in tg.messages(chat)[-1:]:
                for button in message.buttons:
                    url = button.get("url") or (button.get("web_app") or {}).get("url", "")
                    found = _TABLE_IN_LINK.search(url)
                    if found:
                        return int(found.group(1))
        await asyncio.sleep(0.1)
    raise AssertionError("no link to the table")


async def test_a_flood_of_connections_and_streams_is_refused_and_keyboards_answer(
        tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8 * FLOOD), hard))  # the clients'
    caps = Caps.of(DESCRIPTORS)
    rng = random.Random(31)
    port = free_port()
    log_path = tmp_path / "bot.log"
    async with FakeTelegram() as tg:
        players = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
        spectators = [tg.add_user(f"Spec{n}") for n in range(SPECTATORS)]
        played = Played("preferans", tg.add_group("Cards", [*players, *spectators]), players)
        env = {**os.environ, **settings_env(
            tg, tmp_path / "bot.db", WEBAPP_URL=f"http://127.0.0.1:{port}/",
            WEBAPP_PORT=str(port), LOG_LEVEL="WARNING")}
        with log_path.open("wb") as log:
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, stderr=log, preexec_fn=_limited)
        held: list[Conn] = []
        try:
            for user in players:
                tg.press_start(user)
            await _open(tg, played)
            table = await _table_id(tg, played)

            flood = await asyncio.gather(*(_half_request(port) for _ in range(FLOOD)))
            held = [c for c in flood if not isinstance(c, int)]
            refused = [c for c in flood if isinstance(c, int)]
            assert len(held) <= caps.connections and set(refused) <= {503, 0}
            assert len(refused) >= FLOOD - caps.connections
            await _keyboards_answer(tg, played, rng)
            assert all(await asyncio.gather(*(_closed_by_server(c) for c in held)))
            held.clear()

            def query(user: User) -> str:
                return f"initData={quote(init_data(tg, user))}&table={table}"

            one = [await _stream(port, query(spectators[0])) for _ in range(caps.per_user + 1)]
            assert [c if isinstance(c, int) else 200 for c in one] \
                == [200] * caps.per_user + [429]
            streams = [*one, *[await _stream(port, query(spectators[1 + n // 4]))
                               for n in range(FLOOD - len(one))]]
            held = [c for c in streams if not isinstance(c, int)]
            assert len(held) == caps.streams
            assert {c for c in streams if isinstance(c, int)} == {429, 503}
            await _keyboards_answer(tg, played, rng)
        finally:
            for _, writer in held:
                writer.close()
            bot.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), 30)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    text = log_path.read_text(errors="replace")
    assert " ERROR " not in text and "Traceback" not in text, text[-3000:]
    assert "Too many open files" not in text and "out of system resource" not in text
    assert len(text) < 100_000

