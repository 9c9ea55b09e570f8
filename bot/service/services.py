"""The use cases' shared state: storage, the open tables, users, timers; and start-up.

Tables are loaded when first touched (a press, a command, a timer), not at
start-up: start-up reads a light row of each open table that may have work to
do (the database sifts them), loads only those with work to do at once (a deal
to deal, messages behind what is stored, a robot's seat, a record that did not
replay), and sets jobs for the stored timers due soon (the others get theirs
from the timers' poll).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.service import play, records
from bot.service.analysis import Analyses
from bot.service.outcome import Outcome
from bot.service.ports import Scheduler, Sink
from bot.service.tables import Table, Tables
from bot.service.timers import Timers
from bot.service.users import Users
from storage.errors import NotFound
from storage.rows import ACTIVE_STATUSES, OPEN_STATUSES, TableRow, Waking
from storage.store import Storage

log = logging.getLogger(__name__)


def _nowhere(outcome: Outcome) -> None:
    """The default sink: outcomes of timers are dropped (nobody shows them)."""


def _secret_seed() -> int:
    return secrets.randbits(64)


@dataclass(eq=False)
class Services:
    """What every use case works with. ``publish`` shows the outcomes that no request
    waits for (timers, robots, a table loaded); ``scheduler`` runs the timers (None: no
    timers); ``seed`` gives each deal's and first dealer's seed (secret; the benchmark
    fixes it so that its figures repeat)."""

    store: Storage
    users: Users
    tables: Tables = field(default_factory=Tables)
    scheduler: Scheduler | None = None
    publish: Sink = _nowhere
    seed: Callable[[], int] = _secret_seed
    timers: Timers = field(init=False)
    analyses: Analyses = field(default_factory=Analyses)
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.timers = Timers(self)

    # -- the open tables, loaded on first touch -----------------------------------------------

    async def table(self, table_id: int, *, ended: bool = False) -> Table | None:
        """An open table (None: closed or unknown); ``ended``: a game that has ended is
        given as it ended, a look only (not tracked, no timers: for a Mini App left open
        on it)."""
        table = self.tables.get(table_id)
        if table is None:
            out = Outcome()
            table = await self._load(table_id, out, [], ended=ended)
            self.publish(out)
        return table

    async def topic_table(self, chat_id: int, thread_id: int | None = 0) -> Table | None:
        """The open table of a chat's topic (``thread_id`` None: of any topic of the chat)."""
        table = self.tables.in_topic(chat_id, thread_id)
        if table is None:
            row = await self.store.tables.open_table(chat_id, thread_id)
            table = None if row is None else await self.table(row.id)
        return table

    async def user_tables(self, user_id: int) -> list[Table]:
        """The games (playing or paused) the user plays in."""
        rows = await self.store.tables.open_tables(user_id=user_id)
        return await self._tables([r.id for r in rows if r.status in ACTIVE_STATUSES])

    async def chat_tables(self, chat_id: int) -> list[Table]:
        """The open tables of a group."""
        return await self._tables([r.id for r in await self.store.tables.open_tables(
            chat_id=chat_id)])

    async def _tables(self, ids: list[int]) -> list[Table]:
        return [t for table_id in ids if (t := await self.table(table_id)) is not None]

    async def _load(self, table_id: int, out: Outcome, problems: list[str], *,
                    ended: bool = False) -> Table | None:
        """Load a table with its match: deal a pending hand, set its timer; a table whose
        messages may be behind what is stored is redrawn, one whose messages show it is told
        ``as_shown`` (so that only what changes after is edited)."""
        async with self._loading:  # two first touches at once make one table
            table = self.tables.get(table_id)
            if table is not None:
                return table
            try:
                found = await records.load(self.store, table_id)
            except NotFound:
                return None
            row = found.row
            if row.status not in OPEN_STATUSES:
                if not ended or found.match is None:
                    return None
                await self._players(row)
                return Table(row, match=found.match)
            await self.users.chat_language(row.chat_id)
            await self.users.chat(row.chat_id)
            await self._players(row)
            table = self.tables.adopt(row)
            table.match = found.match
        if found.problem is not None:
            problems.append(f"table {table_id}: {found.problem}")
            return table
        async with table.lock:
            if table.status == "playing":
                # A stop between storing a deal's end and dealing the next one: deal now.
                await play.next_deal(self, table, out)
            await self.timers.rearm(table)  # the stored timer, with the time that is left
        if not table.row.shown:  # its messages may be behind what is stored
            out.redraw(table)
        elif not table.may_show_deal_end:  # what they show is what is drawn now
            out.as_shown[table.id] = table
        return table

    async def _players(self, row: TableRow) -> None:
        """The seated users' rows (their names and languages) loaded."""
        for seat in row.seats:
            if seat.user_id is not None:
                await self.users.load(seat.user_id)

    # -- start-up ------------------------------------------------------------------------------

    async def restore(self) -> tuple[Outcome, list[str]]:
        """Load the open tables that have work to do now and start the stored timers; an
        outcome that redraws what is behind, and the problems to report."""
        rows = await self.store.tables.waking()
        out, problems = await self.wake(rows)
        await self.timers.start()
        return out, problems

    async def wake(self, rows: list[Waking]) -> tuple[Outcome, list[str]]:
        """Load those of ``rows`` that have work to do now (start-up's; a worker's, for the
        tables of a worker that died)."""
        out = Outcome()
        problems: list[str] = []
        for row in rows:
            if _busy(row):
                await self._load(row.id, out, problems)
        return out, problems


def _busy(row: Waking) -> bool:
    """A table with work to do at start-up."""
    return (row.between_deals or not row.shown or (row.robot and row.status == "playing")
            or (row.attention_reason or "").startswith(records.REPLAY_FAILED))
