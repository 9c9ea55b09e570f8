"""Turn timers and robot moves, durable across restarts.

A table has at most one timer, for the match version it was set at. Its
deadline, that version and whether the half-time nudge went out are stored in
the table's row, so that a restart rebuilds it with the time that was left
(``rearm`` at restore). Each job takes the table's lock, like a press, and
first checks that the table is where the job left it (playing, same match
version, same stored deadline): a move stores a new version, so a timer set
before it can never act, and a timeout is applied once.

Robot moves (a substitute robot's seat to act) are jobs due at once, so that a
robot's move never runs inside another move and every move takes the lock.
Jobs run on the ``Scheduler`` port; what they change is shown through ``publish``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.service import events, quiet, substitutes
from bot.service.outcome import Outcome
from bot.service.tables import Table
from bot.service.time_settings import TimeSettings

if TYPE_CHECKING:
    from bot.service.services import Services

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Due:
    """What a job does, and the table's state it was set for."""

    table_id: int
    version: int
    kind: str  # "nudge", "deadline" or "robot"
    deadline: float | None = None


class Timers:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.running = 0  # jobs at work

    @property
    def busy(self) -> bool:
        """A job is due or at work (the tests' idle waits for none)."""
        scheduler = self.svc.scheduler
        return bool(self.running) or (scheduler is not None and scheduler.busy)

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
            self._schedule(Due(table.id, match.version, "robot"), time.time())
            return
        settings = TimeSettings.of(table.row.settings)
        if not settings.timed:
            if table.row.timer_deadline is not None:
                table.row = await store.update_table(table.id, timer_deadline=None)
            return
        if fresh or table.row.timer_version != match.version:
            table.row = await store.update_table(
                table.id, timer_deadline=time.time() + settings.turn_time,
                timer_version=match.version, timer_nudged=False)
        row = table.row
        self.arm(table.id, match.version, row.timer_deadline, row.timer_nudged, row.settings)

    def arm(self, table_id: int, version: int, deadline: float | None, nudged: bool,
            settings: Mapping[str, Any]) -> None:
        """Set a table's stored timer (at start-up, from its row alone: the job loads the
        table when it fires): the half-time nudge, or the deadline."""
        timing = TimeSettings.of(settings)
        if self.svc.scheduler is None or deadline is None or not timing.timed:
            return  # no deadline: this turn's time ran out already; the table waits
        if timing.reminders and not nudged:
            self._schedule(Due(table_id, version, "nudge", deadline),
                           deadline - timing.turn_time / 2)
        else:
            self._schedule(Due(table_id, version, "deadline", deadline), deadline)

    def cancel(self, table_id: int) -> None:
        if self.svc.scheduler is not None:
            self.svc.scheduler.cancel(_key(table_id))

    def _schedule(self, due: Due, at: float) -> None:
        assert self.svc.scheduler is not None
        self.svc.scheduler.at(_key(due.table_id), at, lambda: self._fire(due))

    async def _fire(self, due: Due) -> None:
        self.running += 1
        try:
            table = await self.svc.table(due.table_id)  # loaded if the timer was set at start
            if table is None:
                return
            out = Outcome()
            async with table.lock:
                if self._current(table, due):
                    work = {"nudge": self._nudge, "deadline": self._expire,
                            "robot": self._robot}[due.kind]
                    await work(table, due, out)
            self.svc.publish(out)
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
        row = table.row
        return due.kind == "robot" or (
            row.timer_version == due.version and row.timer_deadline == due.deadline
            and not (due.kind == "nudge" and row.timer_nudged))

    # -- what the jobs do ----------------------------------------------------------------

    async def _quiet(self, table: Table) -> bool:
        return quiet.is_quiet(await self.svc.users.chat(table.chat_id), time.time())

    async def _nudge(self, table: Table, due: Due, out: Outcome) -> None:
        """Half time: each player to act gets a private reminder (and a fresh panel,
        except in quiet hours), then the deadline's job is set."""
        assert due.deadline is not None
        table.row = await self.svc.store.tables.update_table(table.id, timer_nudged=True)
        silent = await self._quiet(table)
        users = substitutes.waiting_users(table)
        out.tell(events.Reminder(table, tuple(users), due.deadline, silent))
        if not silent:
            out.redraw(table, notify=users)
        self._schedule(Due(table.id, due.version, "deadline", due.deadline), due.deadline)

    async def _expire(self, table: Table, due: Due, out: Outcome) -> None:
        """The turn's time ran out: the table's policy, once (a move makes a new version;
        waiting is stored as a timer without a deadline)."""
        settings = TimeSettings.of(table.row.settings)
        match = table.match
        waiting = substitutes.waiting_for(table)
        if match is None or match.state is None or not waiting:
            return
        seat = waiting[0]
        player = match.state.controller(seat)
        silent = await self._quiet(table)
        if settings.timeout == "wait":
            table.row = await self.svc.store.tables.update_table(table.id, timer_deadline=None)
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

    async def _robot(self, table: Table, due: Due, out: Outcome) -> None:
        seat = substitutes.robot_turn(table)
        if seat is not None:
            await substitutes.robot_move(self.svc, table, seat, timeout=False, out=out)


def _key(table_id: int) -> str:
    return f"table{table_id}"
