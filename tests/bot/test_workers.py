"""Several workers end to end: the fake Bot API in webhook mode, PostgreSQL, one receiver and
three worker processes (`python -m bot receive`, `python -m bot work`), tables of all three
games played by players pressing random buttons of their panels while every few seconds one
worker is killed with SIGKILL and another started.

At the end: every table's stored actions are exactly the presses the bot accepted, in order;
every deal scored has its result message in its group (kept by the worker that scored it,
sent by another if that one was killed first);
every table's stored message and panels show its final state (a waiting player's panel as
the table's rhythm lets it: bot/telegram/rhythm.py); the inbox is empty; no call
was answered 429; no group had more than 20 sends and edits in any minute, no private chat
more than 3 in any 3 seconds (the fake server's own limits, which would answer 429); no edit
Telegram found unchanged but one repeating an edit answered just before a worker was killed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiohttp
from aiohttp import web

from bot.screens.look import Look
from bot.screens.table import panel, table_message
from bot.service import loading
from bot.service.services import LiveServices
from bot.service.tables import Table
from bot.service.users import Users
from bot.telegram.receiver import SECRET_HEADER, Receiver
from bot.ui.i18n import languages, translator
from bot.ui.screen import Screen
from engine.records import new_match
from storage import inbox
from storage.postgres import PostgresDatabase
from storage.store import Storage
from tests.bot.harness import PLAYABLE, acting, panel_of, playable, settings_env
from tests.fakebot import ApiCall, FakeTelegram, Message, User
from tests.fakebot.flood import EDITS, SENDS
from tests.fakebot.formatting import format_text
from tests.fakebot.model import CallbackAnswer, Chat
from tests.fakebot.world import CallbackQuery
from tests.postgres import LazyServer

TABLES = int(os.environ.get("WORKER_TABLES", "30"))
PLAY = float(os.environ.get("WORKER_PLAY_SECONDS", "45"))  # seconds of random presses
KILL_EVERY = 5.0
WORKERS = 3
GAMES = (("preferans", 3), ("seep", 4), ("joker", 4))
_RESULT = re.compile(r"Deal (\d+)\b")  # a deal's result message (its first words)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Played:
    game: str
    group: Chat
    users: list[User]
    accepted: list[tuple[int, str]] = field(default_factory=list)  # (seat, action) in order
    unanswered: int = 0
    # Every press: its button's data, its answer (None: not answered) and when it was made.
    presses: list[tuple[str, CallbackAnswer | None, float]] = field(default_factory=list)


class Cluster:
    """The receiver and the workers, as processes."""

    def __init__(self, env: dict[str, str], workers: int = WORKERS, *,
                 dying: str | None = None, how: str = "dying_worker") -> None:
        self.env = env
        self.count = workers
        self.dying = dying  # the first worker dies once it committed a call with this in it
        self.how = how  # ... as tests/bot/<how>.py has it
        self.receiver: asyncio.subprocess.Process | None = None
        self.workers: list[asyncio.subprocess.Process] = []
        self.kills = 0
        self.killed_at: list[float] = []  # when each kill was (the fake's clock)

    async def _start(self, role: str, env: dict[str, str] | None = None, *,
                     dying: str | None = None) -> asyncio.subprocess.Process:
        command = ["bot", role] if dying is None else [f"tests.bot.{self.how}", dying]
        return await asyncio.create_subprocess_exec(sys.executable, "-m", *command,
                                                    env=env or self.env)

    async def start(self, tg: FakeTelegram) -> None:
        self.receiver = await self._start("receive")
        for _ in range(600):  # 30 s: a loaded machine starts Python slowly
            if tg.world.webhook.url:
                break
            await asyncio.sleep(0.05)
        assert tg.world.webhook.url, "the receiver did not set the webhook"
        self.workers = [await self._start("work", dying=self.dying if not i else None)
                        for i in range(self.count)]

    async def add_worker(self, env: dict[str, str]) -> None:
        self.workers.append(await self._start("work", env))

    async def kill_one(self, rng: random.Random) -> None:
        await self.kill(rng.randrange(len(self.workers)))

    async def kill(self, victim: int) -> None:
        """SIGKILL a worker, and start another in its place."""
        self.workers[victim].send_signal(signal.SIGKILL)
        await self.workers[victim].wait()
        self.kills += 1
        self.killed_at.append(time.time())
        self.workers[victim] = await self._start("work")

    async def stop(self) -> None:
        for process in [*self.workers, *([self.receiver] if self.receiver else [])]:
            if process.returncode is None:
                process.send_signal(signal.SIGKILL)
                await process.wait()


async def _button(tg: FakeTelegram, group: Chat, label: str, *, timeout: float = 60) -> Message:
    """The group's last message once it has the button (table edits are paced)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(LookupError):
            message = tg.last_message(group)
            if any(b["text"] == label for b in message.buttons):
                return message
        await asyncio.sleep(0.2)
    raise AssertionError(f"no {label!r} button in {group.title}")


