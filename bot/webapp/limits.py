"""What strangers' connections may hold of the Mini App's server, sized from the process's
descriptor limit: every connection is a descriptor, and so are the database's, Telegram's
pool and the files the bot opens. A connection past the cap is answered 503 and closed at
once; one that has not sent its request's headers within ``HEADER_TIMEOUT`` is closed (a
half-sent request holds nothing for long); an idle keep-alive connection goes after
``KEEPALIVE``. A malformed request line or header is the client's fault: logged as one
line, not as an error with a traceback."""

from __future__ import annotations

import asyncio
import logging
import resource
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger(__name__)

HEADROOM = 256  # descriptors kept for the rest of the bot, at least (a quarter of the limit)
WANTED = 65_536  # the soft descriptor limit asked for at start (at most the hard limit)
HEADER_TIMEOUT = 10.0  # seconds a new connection has to send its request's headers
KEEPALIVE = 15.0  # seconds an idle keep-alive connection is kept
STREAMS_PER_USER = 4  # event streams one user may hold open (a few devices or tables)
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\n"
        b"Connection: close\r\n\r\n")
_END_OF_HEADERS = b"\r\n\r\n"


def raise_descriptor_limit() -> int:
    """Raise the soft descriptor limit toward the hard one where allowed; the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED if hard == resource.RLIM_INFINITY else min(WANTED, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the descriptor limit from %d: %s", soft, exc)
    return WANTED if soft == resource.RLIM_INFINITY else soft


@dataclass(frozen=True)
class Caps:
    connections: int  # open connections of the server
    streams: int  # live event streams of the process (each holds a connection)
    per_user: int = STREAMS_PER_USER

    @classmethod
    def of(cls, descriptors: int) -> Caps:
        """Caps that leave the headroom free: streams take two thirds of the connections, so
        that pages and presses are served while streams are at their cap."""
        connections = max(16, descriptors - max(HEADROOM, descriptors // 4))
        return cls(connections, max(8, connections * 2 // 3))


class _Busy(asyncio.Protocol):
    """A connection past the cap: 503 and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(BUSY)
        transport.close()


class _Counted(asyncio.Protocol):
    """aiohttp's handler of one connection, counted while it lasts and closed if its first
    request's headers do not come in time."""

    def __init__(self, guard: Guard, inner: Any) -> None:
        self.guard, self.inner = guard, inner
        self.transport: asyncio.BaseTransport | None = None
        self.head = b""  # the last bytes seen, until the end of the first headers
        self.started = False  # the request line has begun
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(self.guard.header_timeout,
                                                           self._too_slow)
        self.inner.connection_made(transport)

    def _too_slow(self) -> None:
        self.guard.slow += 1
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.timer is not None:
            head = self.head + data
            if not self.started:  # blank lines before a request line are no request yet
                head = head.lstrip(b"\r\n")
                self.started = bool(head)
            if self.started and _END_OF_HEADERS in head:
                self.timer.cancel()
                self.timer = None
            self.head = head[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return bool(self.inner.eof_received())

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.guard.open -= 1
        self.inner.connection_lost(exc)


class Guard:
    """The protocol factory of the server's socket: aiohttp's, within the cap."""

    def __init__(self, server: web.Server, cap: int, header_timeout: float) -> None:
        self.server, self.cap, self.header_timeout = server, cap, header_timeout
        self.open = 0  # counted from the connection's protocol made to its loss
        self.refused = 0
        self.slow = 0  # closed for not sending their headers in time

    def __call__(self) -> asyncio.BaseProtocol:
        if self.open >= self.cap:
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                log.warning("Mini App connections at their cap (%d): %d refused", self.cap,
                            self.refused)
            return _Busy()
        self.open += 1
        return _Counted(self, self.server())


class GuardedSite(web.TCPSite):
    """A TCP site whose connections go through a ``Guard``."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, *, cap: int,
                 header_timeout: float = HEADER_TIMEOUT, reuse_port: bool = False) -> None:
        super().__init__(runner, host, port, reuse_port=reuse_port)
        self.cap, self.header_timeout = cap, header_timeout
        self.guard: Guard | None = None

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        self.guard = Guard(server, self.cap, self.header_timeout)
        self._server = await asyncio.get_running_loop().create_server(
            self.guard, self._host, self._port, backlog=self._backlog,
            reuse_address=self._reuse_address, reuse_port=self._reuse_port)


class ClientFaults(logging.Filter):
    """aiohttp's "Error handling request" about a request that is not HTTP (an over-long
    request line, a bad header): the client's fault, one line at INFO, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = "bad request from %s: %s", (
                *(record.args if isinstance(record.args, tuple) else ())[:1], exc.message)
            record.exc_info = record.exc_text = None
        return True


def server_logger() -> logging.Logger:
    """The logger of aiohttp's connection handlers, its client faults told as such."""
    logger = logging.getLogger("bot.webapp.http")
    if not any(isinstance(f, ClientFaults) for f in logger.filters):
        logger.addFilter(ClientFaults())
    return logger
