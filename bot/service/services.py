"""The use cases' shared state: storage, the open tables, users, timers; and start-up."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.service import play, records
from bot.service.outcome import Outcome
from bot.service.ports import Scheduler, Sink
from bot.service.tables import Tables
from bot.service.timers import Timers
from bot.service.users import Users
from storage.store import Storage

log = logging.getLogger(__name__)


def _nowhere(outcome: Outcome) -> None:
    """The default sink: outcomes of timers are dropped (nobody shows them)."""


@dataclass(eq=False)
class Services:
    """What every use case works with. ``publish`` shows the outcomes that no request
    waits for (timers, robots); ``scheduler`` runs the timers (None: no timers)."""

    store: Storage
    users: Users
    tables: Tables = field(default_factory=Tables)
    scheduler: Scheduler | None = None
    publish: Sink = _nowhere
    timers: Timers = field(init=False)

    def __post_init__(self) -> None:
        self.timers = Timers(self)

    async def restore(self) -> tuple[Outcome, list[str]]:
        """Load every open table, rebuild its match, deal a pending hand and set its timer;
        an outcome that redraws them all, and the problems to report."""
        found = await records.restore(self.store)
        out = Outcome()
        problems = []
        for table_id, row in found.tables.items():
            table = self.tables.adopt(row)
            await self.users.chat_language(row.chat_id)
            await self.users.chat(row.chat_id)
            for seat in row.seats:
                if seat.user_id is not None:
                    await self.users.load(seat.user_id)
            table.match = found.matches.get(table_id)
            if table_id in found.failed:
                problems.append(f"table {table_id}: {found.failed[table_id]}")
                continue
            async with table.lock:
                if table.status == "playing":
                    # A stop between storing a deal's end and dealing the next one: deal now.
                    await play.next_deal(self, table, out)
                await self.timers.rearm(table)  # the stored timer, with the time that is left
            if not table.row.shown:  # its messages may be behind what is stored
                out.redraw(table)
        return out, problems
