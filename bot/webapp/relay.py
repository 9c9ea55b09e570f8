"""The Mini App with several workers (``python -m bot work``): every worker serves it, on
the same port (``SO_REUSEPORT``), whichever worker plays the table.

- Reading: a worker draws a table as stored (``Looks``: a look loaded from storage, kept
  until the table changes), not the live table another worker may hold.
- Redraws: the Mini App is a sink of the service's ``publish`` (``Broadcast``); the tables a
  unit of work changed are told to every process in the unit's own transaction
  (``notices.TABLES``: delivered at its commit, never for a unit rolled back), and each
  process's open event streams draw them anew.
- Taps: a tap goes through the table's lane like a button press. The process that took the
  request stores it in the inbox as an update of the table's lane (its id made of the
  opening's initData and the tap's nonce: a tap sent again, to any worker, is stored once
  and refused), the worker of the lane does it in a unit of work (``do_tap``) and sends its
  answer back in the unit's transaction (``notices.TAPS``), which the request waits for. A
  worker killed in the middle loses nothing: the tap is pending again, another does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import uuid
from dataclasses import asdict
from typing import Any

from bot.games import FRONT
from bot.service import loading, presses
from bot.service.outcome import Outcome
from bot.service.ports import Services
from bot.service.tables import Table
from bot.service.users import Person
from bot.ui.i18n import Translate, translator
from bot.webapp.answers import answered
from bot.webapp.watch import Watch
from storage import inbox, notices
from storage.listening import Listener
from storage.outage import unavailable
from storage.postgres import PostgresDatabase
from storage.rows import OPEN_STATUSES
from storage.sql import Conn

BODY = "miniapp"  # the inbox body's key of a tap (a Telegram update has none)
TAP_IDS = 1 << 62  # taps' update ids: from here up, above any of Telegram's
RENEW = 0.5  # seconds between looks at the listening connection
LOOKS_KEPT = 1_000  # tables' looks a worker keeps (the least recently read go first)


class Looks:
    """The tables as stored, for the Mini App's readers, each kept until it changes; a change
    is read once however many streams draw it."""

    def __init__(self, svc: Services, watch: Watch, *, most: int = LOOKS_KEPT) -> None:
        self.svc, self.watch, self.most = svc, watch, most
        self._kept: dict[int, tuple[int, Table]] = {}  # table -> (its tick when read, look)
        self._reading: dict[tuple[int, int], asyncio.Future[Table | None]] = {}

    async def table(self, table_id: int, *, acting: bool = False) -> Table | None:
        """``acting``: an open table only."""
        tick = self.watch.tick(table_id)
        kept = self._kept.pop(table_id, None)
        if kept is None or kept[0] != tick:  # read again: a change since, or never read
            key = (table_id, tick)
            reading = self._reading.get(key)
            if reading is None:
                reading = self._reading[key] = asyncio.ensure_future(
                    loading.look(self.svc, table_id))
                reading.add_done_callback(lambda _: self._reading.pop(key, None))
            found = await asyncio.shield(reading)
            if found is None:
                return None
            kept = (tick, found)  # a change while reading: read again next time
        self._kept[table_id] = kept  # the most recently read last
        while len(self._kept) > self.most:
            del self._kept[next(iter(self._kept))]
        look = kept[1]
        return None if acting and look.status not in OPEN_STATUSES else look


class Broadcast:
    """The Mini App's sink of ``publish`` in a worker: the tables changed, told to every
    process when the unit of work commits (``flush``, in its transaction)."""

    def __init__(self) -> None:
        self.pending: set[int] = set()

    def __call__(self, outcome: Outcome) -> None:
        self.pending.update(outcome.changed)

    async def flush(self, conn: Conn) -> None:
        if self.pending:
            ids, self.pending = sorted(self.pending), set()
            await notices.notify(conn, notices.TABLES, ",".join(map(str, ids)))


class Relay:
    def __init__(self, db: PostgresDatabase, svc: Services, watch: Watch) -> None:
        self.db, self.svc, self.watch = db, svc, watch
        self.looks = Looks(svc, watch)
        self.broadcast = Broadcast()
        self._waiting: dict[str, asyncio.Future[tuple[int, dict[str, Any]]]] = {}
        self._listener = Listener(db, {notices.TABLES: self._changed,
                                       notices.TAPS: self._answered})
        self._renewing: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._listener.renew()
        self._renewing = asyncio.create_task(self._renew())

    async def _renew(self) -> None:
        """Listen again after a restart of the server; every table is drawn anew then (its
        changes meanwhile were not heard)."""
        while True:
            await asyncio.sleep(RENEW)
            if await self._listener.renew():
                self.watch.all_changed()

    async def stop(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        await self._listener.close()

    def _changed(self, payload: str) -> None:
        for table_id in payload.split(","):
            self.watch.changed(int(table_id))

    def _answered(self, payload: str) -> None:
        answer = json.loads(payload)
        waiting = self._waiting.get(answer.pop("reply"))
        if waiting is not None and not waiting.done():
            waiting.set_result((answer.pop("status"), answer))

    async def tap(self, table_id: int, person: Person, kind: str, parts: tuple[str, ...],
                  opening: str, nonce: str, tr: Translate) -> tuple[int, dict[str, Any]] | None:
        """Store the tap in the table's lane and wait for its answer (status, body); None: the
        tap was stored before (sent again)."""
        lane = await self._lane(table_id)
        if lane is None:
            return answered(Outcome().refuse("table_closed"), tr, ())
        reply = uuid.uuid4().hex
        digest = hashlib.sha256(f"{opening}:{nonce}".encode()).digest()
        update_id = TAP_IDS + int.from_bytes(digest[:8]) % TAP_IDS
        body = json.dumps({BODY: {"reply": reply, "table": table_id, "user": asdict(person),
                                  "kind": kind, "parts": list(parts)}})
        waiting = self._waiting[reply] = asyncio.get_running_loop().create_future()
        try:
            if not await self.db.write(lambda conn: inbox.put(conn, update_id, lane, body)):
                return None
            return await asyncio.wait_for(waiting, inbox.LATE + inbox.MARGIN)
        except TimeoutError:  # never done now (``inbox.LATE``), unless it was already
            if await self._done(update_id):  # its answer not heard (a restart of the server)
                return 200, {"ok": True, "text": ""}
            return answered(Outcome().refuse("not_saved"), tr, ())
        finally:
            self._waiting.pop(reply, None)

    async def _done(self, update_id: int) -> bool:
        try:
            async with self.db.reading() as conn:
                return update_id in await inbox.done(conn, [update_id])
        except Exception as exc:
            if unavailable(exc):
                return False  # it cannot be done while the database is out of reach
            raise

    async def _lane(self, table_id: int) -> str | None:
        async with self.db.reading() as conn:
            return await inbox.lane_of_table(conn, table_id)


async def do_tap(svc: Services, tap: dict[str, Any]) -> None:
    """A tap stored in a lane, done by its worker as a unit of work: the keyboards' use case,
    its outcome published, its answer sent back when the unit commits."""
    user = await svc.users.seen(Person(**tap["user"]))
    table_id = tap["table"]
    out = await presses.press(svc, table_id, user, tap["kind"], tuple(tap["parts"]), FRONT)
    svc.publish(out)
    table = svc.tables.get(table_id)
    status, answer = answered(out, translator(svc.users.language_of(user.id)),
                              table.names if table is not None else ())
    said = json.dumps({"reply": tap["reply"], "status": status, **answer}, ensure_ascii=False)
    await svc.store.db.write(lambda conn: notices.notify(conn, notices.TAPS, said))