async def _press(tg: FakeTelegram, user: User, message: Message, **button: str) -> None:
    """Press and wait for the answer: the bot accepted (no alert)."""
    query = tg.press_nowait(user, message, **button)
    answer = await tg.answer_to(query, timeout=30)
    assert not answer.show_alert, f"{user.first_name} pressed {button}: {answer.text}"


async def _open(tg: FakeTelegram, played: Played) -> None:
    creator = played.users[0]
    tg.send(creator, played.group, f"/newgame {played.game}")
    lobby = await _button(tg, played.group, "✋ Join")
    for user in played.users[1:]:
        await _press(tg, user, lobby, text="✋ Join")
    await _press(tg, creator, await _button(tg, played.group, "▶ Start"), text="▶ Start")


def press_any(tg: FakeTelegram, played: Played, rng: random.Random, *,
              to_act: bool = False) -> tuple[CallbackQuery, str] | None:
    """A random press of a button of a player's panel (None: no panel has one now); ``to_act``:
    of the panel of a player who acts now (``acting``), not one whose buttons went."""
    users = acting(tg, played.users) if to_act else played.users
    panels = [(u, m) for u in users if (m := panel_of(tg, u)) is not None]
    if not panels:
        return None
    user, panel = rng.choice(panels)
    data = rng.choice(playable(panel))
    return tg.press_nowait(user, panel, data=data), data


async def _play(tg: FakeTelegram, played: Played, rng: random.Random, until: float, *,
                wait: float = 30) -> None:
    """Random presses of panel buttons, one at a time, each answered before the next (or
    ``wait`` seconds passed); each one is in ``played.presses``."""
    while time.monotonic() < until:
        pressed = press_any(tg, played, rng)
        if pressed is None:
            await asyncio.sleep(0.3)
            continue
        query, data = pressed
        at = time.monotonic()
        try:
            answer = await tg.answer_to(query, timeout=wait)
        except (TimeoutError, AssertionError):
            played.unanswered += 1
            played.presses.append((data, None, at))
            continue
        played.presses.append((data, answer, at))
        if data.startswith("a:") and not answer.show_alert:
            _, _, _, seat, action = data.split(":", 4)
            played.accepted.append(_text(int(seat), action))
        await asyncio.sleep(rng.uniform(0.1, 0.6))


async def _quiet(tg: FakeTelegram, url: str, *, timeout: float = 180) -> None:
    """The inbox is done, every kept one-off call was made (a killed worker's result, resumed
    by another, may wait for its group's minute) and nothing was sent for a while (paced
    edits and waiting panels included)."""
    storage = await Storage.open(url)
    try:
        deadline = time.monotonic() + timeout
        while True:
            left = await _left(storage)
            if not any(left):
                await tg.idle(quiet=6.0, timeout=timeout)
                if not any(await _left(storage)):
                    return
            assert time.monotonic() < deadline, \
                f"{left[0]} updates still in the inbox, {left[1]} kept calls not made"
            await asyncio.sleep(0.5)
    finally:
        await storage.close()


async def _left(storage: Storage) -> tuple[int, int]:
    """The updates left in the inbox and the kept calls not made yet."""
    async with storage.db.reading() as conn:
        updates = await inbox.pending(conn)
        calls = await conn.fetchone("SELECT count(*) FROM sends WHERE done_at IS NULL")
    return updates, int(calls[0]) if calls is not None else 0


def _text(seat: int, action: str) -> tuple[int, str]:
    """An action as its button names it, a discard's cards in one order."""
    kind, _, cards = action.partition(":")
    return seat, f"{kind}:{','.join(sorted(cards.split(',')))}" if kind == "discard" else action


