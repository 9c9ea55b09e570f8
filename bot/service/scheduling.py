"""The ``Scheduler`` port on APScheduler: the bot hands it PTB's JobQueue scheduler, the
service tests a scheduler of their own. One job per key; a job due while the process was
busy or down still runs (APScheduler skips late jobs otherwise)."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.base import BaseScheduler

from bot.service.ports import Job


class APSchedulerJobs:
    def __init__(self, scheduler: BaseScheduler) -> None:
        self.scheduler = scheduler
        self._jobs: dict[str, tuple[Any, Job]] = {}  # key -> its APScheduler job, the job

    def at(self, key: str, when: float, job: Job) -> None:
        self.cancel(key)
        scheduled = self.scheduler.add_job(
            self._run, "date", run_date=datetime.fromtimestamp(when, UTC), args=(key, job),
            misfire_grace_time=None)
        self._jobs[key] = (scheduled, job)

    def every(self, key: str, seconds: float, job: Job) -> None:
        self.cancel(key)
        scheduled = self.scheduler.add_job(
            job, "interval", seconds=seconds, coalesce=True, max_instances=1,
            misfire_grace_time=None)
        self._jobs[key] = (scheduled, job)

    async def _run(self, key: str, job: Job) -> None:
        if key in self._jobs and self._jobs[key][1] is job:  # not replaced meanwhile
            del self._jobs[key]
        await job()

    def cancel(self, key: str) -> None:
        found = self._jobs.pop(key, None)
        if found is not None:
            with contextlib.suppress(JobLookupError):  # it has run already
                found[0].remove()

    @property
    def busy(self) -> bool:
        """A job is due (or running: APScheduler keeps it until it is handed over)."""
        if not self.scheduler.running:
            return False
        now = datetime.now(UTC)
        return any(job.next_run_time is not None and job.next_run_time <= now
                   for job in self.scheduler.get_jobs())
