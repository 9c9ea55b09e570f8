"""PTB's HTTP stack with the metrics of every Bot API call: its method, how long Telegram took
to answer, the answer's HTTP status (a 429 among them), or that no answer came; and with
connections that look their socket up once (``_Stream``)."""

from __future__ import annotations

import select
import socket
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx
from telegram.request import HTTPXRequest

from bot.monitoring.metrics import (
    TELEGRAM,
    TELEGRAM_ANSWERS,
    TELEGRAM_FAILURES,
    TELEGRAM_SECONDS,
)


def method_of(url: str) -> str:
    """``sendMessage`` of ``.../bot<token>/sendMessage``; ``file`` for a file's download."""
    return "file" if "/file/bot" in url else url.rsplit("/", 1)[-1]


class MeteredRequest(HTTPXRequest):
    def __init__(self, connection_pool_size: int = 1, **kwargs: Any) -> None:
        super().__init__(connection_pool_size=connection_pool_size,
                         httpx_kwargs={"transport": _Transport(connection_pool_size)}, **kwargs)

    async def do_request(self, url: str, method: str, *args: Any,
                         **kwargs: Any) -> tuple[int, bytes]:
        name = method_of(url)
        try:
            with TELEGRAM_SECONDS.labels(name).time():
                code, payload = await super().do_request(url, method, *args, **kwargs)
        except Exception:
            TELEGRAM_FAILURES.labels(name).inc()
            raise
        TELEGRAM.answered()
        TELEGRAM_ANSWERS.labels(name, str(code)).inc()
        return code, payload


class _Stream(httpcore.AsyncNetworkStream):
    """A connection whose socket is looked up once. Before each request httpcore asks every
    idle connection of the pool whether the server closed it (its socket is readable), and
    anyio answered each time by building a dict of all the socket's attributes, with a
    ``getpeername`` system call: the largest cost of the event loop with hundreds of tables
    (python -m bench --only human)."""

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket: socket.socket | None = inner.get_extra_info("socket")
        self._poll = select.poll()  # (whether the socket is readable, asked without waiting)
        if self._socket is not None:
            self._poll.register(self._socket, select.POLLIN)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        if info == "socket":
            return self._socket
        if info == "is_readable":  # (closed by the server: it would read the end)
            return self._socket is None or self._socket.fileno() < 0 \
                or bool(self._poll.poll(0))
        return self._inner.get_extra_info(info)


class _Backend(httpcore.AsyncNetworkBackend):
    """anyio's connections (httpcore's own for asyncio), as ``_Stream``."""

    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None,
                          ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.connect_tcp(host, port, timeout, local_address,
                                                     socket_options))

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None,
                                  ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _Transport(httpx.AsyncHTTPTransport):
    """httpx's transport as PTB makes it (``connections`` at most, kept alive 5 s), on
    ``_Backend``."""

    def __init__(self, connections: int) -> None:
        super().__init__(limits=httpx.Limits(max_connections=connections))
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(), max_connections=connections,
            keepalive_expiry=5.0, network_backend=_Backend())