def _pressed(record: dict[str, Any]) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """The record's actions a player pressed: not those the bot made for a seat because they
    were its only choice (bot/service/play.py ``only_choice``); and the seats whose panels
    say so (their last action of the deal in play was one: ``Table.forced``)."""
    pressed, forced = pressed_at(record)
    return list(pressed.values()), forced


def pressed_at(record: dict[str, Any]) -> tuple[dict[int, tuple[int, str]], dict[int, str]]:
    """``_pressed``, each action by the table's version it was pressed at (its button's)."""
    match = new_match(record)
    pressed: dict[int, tuple[int, str]] = {}
    forced: dict[int, str] = {}
    for deal in record["deals"]:
        match.start_deal(deal=deal)
        forced.clear()
        for item in deal.get("actions", []):
            seat, action = match.spec.decode_action(item)
            state = match.state
            assert state is not None
            if state.phase != "play" and len(state.to_act) == 1 \
                    and len(state.legal_actions(seat)) == 1:
                forced[seat] = action
            else:
                pressed[match.version] = _text(seat, action)
                forced.pop(seat, None)
            match.apply(seat, action)
    return pressed, forced


def _message(tg: FakeTelegram, chat: Chat | User, message_id: int | None) -> Message:
    found = [m for m in tg.messages(chat) if m.message_id == message_id]
    assert found, f"message {message_id} of {chat} is not there"
    return found[0]


def _look(message: Message) -> tuple[str, list[str | None]]:
    return message.text, [b.get("callback_data") or b.get("url") for b in message.buttons]


_BACK = "\n\n↩"  # the way back to the group's table message, a panel's last line


def _drawn(screen: Screen | None) -> tuple[str, list[str | None]]:
    """What a message showing ``screen`` shows: its text and its buttons."""
    assert screen is not None
    return (format_text(screen.text, "HTML", None).text,
            [b.data or b.url for row in screen.rows for b in row])


def _shown(message: Message, table: Table, forced: dict[int, str],
           draw: Callable[[], Screen | None], *, end: bool, waiting: bool = False,
           lingering: bool = False) -> None:
    """The message shows the table as stored, drawn by ``draw``, but for what only the
    drawing worker's memory knew: a new deal with no action yet, or only actions made for the
    seats (``end``), may show the end of the deal before above it; a panel may say that a
    seat's only choice was made for it (``forced``, unless the table was loaded anew since).
    A message the table's players cannot press (a
    waiting player's panel, the group's message) may show an older moment of the same deal:
    it waits for the table's beat (bot/telegram/rhythm.py); ``waiting``: a panel whose
    player has not pressed in this deal yet may still show the deal before (he sees its end
    with his first turn in this one); ``lingering``: a panel whose buttons went with its
    player's action, and wait for the round's end (pressed, they are refused as stale)."""
    text, buttons = _look(message)
    drawings = []
    for known in (forced, {}):
        table.forced = dict(known)
        drawings.append(_drawn(draw()))
    table.forced = {}
    for drawn in drawings:
        # The end of the deal before, and the way back to the group that comes with it.
        shown = text if _BACK in drawn[0] else text.split(_BACK)[0]
        if end and shown.endswith(drawn[0]):
            text = drawn[0]
    if (lingering or not any(b is not None and b[:2] in PLAYABLE for b in buttons)) and all(
            (text, buttons) != drawn for drawn in drawings):
        heading = drawings[0][0].split("\n", 1)[0]  # the game and the deal
        if waiting and heading not in text.split("\n"):
            heading = _deal_before(heading)
            assert re.match(heading, text), f"{text!r} is not of {heading!r}"
            return
        assert heading in text.split("\n"), f"{text!r} is not of {heading!r}"
        return
    assert (text, buttons) in drawings, f"{(text, buttons)} is none of {drawings}"


def _deal_before(heading: str) -> str:
    """A pattern of the heading of the deal before ``heading``'s, up to its number."""
    found = re.match(r"(.*?\bdeal )(\d+)\b", heading)
    assert found is not None, heading
    return re.escape(found.group(1)) + f"{int(found.group(2)) - 1}\\b"


def _turned(record: dict[str, Any]) -> set[int]:
    """The seats that pressed in the record's last deal (their panels show it since)."""
    before, _ = _pressed({**record, "deals": record["deals"][:-1]})
    return {seat for seat, _ in _pressed(record)[0][len(before):]}


