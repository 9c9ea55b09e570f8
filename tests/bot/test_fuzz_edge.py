"""A fuzz suite (hypothesis) of what a stranger can send, against the running bot with its
Mini App (one process): callback data (ours with wrong parts, truncated, oversized numbers,
other tables' and other chats'), commands with any arguments, Mini App request bodies,
query strings and raw request lines. Every input is answered within 2 s (a press's answer,
an HTTP status below 500), the table changes only by a legal move, and no ERROR is logged.
The counts of inputs tried per kind are printed (``pytest -s``)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.bounds import MAX_ID
from bot.service.tables import Table
from bot.webapp.limits import HEADER_TIMEOUT
from tests.bot.harness import open_table
from tests.bot.test_fuzz import legal_for
from tests.fakebot import FakeTelegram, User
from tests.fakebot.model import Chat
from tests.webapp.harness import bot_with_webapp, init_data

# What waits here is mostly the chats' budgets: Telegram's windows pass four times faster,
# on both sides (tests/bot/conftest.py).
pytestmark = pytest.mark.telegram_clock(4)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))  # per kind
COMMAND_EXAMPLES = int(os.environ.get("FUZZ_COMMANDS", "40"))
ANSWERED_WITHIN = 2.0
COMMANDS = ("start", "newgame", "pref", "seep", "joker", "score", "history", "rules", "sheet",
            "stats", "top", "leave", "abort", "export", "language", "timer", "pause", "resume",
            "replace", "quiet", "add", "deal", "undo", "edit", "settle", "help", "zzz")
NUMBERS = st.one_of(st.integers(-5, 20), st.integers(MAX_ID - 2, MAX_ID + 2),
                    st.integers(10**19, 10**40), st.integers())
WORDS = st.one_of(st.text(max_size=30), st.sampled_from(
    ["y", "n", "join", "start", "set", "page", "bid", "play", "AS", "10H", "\u200b", "²", "٣",
     "\u202e", "-1", "0", "pass", "x" * 40]), NUMBERS.map(str))
PLAIN = st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=True), st.text())
JSON = st.recursive(PLAIN, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=20)
BODY_KEYS = ("initData", "nonce", "table", "kind", "version", "seat", "action")


class Fuzz:
    """The running bot, its table and the inputs' counts; ``run`` does a coroutine on the
    bot's loop from hypothesis's thread."""

    def __init__(self, tg: FakeTelegram, loop: asyncio.AbstractEventLoop, table: Table,
                 group: Chat, users: list[User], stranger: User, url: str) -> None:
        self.tg, self.loop, self.table, self.group = tg, loop, table, group
        self.users, self.stranger, self.url = users, stranger, url
        self.tried: Counter[str] = Counter()

    def run(self, work: Callable[[], Awaitable[None]]) -> None:
        asyncio.run_coroutine_threadsafe(work(), self.loop).result(timeout=60)

    def state(self) -> tuple[Any, ...]:
        match = self.table.match
        assert match is not None
        return match.version, match.record(), self.table.row.status

    async def press(self, user: User, data: str) -> None:
        if legal_for(self.table, user.id, data):
            return  # a legal move of the player whose turn it is: not junk
        before = self.state()
        chat = user if user in self.users else self.tg.private_chat(user)
        message = self.tg.last_message(chat)
        query = self.tg.press_nowait(user, message, data=data, forge=True)
        await self.tg.answer_to(query, timeout=ANSWERED_WITHIN)
        assert self.state() == before, data
        self.tried["callback data"] += 1

    async def command(self, user: User, text: str, *, in_group: bool) -> None:
        """A command (its replies are paced: the state is checked at the end, as no one
        agrees to a vote it may ask)."""
        self.tg.send(user, self.group if in_group else user, text)
        await asyncio.sleep(0.05)
        self.tried["commands"] += 1

    async def http(self, method: str, path: str, **sent: Any) -> None:
        before = self.state()
        async with aiohttp.ClientSession() as http, http.request(
                method, self.url + path, timeout=aiohttp.ClientTimeout(ANSWERED_WITHIN),
                **sent) as answer:
            assert answer.status < 500, (path, sent, answer.status)
        assert self.state() == before
        self.tried["Mini App requests"] += 1

    async def raw(self, request: bytes) -> None:
        where = urlparse(self.url)
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        writer.write(request)
        # Answered at once, or (nothing but blank lines: no request yet) closed by the
        # server's header timeout.
        line = await asyncio.wait_for(reader.readline(), HEADER_TIMEOUT + 2)
        writer.close()
        assert not line or int(line.split()[1]) < 500, (request, line)
        self.tried["raw request lines"] += 1


def callback_data(table: int, version: int) -> st.SearchStrategy[str]:
    ids = st.one_of(st.just(table), NUMBERS)
    ours = st.builds(lambda kind, t, parts: ":".join([kind, str(t), *parts]),
                     st.sampled_from("aulvtrkpz"), ids, st.lists(WORDS, max_size=4))
    moves = st.builds(lambda v, s, m: f"a:{table}:{v}:{s}:{m}", st.one_of(st.just(version),
                                                                         NUMBERS), NUMBERS, WORDS)
    return st.one_of(ours, moves, st.text(max_size=70), st.just(""))


@pytest.fixture
async def fuzz(tg: FakeTelegram, tmp_path: Path) -> Any:
    users = [tg.add_user(n) for n in ("Ann", "Bob", "Cid")]
    stranger = tg.add_user("Eve")
    group = tg.add_group("Cards", [*users, stranger])
    tg.press_start(stranger)
    async with bot_with_webapp(tg, tmp_path / "bot.db") as (hub, url):
        await tg.press(users[0], await open_table(tg, group, users), text="▶ Start")
        await tg.idle()
        table = next(iter(hub.services.tables.values()))
        yield Fuzz(tg, asyncio.get_running_loop(), table, group, users, stranger, url)


FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                         derandomize=True, suppress_health_check=list(HealthCheck))
# Commands are answered by messages, which Telegram's limits pace (a group's 20 a minute).
COMMAND_SETTINGS = settings(FUZZ_SETTINGS, max_examples=COMMAND_EXAMPLES)


async def test_fuzzed_presses_commands_and_mini_app_requests(
        fuzz: Fuzz, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    tg, table = fuzz.tg, fuzz.table
    assert table.match is not None
    people = st.sampled_from([*fuzz.users, fuzz.stranger])

    @FUZZ_SETTINGS
    @given(user=people, data=callback_data(table.id, table.match.version))
    def presses(user: User, data: str) -> None:
        fuzz.run(lambda: fuzz.press(user, data))

    @COMMAND_SETTINGS
    @given(user=people, name=st.sampled_from(COMMANDS), words=st.lists(WORDS, max_size=5),
           in_group=st.booleans())
    def commands(user: User, name: str, words: list[str], in_group: bool) -> None:
        text = " ".join([f"/{name}", *words])[:4096]
        fuzz.run(lambda: fuzz.command(user, text, in_group=in_group))

    @FUZZ_SETTINGS
    @given(user=people, body=st.one_of(
        JSON, st.dictionaries(st.sampled_from(BODY_KEYS), JSON, max_size=7)),
        signed=st.booleans(), extra=st.dictionaries(
            st.text(max_size=8).filter(lambda k: k not in ("auth_date", "start_param")),
            st.text(max_size=8), max_size=3))
    def mini_app(user: User, body: Any, signed: bool, extra: dict[str, str]) -> None:
        if signed and isinstance(body, dict):
            body["initData"] = init_data(tg, user, **extra)
        text = json.dumps(body)
        fuzz.run(lambda: fuzz.http("POST", "api/press", data=text.encode()))
        query = {k: str(v)[:200] for k, v in (body.items() if isinstance(body, dict) else ())}
        for path in ("api/page", "api/sheet", "api/sheet.png"):
            fuzz.run(lambda path=path: fuzz.http("GET", path, params=query))  # type: ignore

    @FUZZ_SETTINGS
    @given(line=st.one_of(st.binary(max_size=300).map(lambda b: b + b"\r\n\r\n"), st.builds(
        lambda verb, path, version: f"{verb} {path} {version}\r\n\r\n".encode(),
        st.sampled_from(["GET", "POST", "BREW", "G\x00T", ""]),
        st.one_of(st.text(max_size=50), st.just("/" + "a" * 20_000)),
        st.sampled_from(["HTTP/1.1", "HTTP/9.9", "", "HTTP/1.1\r\nHost: " + "h" * 10_000]))))
    def raw_lines(line: bytes) -> None:
        fuzz.run(lambda: fuzz.raw(line))

    await asyncio.to_thread(presses)
    await asyncio.to_thread(commands)
    await asyncio.to_thread(mini_app)
    await asyncio.to_thread(raw_lines)
    before = fuzz.state()
    await tg.settled(timeout=300)  # every command answered
    assert fuzz.state() == before
    print("fuzzed:", dict(fuzz.tried))  # the counts the note reports
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors[:5]]
    assert min(fuzz.tried.values()) >= COMMAND_EXAMPLES // 2 and len(fuzz.tried) == 4
