"""The timers' jobs of a worker (bot/telegram/worker.py): each a unit of work in its table's
lane, in the worker that works there."""

from __future__ import annotations

import re

from bot.service.ports import Job, Scheduler
from bot.telegram.worker import Worker
from storage.outage import unavailable

_TABLE_KEY = re.compile(r"table(\d+)$")


class LaneJobs:
    """The timers' ``Scheduler`` of a worker: each job runs as a unit of work in its
    table's lane, in the worker that works there (a lane another live worker took: that
    worker armed the table's timers when it loaded it; this one forgets the table)."""

    def __init__(self, inner: Scheduler, worker: Worker) -> None:
        self.inner = inner
        self.worker = worker

    def at(self, key: str, when: float, job: Job) -> None:
        self.inner.at(key, when, lambda: self._run(key, job))

    async def _run(self, key: str, job: Job) -> None:
        found = _TABLE_KEY.match(key)
        if found is None:
            return
        table_id = int(found.group(1))
        try:
            lane = await self.worker.lane_of_table(table_id)
            if lane is not None:
                await self.worker.in_lane(lane, job, adopt=False)
        except Exception as exc:
            if not unavailable(exc):
                raise
            self.worker.svc.timers.cancel(table_id)  # the poll arms it again once it is back

    def every(self, key: str, seconds: float, job: Job) -> None:
        """A job of no table (the timers' poll): as it is."""
        self.inner.every(key, seconds, job)

    def cancel(self, key: str) -> None:
        self.inner.cancel(key)

    @property
    def busy(self) -> bool:
        return self.inner.busy
