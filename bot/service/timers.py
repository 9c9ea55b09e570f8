"""Turn timers and robot moves, durable across restarts and shared by processes.

A table has at most one turn timer, for the match version it was set at. Its
deadline, that version and whether the half-time nudge went out are stored in
the table's row, and its next event (the nudge or the deadline) is a row of its
own (``storage.timers``), written in the same transaction. A process schedules
only the stored timers due within ``HORIZON``: at start-up one indexed query, then
``poll`` every ``POLL_EVERY`` seconds for those coming into the horizon; so nothing
at start-up grows with the number of stored games. A job due first claims its row
(another process's claim, or a fired row, makes it do nothing), then takes the
table's lock like a press and checks that the table is where the timer left it
(playing, same match version, same stored deadline): a move stores a new version
and deletes the timers of the old one, so a timer set before it can never act.
The change a timer makes deletes its row in the same transaction, so a timeout is
applied once, by one process, even across a restart in the middle of it.

Robot moves (a substitute robot's seat to act) are jobs of the process that holds
the table, due at once, so that a robot's move never runs inside another move and
every move takes the lock (a table with a robot to move is loaded at start-up).
Jobs run on the ``Scheduler`` port; what they change is shown through ``publish``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.service import events, loading, quiet, substitutes
from bot.service.outcome import Outcome
from bot.service.tables import Table
from bot.service.time_settings import TimeSettings
from storage.errors import TimerGone
from storage.outage import of_outage
from storage.rows import TimerRow

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)

HORIZON = 300.0  # seconds: the stored timers due this soon have jobs in this process
POLL_EVERY = 60.0  # seconds between polls (well under HORIZON: no timer is missed)
HOLD = 60.0  # seconds a claimed timer is left to the process that fires it
POLL_KEY = "timers"

Work = Callable[[Table, Outcome], Awaitable[None]]


def next_event(table_id: int, version: int, deadline: float | None, nudged: bool,
               timing: TimeSettings) -> TimerRow | None:
    """A turn timer's next event: the half-time nudge, or the deadline (None: no deadline,
    this turn's time ran out already and the table waits)."""
    if deadline is None or not timing.timed:
        return None
    if timing.reminders and not nudged:
        return TimerRow(table_id, "nudge", deadline - timing.turn_time / 2, version, deadline)
    return TimerRow(table_id, "deadline", deadline, version, deadline)


