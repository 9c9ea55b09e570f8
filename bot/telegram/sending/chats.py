"""A chat's queue of sends and its budget's state (bot/telegram/sending/budgets.py)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.telegram.calls import Call
from bot.telegram.sending.limits import Window
from bot.telegram.sending.slots import Slot


@dataclass(eq=False)
class Job:
    """A one-off call (a message, a document) sent in order with the chat's other sends."""

    make: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]
    call: Call | None = None  # what ``make`` does, as data (it may be kept)
    token: int | None = None  # its row in the ``SendQueue``
    since: float = field(default_factory=time.monotonic)  # when it was queued


@dataclass(eq=False)
class ChatQueue:
    """A chat's queue and budget. In a group, ``paced`` is how many of the window's calls
    the table messages' edits may take (``edits`` counts them): the rest of the window is
    kept for one-off calls. A game's table message is edited at most every ``period /
    steady`` seconds."""

    id: int
    window: Window
    paced: int = 0
    steady: int = 0
    edits: Window | None = None
    messages: Window | None = None  # in a group: its one-off calls (``budgets.edits_room``)
    queue: deque[Slot | Job] = field(default_factory=deque)
    resting: bool = False  # waiting long for a group's budget
    worker: asyncio.Task[None] | None = None
    paused_until: float = 0.0  # a 429's wait
    edited_at: float = -1e9  # the last paced edit (a table message; in private, a spaced one)
    counted: list[list[float]] = field(default_factory=list)  # its calls not yet answered
    shared: list[int] = field(default_factory=list)  # their tokens in the shared budget
    answered: list[int] = field(default_factory=list)  # tokens of answered calls, not yet told
    reserved: int | None = None  # the next call's token in the shared budget
    shared_until: float = 0.0  # the shared budget's wait
    placed: list[float] | None = None  # the next call's place in the calls a second (counted)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def group(self) -> bool:
        return self.id < 0

    def next_item(self) -> Slot | Job:
        """What goes next: in a group a one-off call before the table message's edits (but
        one that must go ``first``); in a private chat everything in order."""
        if self.group:
            job = next((item for item in self.queue if isinstance(item, Slot) and item.first),
                       None) or next((item for item in self.queue if isinstance(item, Job)), None)
            if job is not None:
                return job
        return self.queue[0]
