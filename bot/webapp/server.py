"""The Mini App's web server (aiohttp), run in the bot's process (or in every worker's: see
``relay``): the page and its assets,
each reader's page of a table (``/api/page``, and live over server-sent events at
``/api/events``), presses (``/api/press``), the score and rules (``/api/sheet``) and the
scoresheet's picture (``/api/sheet.png``).

Every request carries Telegram's ``initData`` (a query parameter, or a field of a press's
JSON body); one that does not prove its user gets 401 and changes nothing. A press goes
through the same use case as a keyboard's button (``presses.press``: a game's action, "I am
back", or a button of a scorekept deal's entry), and its outcome is shown the same way
(``publish``: the group message and the panels are redrawn, and so are the open Mini Apps:
``Watch.published`` is its second sink).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.bounds import MAX_ID, ident
from bot.games import FRONT
from bot.screens import refusals
from bot.screens.sheet import draw_sheet
from bot.service import analysis, loading, play, presses
from bot.service.outcome import Refusal
from bot.service.ports import Members, Services
from bot.service.scorekeeping import lobby
from bot.service.tables import Table, is_public
from bot.ui.callbacks import BadCallback, unpack
from bot.ui.i18n import Translate, translator
from bot.webapp.answers import answered
from bot.webapp.auth import (
    MAX_AGE,
    InitData,
    Nonces,
    Unauthorized,
    claimed_language,
    validate,
)
from bot.webapp.limits import KEEPALIVE as IDLE
from bot.webapp.limits import Caps, GuardedSite, raise_descriptor_limit, server_logger
from bot.webapp.page import last_analysis, page, sheet, texts
from bot.webapp.quotas import Pictures, Refused, Streams
from bot.webapp.relay import Relay
from bot.webapp.watch import Watch
from storage.outage import impatient, of_outage, unavailable
from storage.postgres import PostgresDatabase

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

STATIC = Path(__file__).parent / "static"
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream
PRESS_KINDS = ("a", "r", "k")  # an engine action of the reader's seat; "I am back"; an entry's
MAX_ACTION = 48  # characters of an action's text (every game's fit in callback data)
MAX_BODY = 4096  # bytes of a press's body (its initData is some hundreds)
BODY_TIMEOUT = 10.0  # seconds a press's body may take to arrive
BODY_FIELDS: dict[str, Any] = {  # a press's fields (all optional) and their types
    "initData": str, "nonce": str, "table": int | str, "kind": str, "version": int,
    "seat": int, "action": str}
STATUS = {429: web.HTTPTooManyRequests, 503: web.HTTPServiceUnavailable}
# The page may load only what this server serves (no CDN), and be framed by Telegram Web.
POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "connect-src 'self'; frame-ancestors https://web.telegram.org https://*.telegram.org")


@dataclass(frozen=True)
class Reader:
    """Who asks (proved by initData), in his language, about which table."""

    init: InitData
    language: str
    tr: Translate
    table: Table
    member: bool  # seated, or a member of the table's group (not only a holder of its link)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d,
                                                                             ensure_ascii=False))


class WebApp:
    def __init__(self, svc: Services, token: str, members: Members, *, port: int,
                 host: str = "0.0.0.0", caps: Caps | None = None,
                 workers: PostgresDatabase | None = None) -> None:
        """``workers``: served by every worker on that database (``relay``)."""
        self.svc, self.token, self.members = svc, token, members
        self.port, self.host = port, host
        self.caps = caps or Caps.of(raise_descriptor_limit())
        self.watch = Watch()
        self.relay = None if workers is None else Relay(workers, svc, self.watch)
        self.nonces = Nonces()
        self.streams = Streams(self.caps.streams, self.caps.per_user)
        self.pictures = Pictures()
        self.closing = False
        self.app = web.Application(client_max_size=MAX_BODY, middlewares=[self._outage])
        self.app.add_routes([
            web.get("/", self.index),
            web.get("/api/page", self.one_page),
            web.get("/api/events", self.events),
            web.post("/api/press", self.press),
            web.get("/api/sheet", self.sheet),
            web.get("/api/sheet.png", self.picture),
            web.get("/api/analysis", self.analysis),
            web.static("/static", STATIC),
        ])
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, shutdown_timeout=1.0, access_log=None,
                                     keepalive_timeout=IDLE, logger=server_logger())
        await self._runner.setup()
        if self.relay is not None:
            await self.relay.start()
        await GuardedSite(self._runner, self.host, self.port, cap=self.caps.connections,
                          reuse_port=self.relay is not None).start()
        log.info("the Mini App listens on %s:%d (at most %d connections, %d event streams)",
                 self.host, self.port, self.caps.connections, self.caps.streams)

    async def stop(self) -> None:
        self.closing = True
        self.watch.wake_all()
        if self._runner is not None:
            await self._runner.cleanup()
        if self.relay is not None:
            await self.relay.stop()

    @web.middleware
    async def _outage(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The database out of reach: a request is answered at once "not saved, try again"
        (503: nothing was stored), said once as the outage (storage/outage.py); an event
        stream waits it out instead (a browser opens none again after a 503)."""
        if request.path == "/api/events":
            return await handler(request)
        try:
            with impatient():
                return await handler(request)
        except Exception as exc:
            if not of_outage(exc):
                raise
            fields = await _body(request) if request.method == "POST" else request.query
            raw = (fields or {}).get("initData")
            tr = translator(self.svc.users.normalize(claimed_language(raw)))
            return _json({"ok": False, "text": refusals.text(Refusal("not_stored"), tr)}, 503)

    # -- who asks ---------------------------------------------------------------------------

    async def _reader(self, fields: Mapping[str, Any], *, acting: bool = False) -> Reader:
        """The reader of a request; 401 without valid initData, 400/404 without a table. A
        table not loaded yet is loaded now (its first touch, as a keyboard's press does); a
        game that has ended is read as it ended (its last look and score), unless ``acting``."""
        raw = fields.get("initData")
        try:
            init = validate(raw if isinstance(raw, str) else "", self.token)
        except Unauthorized as exc:
            raise self._unauthorized(str(exc), raw) from None
        users = self.svc.users
        known = await users.load(init.user.id)
        language = users.language_of(init.user.id) if known \
            else users.normalize(init.user.language_code)
        tr = translator(language)
        table_id = _table_id(init.start_param or fields.get("table"))
        if table_id is None:
            raise _refused(tr, Refusal("bad_button"), web.HTTPBadRequest)
        if self.relay is not None:
            table = await self.relay.looks.table(table_id, acting=acting)
        else:
            table = await loading.table(self.svc, table_id, ended=not acting)
        if table is None:
            raise _refused(tr, Refusal("table_closed"), web.HTTPNotFound)
        member = table.seat_of(init.user.id) is not None \
            or await self.members(table.chat_id, init.user.id)
        if not member and not is_public(table.row.settings):
            raise _refused(tr, Refusal("members_only"), web.HTTPForbidden)
        return Reader(init, language, tr, table, member)

    def _unauthorized(self, why: str, raw: Any) -> web.HTTPUnauthorized:
        """401, said in the language the (unproved) initData claims."""
        log.info("Mini App request refused: %s", why)
        tr = translator(self.svc.users.normalize(claimed_language(raw)))
        return web.HTTPUnauthorized(text=json.dumps({"ok": False, "text": _unproved(tr)},
                                                    ensure_ascii=False),
                                    content_type="application/json")

    async def _page(self, reader: Reader) -> dict[str, Any]:
        table = reader.table
        if self.relay is not None:  # as stored now
            table = await self.relay.looks.table(table.id) or table
        keeper = table.keeper.draft.keeper if table.keeper is not None else None
        if keeper is not None and keeper not in self.svc.users.users:  # his name is shown
            await self.svc.users.load(keeper)
        async with table.lock:  # a move is shown once it is stored
            drawn = page(table, reader.init.user.id, reader.tr, self.svc.users.users)
        if not reader.member:  # the analysis shows the hands of a deal: its group's only
            drawn["analysis"] = False
        return {**drawn, "texts": texts(reader.tr), "now": time.time()}

    # -- routes -----------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={
            "Content-Security-Policy": POLICY, "Cache-Control": "no-cache"})

    async def one_page(self, request: web.Request) -> web.Response:
        return _json(await self._page(await self._reader(request.query)))

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The reader's page now, and again after every change of the table, while its
        initData is good; then an ``expired`` event (the page asks to be reopened)."""
        reader = await self._reader(request.query)
        try:
            with self.streams.held(reader.init.user.id):
                return await self._stream(request, reader)
        except Refused as refused:
            raise _refused(reader.tr, Refusal(refused.code), STATUS[refused.status]) from None

    async def _stream(self, request: web.Request, reader: Reader) -> web.StreamResponse:
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                             "Cache-Control": "no-cache",
                                             "X-Accel-Buffering": "no"})
        await stream.prepare(request)
        table_id, shown = reader.table.id, -1
        good_until = reader.init.auth_date + MAX_AGE
        try:
            while not self.closing:
                left = good_until - time.time()
                if left <= 0:
                    said = json.dumps({"text": _unproved(reader.tr)}, ensure_ascii=False)
                    await stream.write(f"event: expired\ndata: {said}\n\n".encode())
                    break
                tick = self.watch.tick(table_id)
                if tick != shown:
                    try:
                        data = json.dumps(await self._page(reader), ensure_ascii=False)
                    except Exception as exc:  # a look another request read, impatient
                        if not unavailable(exc):
                            raise
                        await asyncio.sleep(1.0)
                        continue
                    shown = tick
                    await stream.write(f"data: {data}\n\n".encode())
                elif not await self.watch.after(table_id, shown, min(KEEPALIVE, left)):
                    await stream.write(b": still here\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the Mini App was closed, or the server stops
        return stream

    async def press(self, request: web.Request) -> web.Response:
        """A tap: an engine action for the reader's seat (``kind`` "a": ``version``, ``seat``,
        ``action``), "I am back" (``r``), or a button of a scorekept deal's entry (``k``:
        ``action``, its callback data after ``k:<table>:``), through the keyboards' use
        case."""
        body = await _body(request)
        if body is None:
            tr = translator(self.svc.users.normalize(None))
            raise _refused(tr, Refusal("bad_button"), web.HTTPBadRequest)
        reader = await self._reader(body, acting=True)
        try:
            self.nonces.use(reader.init, str(body.get("nonce", "")))
        except Unauthorized as exc:
            raise self._unauthorized(str(exc), body["initData"]) from None
        kind, parts = body.get("kind"), _parts(body, reader.table.id)
        if kind not in PRESS_KINDS or parts is None:
            raise _refused(reader.tr, Refusal("bad_button"), web.HTTPBadRequest)
        if self.relay is not None:  # through the table's lane, in its worker
            done = await self.relay.tap(reader.table.id, reader.init.user, kind, parts,
                                        reader.init.hash, str(body["nonce"]), reader.tr)
            if done is None:
                raise self._unauthorized("the tap was sent before", body["initData"])
            status, answer = done
            return _json(answer, status)
        user = await self.svc.users.seen(reader.init.user)
        out = await presses.press(self.svc, reader.table.id, user, kind, parts, FRONT)
        self.svc.publish(out)
        status, answer = answered(out, reader.tr, reader.table.names)
        return _json(answer, status)

    async def sheet(self, request: web.Request) -> web.Response:
        """The score, the settlement and the rules (asked for when their tab is opened)."""
        reader = await self._reader(request.query)
        async with reader.table.lock:
            return _json(sheet(reader.table, reader.tr))

    async def analysis(self, request: web.Request) -> web.Response:
        """The last finished deal's analysis (asked for when its tab is opened): it shows
        the deal's hands, so a public table's watcher from outside its group gets none."""
        reader = await self._reader(request.query)
        if not reader.member:
            raise _refused(reader.tr, Refusal("members_only"), web.HTTPForbidden)
        table = reader.table
        match = table.match
        number = 0 if match is None else match.deal_count - match.in_deal
        found = None
        if number and table.spec.analyse is not None:
            found = await analysis.of_deal(self.svc, table.id, number)
        return _json(last_analysis(table, reader.tr, found, number))

    async def picture(self, request: web.Request) -> web.Response:
        """The scoresheet as the group's /sheet draws it (drawn once per version)."""
        reader = await self._reader(request.query)
        table = reader.table
        if table.match is None:
            raise _refused(reader.tr, Refusal("table_closed"), web.HTTPNotFound)

        async def draw() -> bytes:
            async with table.lock:
                assert table.match is not None
                match = play.snapshot(table.match)
            return await asyncio.to_thread(draw_sheet, match, reader.tr)

        try:
            png = await self.pictures.get(reader.init.user.id,
                                          (table.id, table.match.version, reader.language), draw)
        except Refused as refused:
            raise _refused(reader.tr, Refusal(refused.code), STATUS[refused.status]) from None
        return web.Response(body=png, content_type="image/png")


