"""Telegram's limits as the bot counts them: the budgets' sizes and a sliding window."""

from __future__ import annotations

import math
import time
import warnings
from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta

from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

GROUP_LIMIT = 18  # calls per GROUP_WINDOW seconds, under Telegram's 20 a minute
GROUP_WINDOW = 60.0
PRIVATE_LIMIT = 3  # calls per PRIVATE_WINDOW seconds in a private chat (sends and edits)
PRIVATE_WINDOW = 3.05  # Telegram's 3 s, counted from the answers (see ``Window``)
OVERALL_LIMIT = 28  # calls per second over all chats, under Telegram's 30
OVERALL_WINDOW = 1.05
LONG_WAIT = 1.0  # a group waiting longer for its budget is not "busy" (see ``Outbox.busy``)
IN_FLIGHT = 0.02  # seconds to look again when the window is full of calls not yet answered
IN_FLIGHT_MAX = 24  # the outbox's calls at once, of PTB's 32 connections (``POOL_SIZE``)


def reserve_of(limit: int) -> int:
    """The share of a group's budget kept free of table edits for one-off messages."""
    return max(1, limit // 4)


def steady_of(limit: int) -> int:
    """A game's table message is edited evenly at two thirds of the group's budget (12 a
    minute, one every 5 s): the group view a few seconds behind the panels at most, while
    every edit it makes is one of the ~30 calls a second the bot has for all its tables."""
    return max(1, limit * 2 // 3)


@dataclass
class Window:
    """At most ``limit`` calls in any ``period`` seconds (a sliding window, as Telegram
    counts; a leaky bucket would let twice the limit through around a burst). A call counts
    from when it was answered (until then: from now), so that a call slow to arrive never
    falls into the same window as one a period later."""

    limit: int
    period: float
    sent_at: deque[list[float]] = field(default_factory=deque)  # [answered at] (inf: not yet)

    def delay(self, limit: int | None = None) -> float:
        """Seconds until one more call fits, with at most ``limit`` (default: all) calls
        in the window (0: now)."""
        limit = self.limit if limit is None else limit
        if self.count() < limit:
            return 0.0
        answered = sorted(call[0] for call in self.sent_at)[len(self.sent_at) - limit]
        if answered == math.inf:
            return IN_FLIGHT
        return self.period - (time.monotonic() - answered) + 0.01

    def count(self) -> int:
        """The calls in the window now."""
        now = time.monotonic()
        while self.sent_at and now - self.sent_at[0][0] >= self.period:
            self.sent_at.popleft()
        return len(self.sent_at)

    def record(self) -> list[float]:
        """Count a call that is about to be made; set the cell to when it was answered."""
        call = [math.inf]
        self.sent_at.append(call)
        return call


def retry_seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds: PTB 22 gives an int (with a deprecation warning) or, when
    opted in, a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = error.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