class Timers:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.running = 0  # jobs at work
        self.armed: dict[int, TimerRow] = {}  # table id -> the stored timer it has a job for

    @property
    def busy(self) -> bool:
        """A job is due or at work (the tests' idle waits for none)."""
        scheduler = self.svc.scheduler
        return bool(self.running) or (scheduler is not None and scheduler.busy)

    # -- the stored timers ---------------------------------------------------------------

    async def start(self) -> None:
        """At start-up: jobs for the stored timers due soon, and the poll from now on."""
        if self.svc.scheduler is None:
            return
        await self.poll()
        self.svc.scheduler.every(POLL_KEY, POLL_EVERY, self.poll)

    async def poll(self) -> int:
        """Give this process a job for every stored timer due within ``HORIZON`` (overdue
        ones at once) that it has none for and no process is firing; how many it set.

        One indexed query (``timers.due``). Any number of processes may poll one
        database, each on its own schedule: of the jobs they set for one timer, the first
        to fire claims its row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL) and the others
        do nothing; a claim left by a process that died runs out after ``HOLD`` seconds,
        and the next poll of any process fires the timer then."""
        if self.svc.scheduler is None:
            return 0
        self.running += 1
        try:
            now = time.time()
            found = [t for t in await self.svc.store.timers.due(now + HORIZON, now)
                     if self.armed.get(t.table_id) != t]
            for timer in found:
                self.arm(timer)
            return len(found)
        finally:
            self.running -= 1

    # -- scheduling ------------------------------------------------------------------------

    async def rearm(self, table: Table, *, fresh: bool = False) -> None:
        """Set the jobs the table needs now: a robot's move, or the turn's timer (a new
        one after a move; the stored one otherwise, unless ``fresh``). Called with the
        table's lock held after every change of its match, status, seats or settings."""
        self.cancel(table.id)
        match = table.match
        store = self.svc.store.tables
        if (self.svc.scheduler is None or table.status != "playing" or match is None
                or not match.in_deal):
            return
        if substitutes.robot_turn(table) is not None:
            version = match.version
            self.svc.scheduler.at(_robot_key(table.id), time.time(), lambda: self._run(
                table.id, lambda t, out: self._robot(t, version, out)))
            return
        settings = TimeSettings.of(table.row.settings)
        if not settings.timed:
            if table.row.timer_deadline is not None:
                table.row = await store.update_table(table.id, timer_deadline=None, timer=None)
            return
        if fresh or table.row.timer_version != match.version:
            deadline = time.time() + settings.turn_time
            timer = next_event(table.id, match.version, deadline, False, settings)
            table.row = await store.update_table(
                table.id, timer_deadline=deadline, timer_version=match.version,
                timer_nudged=False, timer=timer)
        else:  # the stored timer, with the time that is left
            row = table.row
            timer = next_event(table.id, match.version, row.timer_deadline, row.timer_nudged,
                               settings)
        if timer is not None:
            self.arm(timer)

    def arm(self, timer: TimerRow) -> None:
        """A job for a stored timer, if it is due within the horizon (a later one gets its
        job from a poll)."""
        if self.svc.scheduler is None or timer.due_at > time.time() + HORIZON:
            return
        self.armed[timer.table_id] = timer
        self.svc.scheduler.at(_key(timer.table_id), timer.due_at, lambda: self._fire(timer))

    def cancel(self, table_id: int) -> None:
        if self.svc.scheduler is not None:
            self.armed.pop(table_id, None)
            self.svc.scheduler.cancel(_key(table_id))
            self.svc.scheduler.cancel(_robot_key(table_id))

    async def _fire(self, timer: TimerRow) -> None:
        """A stored timer is due: claim it, then do what it does if the table is still where
        it was set (its change uses the row up); one that the table had left behind is
        deleted (one that is still current by what is stored stays, claimed: it fires again
        when the claim runs out)."""
        if self.armed.get(timer.table_id) == timer:
            del self.armed[timer.table_id]
        store = self.svc.store.timers

        async def fire(table: Table, out: Outcome) -> None:
            if self._current(table, timer):
                work = {"nudge": self._nudge, "deadline": self._expire}[timer.kind]
                await work(table, timer, out)

        self.running += 1
        try:
            if not await store.claim(timer, time.time(), HOLD):
                return  # fired already, or being fired by another process
            await self._run(timer.table_id, fire)
            await store.drop(timer)
        finally:
            self.running -= 1

    async def _run(self, table_id: int, work: Work) -> None:
        """Do a job's work on the table under its lock (loading it if need be), and show
        what it changed."""
        self.running += 1
        try:
            table = await loading.table(self.svc, table_id)  # loaded on the timer's touch
            if table is None:
                return
            out = Outcome()
            async with table.lock:
                await work(table, out)
            self.svc.publish(out)
        except TimerGone:
            log.info("table %s: its timer was fired by another process", table_id)
        except Exception as exc:
            if not of_outage(exc):
                log.exception("table %s: a timer's job failed", table_id)
            else:  # said once (storage/outage.py); the poll arms it again once it is back
                self.cancel(table_id)
        finally:
            self.running -= 1

    @staticmethod
    def _current(table: Table, timer: TimerRow) -> bool:
        """The table is still where the timer was set for (a stale one does nothing)."""
        match = table.match
        if table.status != "playing" or match is None or match.version != timer.version:
            return False
        row = table.row
        return (row.timer_version == timer.version and row.timer_deadline == timer.deadline
                and not (timer.kind == "nudge" and row.timer_nudged))

    # -- what the jobs do ----------------------------------------------------------------

    async def _quiet(self, table: Table) -> bool:
        return quiet.is_quiet(await self.svc.users.chat(table.chat_id), time.time())

    async def _nudge(self, table: Table, nudge: TimerRow, out: Outcome) -> None:
        """Half time: each player to act gets a private reminder (and a fresh panel,
        except in quiet hours); the deadline is the timer's next event."""
        deadline = TimerRow(table.id, "deadline", nudge.deadline, nudge.version, nudge.deadline)
        table.row = await self.svc.store.tables.update_table(
            table.id, timer_nudged=True, fired=nudge, timer=deadline)
        silent = await self._quiet(table)
        users = substitutes.waiting_users(table)
        out.tell(events.Reminder(table, tuple(users), nudge.deadline, silent))
        if not silent:
            out.redraw(table, notify=users)
        self.arm(deadline)

    async def _expire(self, table: Table, timer: TimerRow, out: Outcome) -> None:
        """The turn's time ran out: the table's policy, once (a move makes a new version,
        whose entry deletes the timer; waiting is stored as a timer without a deadline)."""
        settings = TimeSettings.of(table.row.settings)
        match = table.match
        waiting = substitutes.waiting_for(table)
        if match is None or match.state is None or not waiting:
            return
        seat = waiting[0]
        player = match.state.controller(seat)
        silent = await self._quiet(table)
        if settings.timeout == "wait":
            table.row = await self.svc.store.tables.update_table(
                table.id, timer_deadline=None, fired=timer, timer=None)
            if settings.reminders:
                out.tell(events.TimeUp(table, player, "wait", silent))
            out.redraw(table)
            return
        if settings.timeout == "robot" and await substitutes.stand_in(
                self.svc, table, player, out):
            out.tell(events.TimeUp(table, player, "robot", silent))
            await substitutes.robot_move(self.svc, table, seat, timeout=False, out=out)
            return
        if settings.timeout == "auto":
            out.tell(events.TimeUp(table, player, "auto", silent))
            await substitutes.robot_move(self.svc, table, seat, timeout=True, out=out)

    async def _robot(self, table: Table, version: int, out: Outcome) -> None:
        match = table.match
        seat = substitutes.robot_turn(table)
        if (table.status == "playing" and match is not None and match.version == version
                and seat is not None):
            await substitutes.robot_move(self.svc, table, seat, timeout=False, out=out)


def _key(table_id: int) -> str:
    return f"table{table_id}"


def _robot_key(table_id: int) -> str:
    return f"robot{table_id}"