def _only_forced(record: dict[str, Any]) -> bool:
    """The deal in play has actions, each made for a seat (its only choice): the end of the
    deal before stays above them."""
    deals = record["deals"]
    before, _ = _pressed({**record, "deals": deals[:-1]})
    return bool(deals and deals[-1].get("actions")) and len(_pressed(record)[0]) == len(before)


async def _check(tg: FakeTelegram, url: str, tables: list[Played]) -> None:
    """Each table's log against its accepted presses; its stored messages against what the
    bot draws of the table as stored (with the players' picks)."""
    storage = await Storage.open(url)
    svc = LiveServices(storage, Users(storage, tuple(languages())))
    try:
        rows = {row.chat_id: row for row in await storage.tables.open_tables()}
        for played in tables:
            row = rows[played.group.id]
            record = await storage.log.record(row.id)
            pressed, forced = _pressed(record)
            turned = _turned(record)
            assert pressed == played.accepted, (played.game, row.id)
            async with storage.db.reading() as conn:
                scored = {r[0] + 1 for r in await conn.fetch(  # deal_no counts from 0
                    "SELECT deal_no FROM deal_results WHERE table_id = ?", (row.id,))}
            told = {int(found.group(1)) for m in tg.messages(played.group)
                    if (found := _RESULT.match(m.text))}
            assert told == scored, (played.game, row.id, told, scored)
            table = await loading.table(svc, row.id)
            assert table is not None
            look = Look(svc.users.users, lambda p: f"https://t.me/{tg.bot.username}?start={p}",
                        svc.users.chats.get(row.chat_id), time.time())
            tr = translator(svc.users.language_of(row.chat_id))
            assert table.match is not None
            end = table.may_show_deal_end or (_only_forced(record) and bool(table.match.outputs))
            _shown(_message(tg, played.group, row.table_message_id), table, forced,
                   partial(table_message, table, tr, look), end=end)
            for seat in row.seats:
                user = next(u for u in played.users if u.id == seat.user_id)
                message = _message(tg, user, seat.panel_message_id)
                versions = {int(data.split(":")[2]) for data in playable(message)}
                acts = user.id in table.acting_users()
                assert (versions <= {row.last_seq}) if acts else row.last_seq not in versions, \
                    (played.game, row.id, seat.seat, versions)
                reader = translator(svc.users.language_of(user.id))
                _shown(message, table, forced, partial(panel, table, seat.seat, reader, look),
                       end=end, waiting=seat.seat not in turned,
                       lingering=bool(versions) and not acts)
    finally:
        await storage.close()


async def test_three_workers_killed_and_restarted(postgres: LazyServer) -> None:
    rng = random.Random(18)
    url = await postgres.new_database()
    port = _free_port()
    async with FakeTelegram() as tg:
        env = {**os.environ, **settings_env(
            tg, url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook", PORT=str(port),
            LOG_LEVEL="WARNING", GROUP_MESSAGES_PER_MINUTE="18")}
        tables = []
        for n in range(TABLES):
            game, seats = GAMES[n % len(GAMES)]
            users = [tg.add_user(f"{game[:3]}{n}p{i}") for i in range(seats)]
            tables.append(Played(game, tg.add_group(f"{game} {n}", users), users))
        cluster = Cluster(env)
        try:
            await cluster.start(tg)
            for played in tables:
                for user in played.users:
                    tg.press_start(user)
            await asyncio.gather(*(_open(tg, played) for played in tables))
            until = time.monotonic() + PLAY
            players = asyncio.gather(*(_play(tg, played, random.Random(rng.random()), until)
                                       for played in tables))
            while time.monotonic() < until - KILL_EVERY:
                await asyncio.sleep(KILL_EVERY)
                await cluster.kill_one(rng)
            await players
            await _quiet(tg, url)
            await _check(tg, url, tables)
        finally:
            await cluster.stop()
        assert cluster.kills >= PLAY // KILL_EVERY - 2
        # the games went on (about 4-6 accepted presses a table on a busy 2-core machine)
        assert sum(len(p.accepted) for p in tables) > TABLES * 3
        assert not [p for p in tables if p.unanswered], [p.unanswered for p in tables]
        refused = [c for c in tg.calls if c.status == 429]
        if refused:
            sent = [c for c in tg.calls if c.status == 200 and c.method in SENDS | EDITS]
            why = []
            for c in refused[:30]:
                overall = sum(1 for o in sent if c.time - 1.0 < o.time <= c.time)
                chat = sum(1 for o in sent if o.chat_id == c.chat_id and
                           c.time - (60.0 if int(c.chat_id or 0) < 0 else 3.0) < o.time <= c.time)
                why.append((c.chat_id, overall, chat))
            raise AssertionError(f"{len(refused)} calls answered 429: {why}")
        for played in tables:
            assert tg.peak_rate(played.group, period=60.0) <= 20
            for user in played.users:
                assert tg.peak_rate(user, period=3.0) <= 3
        # A worker that takes tables over redraws only what their chats do not show (by the
        # stored digest of what each message shows, stored also after an edit Telegram found
        # unchanged and when the table's lane went to another worker during the call). An
        # edit Telegram finds unchanged is left only where a worker was killed after Telegram
        # answered the same edit and before the digest was stored (at once, before anything
        # else: closing that window needs a digest stored before each call, a statement more
        # a call): such an edit repeats the message's last one, and a kill came between.
        unchanged = [c for c in tg.calls if "not modified" in (c.description or "")]
        unexplained = [c for c in unchanged if not _killed_after(tg, c, cluster.killed_at)]
        print(f"{len(unchanged)} edits found unchanged, each after a kill; {cluster.kills} kills")
        assert not unexplained, [_story(tg, c, cluster.killed_at) for c in unexplained]


