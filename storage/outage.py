"""The database out of reach for a while, as a state of the process rather than an error.

A PostgreSQL server restarting, a network blip, a SQLite file locked by a backup or a full
disk: whatever fails for those reasons (``unavailable``) is waited out and done again, with a
back-off, for up to ``LIMIT`` seconds. The process logs one WARNING when the outage starts and
one INFO when it ends, however many operations waited; past the limit, one ERROR, and the
operations raise ``DatabaseGone``, which stops the process with ``EXIT_CODE`` for its
supervisor to start it again.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from storage.errors import StorageError

log = logging.getLogger(__name__)

LIMIT = 60.0  # seconds the database may be out of reach before the process gives up
FIRST_WAIT = 0.05  # seconds before the first retry; doubled each time up to MOST_WAIT
MOST_WAIT = 1.0
EXIT_CODE = 75  # EX_TEMPFAIL: a supervisor (systemd Restart=on-failure, a Procfile) restarts
_SQLITE_TRANSIENT = ("locked", "busy", "full", "disk i/o", "unable to open")


_patient: ContextVar[bool] = ContextVar("outage_patient", default=True)


@contextmanager
def impatient() -> Iterator[None]:
    """Inside (this task, and those it starts): an operation that finds the database out of
    reach raises what it met at once rather than wait (a request whose client is better told
    to try again); the outage is said all the same."""
    token = _patient.set(False)
    try:
        yield
    finally:
        _patient.reset(token)


class DatabaseGone(StorageError):
    """The database stayed out of reach longer than ``LIMIT`` seconds."""


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says that the database cannot be reached or written just now (and may
    be again soon), not that the operation is wrong."""
    if isinstance(exc, sqlite3.OperationalError):
        return any(word in str(exc).lower() for word in _SQLITE_TRANSIENT)
    if isinstance(exc, OSError | TimeoutError):  # refused, reset: the server is down
        return True
    try:
        import asyncpg  # only where PostgreSQL is used
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    if isinstance(exc, asyncpg.InternalClientError):  # a connection left mid-operation
        return True
    if isinstance(exc, asyncpg.InterfaceError):  # "connection is closed"; not a misuse
        return "connection" in str(exc).lower()
    return isinstance(exc, asyncpg.PostgresConnectionError | asyncpg.CannotConnectNowError
                      | asyncpg.AdminShutdownError | asyncpg.CrashShutdownError
                      | asyncpg.TooManyConnectionsError)


def of_outage(exc: BaseException) -> bool:
    """Whether ``exc`` comes of an outage: the database out of reach now, or for too long."""
    return isinstance(exc, DatabaseGone) or unavailable(exc)


class Outage:
    """Whether the database is out of reach now, since when, and when it was last back."""

    def __init__(self, where: str, *, limit: float = LIMIT) -> None:
        self.where = where
        self.limit = limit
        self.since: float | None = None  # monotonic: the first failure of this outage
        self.ended_at: float | None = None  # monotonic: when the last one ended
        self.gone = False
        self._waits = 0

    async def wait(self, exc: BaseException) -> None:
        """After ``exc`` (``unavailable``): wait before trying again; DatabaseGone past the
        limit (``impatient``: ``exc`` raised again at once)."""
        self.failed(exc)
        if not _patient.get():
            raise exc
        await asyncio.sleep(min(MOST_WAIT, FIRST_WAIT * 2 ** self._waits))
        self._waits += 1

    def failed(self, exc: BaseException) -> None:
        """``exc`` (``unavailable``) happened: the outage starts, or goes on; DatabaseGone
        past the limit."""
        now = time.monotonic()
        if self.since is None:
            self.since, self._waits = now, 0
            log.warning("database %s is out of reach (%s): waiting for it, at most %.0f s",
                        self.where, _short(exc), self.limit)
        if now - self.since > self.limit:
            if not self.gone:
                self.gone = True
                log.error("database %s out of reach for %.0f s: stopping (exit code %d) to be"
                          " started again", self.where, now - self.since, EXIT_CODE)
            raise DatabaseGone(f"database {self.where} out of reach for {now - self.since:.0f} s")

    def ok(self) -> None:
        """An operation went through: an outage, if there was one, is over."""
        if self.since is not None:
            now = time.monotonic()
            log.info("database %s is back after %.1f s", self.where, now - self.since)
            self.since, self.ended_at = None, now

    def back_for(self) -> float:
        """Seconds since the last outage ended (infinite if none did, 0 during one)."""
        if self.since is not None:
            return 0.0
        return float("inf") if self.ended_at is None else time.monotonic() - self.ended_at


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
