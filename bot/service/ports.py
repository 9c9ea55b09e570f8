"""What the use cases work with, as protocols: the services they share (``Services``, which
every use case takes), a scheduler for timers, the turn timers, and a sink for outcomes that
no request waits for (a timer fired, a robot moved).

The use cases annotate against these, never against the class that implements them
(``bot.service.services``), so that no use case's module depends on the others through
the services."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service.outcome import Outcome
from bot.service.tables import Table, Tables
from bot.service.users import Users
from storage.store import Storage

Job = Callable[[], Awaitable[None]]


class Scheduler(Protocol):
    """Runs a job once at a moment (Unix seconds), even late; one job per key."""

    def at(self, key: str, when: float, job: Job) -> None:
        """Schedule ``job`` under ``key``, replacing the key's earlier job."""

    def every(self, key: str, seconds: float, job: Job) -> None:
        """Run ``job`` every ``seconds`` from now on under ``key`` (once, if several runs
        fell due while the process was busy)."""

    def cancel(self, key: str) -> None: ...

    @property
    def busy(self) -> bool:
        """A job is due or at work."""


class Sink(Protocol):
    """Where outcomes go that no press or command waits for (to be shown)."""

    def __call__(self, outcome: Outcome) -> None: ...


class Timing(Protocol):
    """The tables' turn timers and robot moves (``bot.service.timers``)."""

    async def start(self) -> None:
        """At start-up: jobs for the stored timers due soon, and their poll from now on."""

    async def rearm(self, table: Table, *, fresh: bool = False) -> None:
        """Set the jobs the table needs now (with its lock held, after every change)."""

    def cancel(self, table_id: int) -> None: ...

    @property
    def busy(self) -> bool:
        """A job is due or at work."""


class Services(Protocol):
    """What every use case works with. ``publish`` shows the outcomes that no request
    waits for (timers, robots, a table loaded); ``scheduler`` runs the timers (None: no
    timers); ``seed`` gives each deal's and first dealer's seed; ``loading`` makes two
    first touches of one table load it once (``bot.service.loading``)."""

    store: Storage
    users: Users
    tables: Tables
    scheduler: Scheduler | None
    publish: Sink
    seed: Callable[[], int]
    timers: Timing
    loading: asyncio.Lock


class Members(Protocol):
    """Whether a user is a member of a chat now (the Mini App lets only a table's chat watch
    it)."""

    async def __call__(self, chat_id: int, user_id: int) -> bool: ...