def _killed_after(tg: FakeTelegram, call: ApiCall, kills: list[float]) -> bool:
    """The call repeats the last edit made of its message, and a worker was killed within a
    second after that one (before its digest was stored)."""
    where = (call.chat_id, call.params.get("message_id"))
    before = [c for c in tg.calls if c.time < call.time and c.status == 200
              and (c.chat_id, c.params.get("message_id")) == where]
    if not before:
        return False
    last = before[-1]
    same = all(last.params.get(k) == call.params.get(k) for k in ("text", "reply_markup"))
    return same and any(last.time < kill < min(call.time, last.time + 1.0) for kill in kills)


def _story(tg: FakeTelegram, call: ApiCall, kills: list[float]) -> list[Any]:
    """What happened to the call's message before it (seconds before the call: the calls,
    whether each showed the same; the kills), for a failure's message."""
    where = (call.chat_id, call.params.get("message_id"))
    same = [(round(c.time - call.time, 3), c.method, c.status,
             all(c.params.get(k) == call.params.get(k) for k in ("text", "reply_markup")))
            for c in tg.calls if (c.chat_id, c.params.get("message_id")) == where]
    return [where, same, [round(k - call.time, 3) for k in kills]]


async def test_receiver_stores_each_update_once_in_its_lane(postgres: LazyServer) -> None:
    """A redelivered update is stored once; a private chat's button goes to its table's lane;
    a post without the webhook's secret is refused."""
    url = await postgres.new_database()
    storage = await Storage.open(url)
    try:
        await storage.chats.save_user(7, display_name="Ann")
        table = await storage.tables.create_table(-100, "seep", creator_id=7, rules={},
                                                  seat_count=4)
        db = storage.db
        assert isinstance(db, PostgresDatabase)
        app = web.Application()
        app.router.add_post("/hook", Receiver(db, "s3cret").handle)
        port = _free_port()
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        press = {"update_id": 5, "callback_query": {
            "id": "q", "from": {"id": 7, "is_bot": False, "first_name": "Ann"},
            "chat_instance": "c", "data": f"a:{table.id}:3:0:play:7S",
            "message": {"message_id": 1, "date": 0, "chat": {"id": 7, "type": "private"}}}}
        command = {"update_id": 6, "message": {
            "message_id": 2, "date": 0, "text": "/stats", "from": press["callback_query"]["from"],
            "chat": {"id": 7, "type": "private"}}}
        try:
            async with aiohttp.ClientSession() as http:
                hook = f"http://127.0.0.1:{port}/hook"
                statuses = []
                for update, secret in ((press, "s3cret"), (press, "s3cret"),
                                       (command, "s3cret"), (command, "wrong")):
                    async with http.post(hook, json=update,
                                         headers={SECRET_HEADER: secret}) as response:
                        statuses.append(response.status)
        finally:
            await runner.cleanup()
        assert statuses == [200, 200, 200, 403]
        async with storage.db.reading() as conn:
            rows = await conn.fetch("SELECT update_id, lane FROM inbox ORDER BY update_id")
        assert [tuple(r) for r in rows] == [(5, "c-100:0"), (6, "p7")]
    finally:
        await storage.close()
