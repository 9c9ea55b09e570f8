"""What the use cases need from outside, as protocols: a scheduler for timers, and a sink for
outcomes that no request waits for (a timer fired, a robot moved)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service.outcome import Outcome

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


class Members(Protocol):
    """Whether a user is a member of a chat now (the Mini App lets only a table's chat watch
    it)."""

    async def __call__(self, chat_id: int, user_id: int) -> bool: ...
