"""A worker's heartbeat, each second whatever else the worker is slow to do: a live worker
that missed beats for ``SHARED_AFTER`` seconds is left out of the others' count, and they take
its share of the calls a second (``Budgets.share``) while it may still send. What a beat is
followed by (adopting the dead workers' lanes, resuming their calls) runs beside the beats,
not before the next one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from storage.outage import DatabaseGone, unavailable

log = logging.getLogger(__name__)

EVERY = 1.0  # seconds between a worker's beats


async def beating(beat: Callable[[], Awaitable[None]], tend: Callable[[], Awaitable[None]],
                  stopping: asyncio.Event, *, every: float) -> None:
    """``beat`` each ``every`` seconds until ``stopping`` or the database is gone (the unit
    loop stops the worker then); ``tend`` after a beat, unless still tending."""
    tending: asyncio.Task[bool] | None = None
    beat_at = time.monotonic()
    try:
        while not stopping.is_set():
            beat_at = max(beat_at + every, time.monotonic())  # at once if this one is late
            await asyncio.sleep(beat_at - time.monotonic())
            if not await _guarded(beat, "heartbeat"):
                return
            if tending is None or tending.done():
                tending = asyncio.create_task(_guarded(tend, "tending"))
    finally:
        if tending is not None:
            tending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await tending


async def _guarded(work: Callable[[], Awaitable[None]], what: str) -> bool:
    """Do ``work``, a failure logged (not the database's outage: logged once); False: the
    database is gone."""
    try:
        await work()
    except DatabaseGone:
        return False
    except Exception as exc:
        if not unavailable(exc):
            log.exception("worker's %s failed", what)
    return True