def _unproved(tr: Translate) -> str:
    return tr("This Mini App cannot prove who you are (or it was opened too long ago): "
              "close it and open it again from the bot.")


def _table_id(wanted: Any) -> int | None:
    """A table id as the page sends it (a number, or its digits); None if it is none."""
    return ident(str(wanted)) if type(wanted) in (str, int) else None


async def _body(request: web.Request) -> dict[str, Any] | None:
    """A press's JSON body if it is one: an object of known fields with plain values, within
    ``MAX_BODY`` bytes and ``BODY_TIMEOUT`` seconds; else None (400, never an error)."""
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            raw = await request.read()
        body = json.loads(raw)
    except (TimeoutError, ValueError, RecursionError, web.HTTPRequestEntityTooLarge):
        return None
    if not isinstance(body, dict) or any(
            key not in BODY_FIELDS or not isinstance(value, BODY_FIELDS[key] | None)
            for key, value in body.items()):
        return None
    return body


def _parts(body: Mapping[str, Any], table_id: int) -> tuple[str, ...] | None:
    """A press's parts as a button's callback data carries them; None if malformed (or, for
    an entry's, not a button of the entry: the Mini App shows no lobby)."""
    if body.get("kind") == "r":
        return ()
    if body.get("kind") == "k":
        action = body.get("action")
        try:
            parts = unpack(f"k:{table_id}:{action}").parts if isinstance(action, str) else ()
        except BadCallback:
            return None
        return parts if parts and parts[0] not in lobby.OPS else None
    version, seat, action = body.get("version"), body.get("seat"), body.get("action")
    if type(version) is not int or type(seat) is not int or not 0 <= version <= MAX_ID \
            or not 0 <= seat <= MAX_ID:
        return None
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION \
            or not action.isascii() or not action.isprintable():
        return None
    return str(version), str(seat), action


def _refused(tr: Translate, refusal: Refusal, error: type[web.HTTPError]) -> web.HTTPError:
    return error(text=json.dumps({"ok": False, "text": refusals.text(refusal, tr)},
                                 ensure_ascii=False), content_type="application/json")
