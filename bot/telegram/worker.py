"""``python -m bot work``: one of several worker processes on PostgreSQL.

A worker takes the updates the receiver stored (storage/inbox.py) one unit of work at a
time: it claims a lane's oldest pending update (the lane's advisory lock and the update's
row, till its transaction ends), feeds it to the PTB Application (``process_update``) with
every write of it inside that one transaction (``PostgresDatabase.bound``; the claim marked
it done in it) and every screen, message and press answer it makes held by the outbox
(``Outbox.holding``), and commits; only then is any of it sent. If anything fails the
transaction rolls back, nothing is sent, and what this worker held of the lane in memory is
forgotten (reloaded at the next touch). A worker killed at any moment lets its locks go with
its connection: the update is pending again, and another worker does it.

The lanes are shared equally by the live workers (storage/inbox.py): each lane has a home,
and a worker that holds fewer than its share takes the missing ones from those that hold
more at its heartbeat (a lane without a live home goes by rendezvous hashing); a worker
takes the updates of its own lanes, and those of any lane whose update waited
``STEAL_AFTER`` seconds (a frozen worker's), woken by the receiver's notice to the lane's
home. A lane moves at its next update. A worker that finds a lane's version moved
on since it worked there forgets what it holds of it, and what it drew of the lane's tables
before is not sent: screens go out only while the lane's version is the sending worker's
(``ours``), and a unit of work in the lane waits for those being sent. Each second it also
adopts the tables of dead workers' lanes that have work to do (messages behind, a deal to
deal, a robot to move): a table whose drawing worker died is redrawn by another.

The one-off calls a unit of work sends (messages, pictures, press answers) are kept in the
unit's transaction (``Outbox.keep``, storage/sends.py) and marked done once Telegram
answered; each second a worker also makes those that dead workers left (``Outbox.resume``:
a press's answer only while Telegram takes it).

A unit of work may also be a Mini App's tap stored in a lane (``bodies``: its body is not a
Telegram update), and ends with what the Mini App tells the other processes
(``before_commit``: bot/webapp/relay.py).

Timers are rows (bot/service/timers.py): every worker polls them and sets jobs for
those due soon; ``LaneJobs`` (bot/telegram/lane_jobs.py) runs each table's job as a unit of
work in the table's lane, and only in the worker that worked there last (or in any, if that
one is dead): the others let it be, and the timer's row, claimed by the job that fires it,
is used once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import traceback
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncpg
from asyncpg.transaction import Transaction
from telegram import Update

from bot.monitoring.metrics import DEAD_LETTERS
from bot.service import loading
from bot.service.ports import Services
from bot.telegram import heartbeat, leftovers
from bot.telegram.context import App
from bot.telegram.late import InHand, Press, not_saved
from bot.telegram.presenter import Presenter
from bot.telegram.sending.held import Held
from bot.telegram.sending.ports import Ask
from storage import budgets, inbox
from storage.inbox import table_lane
from storage.listening import Listener
from storage.metrics import POSTGRES_COMMIT
from storage.outage import unavailable
from storage.postgres import PgConn, PostgresDatabase

log = logging.getLogger(__name__)

DEAD_AFTER = inbox.DEAD_AFTER  # seconds without a heartbeat after which a worker is dead
SHARED_AFTER = 2 * DEAD_AFTER  # ... and after which its share of the calls a second is taken
STEAL_AFTER = 3.0  # seconds an update may wait for its lane's busy worker
HEARTBEAT = heartbeat.EVERY
POLL = 0.5  # seconds between looks at the inbox when no notification comes
GIVE_UP = 5  # attempts at an update before it is set aside


class Worker:
    def __init__(self, app: App, db: PostgresDatabase, *, name: str | None = None) -> None:
        self.app = app
        self.db = db
        self.id = name or uuid.uuid4().hex[:12]
        self.versions: dict[str, int] = {}  # lane -> its version after this worker's last unit
        self.turn = asyncio.Lock()  # one unit of work at a time
        self.wake = asyncio.Event()
        self.handled = 0  # updates done (for the benchmark)
        self.more = False  # the last claim saw more to do (no claim that finds none after it)
        self.beaten_at: float | None = None  # time.monotonic() of the last heartbeat
        self.pruned_at: float | None = None  # time.monotonic() of the last prune
        # Sends at once that hold a connection for their lane's row (``ours``): under
        # half the pool, the rest left to the unit of work, the listener and what sends write.
        self.sending = asyncio.Semaphore(max(1, db.pool.get_max_size() // 2 - 1))
        # Units of work that are not Telegram updates (a Mini App's tap), by their body's key.
        self.bodies: dict[str, Callable[[Any], Awaitable[None]]] = {}
        # What a unit of work does last in its transaction (the Mini App's notice of redraws).
        self.before_commit: list[Callable[[PgConn], Awaitable[None]]] = []
        self.in_hand = InHand(db.outage, lambda press: not_saved(self.presenter, press))
        self.doubts: list[tuple[str, list[int]]] = []  # units whose COMMIT went unanswered

    @property
    def svc(self) -> Services:
        svc = self.app.bot_data.services
        assert svc is not None
        return svc

    @property
    def presenter(self) -> Presenter:
        presenter = self.app.bot_data.presenter
        assert presenter is not None
        return presenter

    # -- the loop -------------------------------------------------------------------------

    async def run(self, stopping: asyncio.Event) -> None:
        await self.beat(balance=False)  # no lanes taken before it takes updates
        await asyncio.sleep(2 * HEARTBEAT)  # the others count this one in their shares first
        await self.beat()

        listener = Listener(self.db, {"cardtable_inbox": self._stored})
        await listener.renew()
        beating = asyncio.create_task(heartbeat.beating(
            self.beat, lambda: leftovers.tend(self), stopping, every=HEARTBEAT))
        log.info("worker %s takes updates", self.id)
        try:
            while not stopping.is_set():
                try:
                    self.wake.clear()  # a notice from now on: look again
                    if await self.step() and (self.more or self.wake.is_set()):
                        continue
                except Exception as exc:
                    if not unavailable(exc):
                        raise
                    self.in_hand.failed()
                    await self.db.outage.wait(exc)  # logged once; DatabaseGone past its limit
                    continue
                await listener.renew()  # after a restart of the server
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), POLL)
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating
            await self.in_hand.close()
            await listener.close()
            await self.presenter.outbox.drain()  # before leaving: then the others take what is left
            await self.db.write(lambda conn: inbox.leave(conn, self.id))

    def _stored(self, home: str) -> None:
        """An update was stored: this worker looks if it is the lane's home, or if the lane
        has none (``inbox.put``); the others look at their next poll anyway."""
        if home in ("", self.id):
            self.wake.set()

    async def beat(self, *, balance: bool = True) -> None:
        """Alive; its share of the calls a second follows the workers seen in ``SHARED_AFTER``
        (one whose loop stalled a few seconds sends again when it wakes); ``balance``: it
        takes lanes from the others if it holds fewer than its share (``inbox.heartbeat``)."""
        live, took = await self.db.write(lambda conn: inbox.heartbeat(
            conn, self.id, counted_after=SHARED_AFTER, dead_after=DEAD_AFTER,
            balance=balance))
        self.beaten_at = time.monotonic()
        if took:
            self.wake.set()  # their updates' notices went to the worker before
        self.presenter.outbox.budgets.share(live)

    def since_beat(self) -> float | None:
        """Seconds since this worker's last heartbeat (None: none yet)."""
        return None if self.beaten_at is None else time.monotonic() - self.beaten_at

    # -- units of work ----------------------------------------------------------------------

    async def step(self) -> bool:
        """Do one pending update if there is one a lane lets this worker take (what an outage
        left first: ``leftovers.settle``). The database out of reach: what ``unavailable``
        tells, the update pending."""
        await leftovers.settle(self)
        async with self.turn, self.db.connection() as raw:
            conn = PgConn(raw)
            transaction = raw.transaction()
            await transaction.start()
            try:
                claimed = await inbox.claim(conn, self.id, dead_after=DEAD_AFTER,
                                            steal_after=STEAL_AFTER)
            except BaseException:
                await transaction.rollback()
                raise
            self.more = claimed is not None and claimed.more
            if claimed is None:
                await transaction.rollback()
                return False

            body = json.loads(claimed.body)
            press = Press.of(body)
            self.in_hand.take(press, claimed.age)

            async def process() -> None:
                key = next((k for k in self.bodies if k in body), None)
                if (key is not None or press is not None) and claimed.age > inbox.LATE:
                    log.info("update %s: waited %.0f s, not done", claimed.update_id,
                             claimed.age)
                    if press is not None and press != self.in_hand.told:
                        await not_saved(self.presenter, press)
                elif key is not None:
                    await self.bodies[key](body[key])
                else:
                    await self.app.process_update(Update.de_json(body, self.app.bot))

            error = await self._unit(raw, transaction, claimed.lane, process,
                                     advanced=claimed)
            self.in_hand.done()
            if error is None:
                self.handled += 1
                return True
            self.more = True  # (it is pending again)
            log.warning("worker %s: update %s failed in lane %s (attempt %d of %d)", self.id,
                        claimed.update_id, claimed.lane, claimed.attempts + 1, GIVE_UP)
            if await self.db.write(lambda c: inbox.failed(c, claimed.update_id, error,
                                                          give_up=GIVE_UP)):
                DEAD_LETTERS.inc()
                log.error("update %s set aside after %d attempts (a dead letter):\n%s",
                          claimed.update_id, GIVE_UP, error)
            return True

    async def _unit(self, raw: asyncpg.Connection, transaction: Transaction, lane: str,
                    work: Callable[[], Awaitable[None]], *,
                    advanced: inbox.Claimed | None = None) -> str | None:
        """Do ``work`` in ``lane`` (its lock held) in the open transaction, commit it, then
        send what it showed (``advanced``: the claim that advanced the lane, with the rows it
        read). If it failed and was rolled back: its traceback."""
        conn = PgConn(raw)
        outbox = self.presenter.outbox
        before = self.versions.get(lane)
        held: Held | None = None
        committing = False
        try:
            version = advanced.version if advanced else await inbox.advance(
                conn, lane, self.id, dead_after=DEAD_AFTER)
            taken_over = before != version - 1  # another worker worked here since
            users, chats = self._concerned(lane)
            if taken_over:
                self._forget(lane)
            read = None if advanced is None else (advanced.users, advanced.chats)
            with outbox.holding() as held, self.db.bound(raw):
                await self.svc.users.reread(users, chats, read)
                if taken_over:
                    await self._catch_up(lane)
                await work()
                await outbox.keep(held)
                for hook in self.before_commit:
                    await hook(conn)
            self.versions[lane] = version  # before the commit lets this worker's sends go
            with POSTGRES_COMMIT.time():
                committing = True
                await transaction.commit()
        except Exception as exc:
            with contextlib.suppress(Exception):
                await transaction.rollback()
            self._forget(lane)
            self.versions.pop(lane, None)  # the next unit here catches the lane up
            if unavailable(exc):
                if held is not None and committing:  # went through, or not: ``leftovers.settle``
                    self.doubts.append((lane, held.tokens()))
                raise  # not the update's fault: no attempt counted
            return traceback.format_exc()
        outbox.release(held)
        return None

    async def _catch_up(self, lane: str) -> None:
        """The lane's tables with work to do at once are loaded and do it: those whose
        messages may be behind what is stored are redrawn (the worker before may not have
        sent them, or not all: what it had left is not sent now)."""
        async with self.db.reading() as conn:
            ids = await inbox.tables_of(conn, lane)
        out, problems = await loading.wake(self.svc, await self.svc.store.tables.waking(ids))
        self.svc.publish(out)
        for problem in problems:
            log.error("needs attention: %s", problem)

    @contextlib.asynccontextmanager
    async def ours(self, chat_id: int, thread_id: int,
                   ask: Ask | None = None) -> AsyncIterator[bool]:
        """Inside: whether what this worker drew of the chat topic's tables may be sent: no
        other worker worked in their lane since this one did, and none starts to before the
        end (it waits; so does this for a unit under way in the lane). A lane this worker
        never worked in: yes (a table drawn from another lane). ``ask``: the call is counted
        in the shared budget by the same statement; what this task writes inside joins the
        transaction (what the call showed, with its budget's answer: seen by that write)."""
        lane = table_lane(chat_id, thread_id)
        async with self.sending, self.db.connection() as raw, raw.transaction():
            conn = PgConn(raw)
            if ask is None:
                version = await inbox.sending(conn, lane)
            else:
                ask.token, ask.wait, version = await budgets.take(
                    conn, ask.chat_id, ask.limit, ask.period, lane=lane)
                ask.taken = True
            mine = self.versions.get(lane)
            with self.db.bound(raw):
                yield mine is None or mine == version

    def _concerned(self, lane: str) -> tuple[set[int], set[int]]:
        """The users and chats whose rows (languages...) a unit of work in the lane uses
        and another worker may have changed: the lane's chat, the users seated at the tables
        of it this worker holds (a table loaded, and the update's sender, are read anyway)."""
        chat_id = inbox.lane_chat(lane)
        users = {chat_id} if chat_id > 0 else set()
        for table in self.svc.tables.values():
            if table_lane(table.chat_id, table.thread_id) == lane:
                users |= {s.user_id for s in table.row.seats if s.user_id is not None}
        return users, {chat_id} if chat_id < 0 else set()

    def _forget(self, lane: str) -> None:
        """What this worker holds of the lane's tables is not to be trusted: loaded anew."""
        svc = self.svc
        for table in svc.tables.values():
            if table_lane(table.chat_id, table.thread_id) == lane:
                svc.timers.cancel(table.id)
                svc.tables.forget(table)
                self.presenter.forget(table.id)

    async def in_lane(self, lane: str, work: Callable[[], Awaitable[None]], *,
                      adopt: bool) -> bool:
        """Do ``work`` as a unit in ``lane`` if this worker worked there last, or if no
        live worker did (``adopt``: and only then). False: not done here."""
        await leftovers.settle(self)
        async with self.turn, self.db.connection() as raw:
            conn = PgConn(raw)
            transaction = raw.transaction()
            await transaction.start()
            try:
                if adopt:
                    taken = await inbox.lock(conn, lane)
                else:
                    taken = await inbox.lock(conn, lane, wait=True)
                owner = await inbox.owner(conn, lane, dead_after=DEAD_AFTER) if taken else None
            except BaseException:
                await transaction.rollback()
                raise
            if not taken or (owner is not None and owner != self.id):
                await transaction.rollback()
                if owner is not None and owner != self.id:
                    self._forget(lane)  # the lane's worker holds it now
                return False
            error = await self._unit(raw, transaction, lane, work)
            if error is not None:
                log.error("worker %s: a unit of work in lane %s failed:\n%s", self.id, lane, error)
            return error is None

    async def lane_of_table(self, table_id: int) -> str | None:
        table = self.svc.tables.get(table_id)
        if table is not None:
            return table_lane(table.chat_id, table.thread_id)
        async with self.db.reading() as conn:
            return await inbox.lane_of_table(conn, table_id)
