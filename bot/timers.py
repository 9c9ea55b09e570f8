"""Turn timers and robot moves on PTB's JobQueue (APScheduler), durable across restarts.

A table has at most one timer, for the match version it was set at. Its
deadline, that version and whether the half-time nudge went out are stored in
the table's row, so that a restart rebuilds it with the time that was left
(``rearm`` at restore). Each job takes the table's lock, like a handler, and
first checks that the table is where the job left it (playing, same match
version, same stored deadline): a move stores a new version, so a timer set
before it can never act, and a timeout is applied once.

Robot moves (a substitute robot's seat to act) are jobs due at once, so that a
robot's move never runs inside another move and every move takes the lock.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import CallbackContext, Job, JobQueue

from bot import quiet, substitutes
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.tables import Table
from bot.time_settings import TimeSettings
from storage.rows import ChatRow

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)

# A job due while the bot was busy or down still runs (APScheduler skips late jobs otherwise).
JOB_OPTIONS: dict[str, Any] = {"misfire_grace_time": None}


@dataclass(frozen=True)
class Due:
    """What a job does, and the table's state it was set for."""

    table_id: int
    version: int
    kind: str  # "nudge", "deadline" or "robot"
    deadline: float | None = None


class Timers:
    def __init__(self, hub: Hub, job_queue: JobQueue[Any] | None) -> None:
        self.hub = hub
        self.job_queue = job_queue
        self.chats: dict[int, ChatRow | None] = {}  # time zone and quiet hours, by chat
        self.running = 0  # jobs at work
        self._jobs: dict[int, Job[Any]] = {}  # table id -> its one scheduled job

    async def chat(self, chat_id: int) -> ChatRow | None:
        if chat_id not in self.chats:
            self.chats[chat_id] = await self.hub.storage.get_chat(chat_id)
        return self.chats[chat_id]

    @property
    def busy(self) -> bool:
        """A job is due or at work (the tests' idle waits for none)."""
        if self.running:
            return True
        if self.job_queue is None or not self.job_queue.scheduler.running:
            return False
        now = datetime.now(UTC)
        return any(job.next_t is not None and job.next_t <= now for job in self.job_queue.jobs())

    # -- scheduling ------------------------------------------------------------------------

    async def rearm(self, table: Table, *, fresh: bool = False) -> None:
        """Set the jobs the table needs now: a robot's move, or the turn's timer (a new
        one after a move; the stored one otherwise, unless ``fresh``). Called with the
        table's lock held after every change of its match, status, seats or settings."""
        self.cancel(table.id)
        match = table.match
        if (self.job_queue is None or table.status != "playing" or match is None
                or not match.in_deal):
            return
        if substitutes.robot_turn(table) is not None:
            self._schedule(Due(table.id, match.version, "robot"), time.time())
            return
        settings = TimeSettings.of(table.row.settings)
        if not settings.timed:
            if table.row.timer_deadline is not None:
                table.row = await self.hub.storage.update_table(table.id, timer_deadline=None)
            return
        if fresh or table.row.timer_version != match.version:
            table.row = await self.hub.storage.update_table(
                table.id, timer_deadline=time.time() + settings.turn_time,
                timer_version=match.version, timer_nudged=False)
        deadline = table.row.timer_deadline
        if deadline is None:  # this turn's time ran out already; the table waits
            return
        if settings.reminders and not table.row.timer_nudged:
            self._schedule(Due(table.id, match.version, "nudge", deadline),
                           deadline - settings.turn_time / 2)
        else:
            self._schedule(Due(table.id, match.version, "deadline", deadline), deadline)

    def cancel(self, table_id: int) -> None:
        job = self._jobs.pop(table_id, None)
        if job is not None:
            with contextlib.suppress(JobLookupError):  # it has run already
                job.schedule_removal()

    def _schedule(self, due: Due, at: float) -> None:
        assert self.job_queue is not None
        self.cancel(due.table_id)
        self._jobs[due.table_id] = self.job_queue.run_once(
            self._fire, datetime.fromtimestamp(at, UTC), data=due,
            name=f"table{due.table_id}", job_kwargs=JOB_OPTIONS)

    async def _fire(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        assert context.job is not None
        due: Due = context.job.data
        if self._jobs.get(due.table_id) is context.job:
            del self._jobs[due.table_id]
        table = self.hub.tables.get(due.table_id)
        if table is None:
            return
        self.running += 1
        try:
            async with table.lock:
                if self._current(table, due):
                    await {"nudge": self._nudge, "deadline": self._expire,
                           "robot": self._robot}[due.kind](table, due)
        except Exception:
            log.exception("table %s: %s job failed", due.table_id, due.kind)
        finally:
            self.running -= 1

    @staticmethod
    def _current(table: Table, due: Due) -> bool:
        """The table is still where the job was set for (a stale job does nothing)."""
        match = table.match
        if table.status != "playing" or match is None or match.version != due.version:
            return False
        return due.kind == "robot" or (table.row.timer_version == due.version
                                       and table.row.timer_deadline == due.deadline)

    # -- what the jobs do ----------------------------------------------------------------

    async def _nudge(self, table: Table, due: Due) -> None:
        """Half time: each player to act gets a private reminder (and a fresh panel,
        except in quiet hours), then the deadline's job is set."""
        assert due.deadline is not None
        table.row = await self.hub.storage.update_table(table.id, timer_nudged=True)
        silent = quiet.is_quiet(await self.chat(table.chat_id), time.time())
        users = substitutes.waiting_users(table)
        for user_id in users:
            tr = self.hub.tr_user(user_id)
            self.hub.outbox.post(user_id, Screen(tr(
                "⏳ It is your turn in {game}: {left} left.", game=tr(table.ui.title),
                left=time_left(due.deadline - time.time(), tr))), silent=silent)
        if not silent:
            self.hub.redraw(table, notify=frozenset(users))
        self._schedule(Due(table.id, due.version, "deadline", due.deadline), due.deadline)

    async def _expire(self, table: Table, due: Due) -> None:
        """The turn's time ran out: the table's policy, once (a move makes a new version;
        waiting is stored as a timer without a deadline)."""
        settings = TimeSettings.of(table.row.settings)
        match = table.match
        waiting = substitutes.waiting_for(table)
        if match is None or match.state is None or not waiting:
            return
        seat = waiting[0]
        player = match.state.controller(seat)
        tr = self.hub.tr_chat(table.chat_id)
        name = self.hub.who(table, player)
        silent = quiet.is_quiet(await self.chat(table.chat_id), time.time())
        if settings.timeout == "wait":
            table.row = await self.hub.storage.update_table(table.id, timer_deadline=None)
            if settings.reminders:
                self.hub.outbox.post(table.chat_id, Screen(tr(
                    "⏰ {name}, your time is up. The table waits for you.", name=name)),
                    silent=silent)
            self.hub.redraw(table)
            return
        if settings.timeout == "robot" and await substitutes.stand_in(self.hub, table, player):
            self.hub.outbox.post(table.chat_id, Screen(tr(
                "⏰ Time is up for {name}: a robot plays for them until they press a button "
                "of their panel.", name=name)), silent=silent)
            await substitutes.robot_move(self.hub, table, seat, timeout=False)
            return
        if settings.timeout == "auto":
            self.hub.outbox.post(table.chat_id, Screen(tr(
                "⏰ Time is up for {name}: I made a move for them.", name=name)), silent=silent)
            await substitutes.robot_move(self.hub, table, seat, timeout=True)

    async def _robot(self, table: Table, due: Due) -> None:
        seat = substitutes.robot_turn(table)
        if seat is not None:
            await substitutes.robot_move(self.hub, table, seat, timeout=False)


def time_left(seconds: float, tr: Translate) -> str:
    """``6 h`` or ``25 min`` (at least a minute)."""
    if seconds >= 3600:
        return tr("{n} h", n=round(seconds / 3600))
    return tr("{n} min", n=max(1, round(seconds / 60)))
