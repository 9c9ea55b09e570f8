"""The services of a running process: storage, the open tables, users, timers (the
``Services`` port's implementation, which the composition root builds)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.service.outcome import Outcome
from bot.service.ports import Scheduler, Sink
from bot.service.tables import Tables
from bot.service.timers import Timers
from bot.service.users import Users
from storage.store import Storage


def _nowhere(outcome: Outcome) -> None:
    """The default sink: outcomes of timers are dropped (nobody shows them)."""


def _secret_seed() -> int:
    return secrets.randbits(64)


class Sinks:
    """``publish`` with several front ends: each outcome to every sink in turn (the
    presenter, then the Mini App)."""

    def __init__(self, *sinks: Sink) -> None:
        self.sinks = sinks

    def __call__(self, outcome: Outcome) -> None:
        for sink in self.sinks:
            sink(outcome)


@dataclass(eq=False)
class LiveServices:
    """``seed`` is secret; the benchmark fixes it so that its figures repeat."""

    store: Storage
    users: Users
    tables: Tables = field(default_factory=Tables)
    scheduler: Scheduler | None = None
    publish: Sink = _nowhere
    seed: Callable[[], int] = _secret_seed
    timers: Timers = field(init=False)
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.timers = Timers(self)
