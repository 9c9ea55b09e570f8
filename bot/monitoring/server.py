"""``/healthz`` and ``/metrics`` (Prometheus' text format), as aiohttp routes: added to a
server the process already runs (the Mini App's, the webhook receiver's) or served on their
own (``METRICS_PORT``).

``/healthz`` answers 200 when every check passes and 503 with the failing ones named: the
database answers a query; Telegram answered within the last minute (else it is asked now,
``getMe``); a worker's heartbeat is recent. The process being up is that it answers."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.monitoring.metrics import (
    LANES_HELD,
    OUTBOX_BACKLOG,
    TABLES_LOADED,
    TABLES_OPEN,
    TELEGRAM,
)

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 5.0  # seconds a check may take before it counts as failed
TELEGRAM_WITHIN = 60.0  # seconds since Telegram's last answer that need no new question
HEARTBEAT_WITHIN = 3.0  # seconds since a worker's last heartbeat (others take it for dead after)


@dataclass
class Monitor:
    """One process's sources: ``open_tables`` (the database's count by game and status, which
    is also the database's check), ``ask_telegram`` (getMe), ``backlog`` (the outbox's),
    ``loaded`` (tables in memory); a worker's ``heartbeat`` (seconds since its last) and
    ``lanes`` (held)."""

    open_tables: Callable[[], Awaitable[dict[tuple[str, str], int]]]
    ask_telegram: Callable[[], Awaitable[object]] | None = None
    backlog: Callable[[], Counter[tuple[str, str]]] | None = None
    loaded: Callable[[], int] | None = None
    heartbeat: Callable[[], float | None] | None = None
    lanes: Callable[[], int] | None = None

    async def health(self) -> dict[str, str]:
        """Each check's result: "ok" or what failed."""
        checks = {"database": await self._check(self._database())}
        if self.ask_telegram is not None:
            checks["telegram"] = await self._check(self._telegram())
        if self.heartbeat is not None:
            age = self.heartbeat()
            checks["worker"] = ("ok" if age is not None and age <= HEARTBEAT_WITHIN else
                                "no heartbeat yet" if age is None else
                                f"last heartbeat {age:.1f} s ago")
        return checks

    async def refresh(self) -> None:
        """Set the gauges read at a scrape."""
        TABLES_OPEN.clear()
        for (game, status), count in (await self.open_tables()).items():
            TABLES_OPEN.labels(game, status).set(count)
        if self.backlog is not None:
            waiting = self.backlog()
            for chat in ("group", "private"):
                for kind in ("screen", "call"):
                    OUTBOX_BACKLOG.labels(chat, kind).set(waiting[chat, kind])
        if self.loaded is not None:
            TABLES_LOADED.set(self.loaded())
        if self.lanes is not None:
            LANES_HELD.set(self.lanes())

    async def _database(self) -> None:
        await self.open_tables()

    async def _telegram(self) -> None:
        age = TELEGRAM.age()
        if age is None or age > TELEGRAM_WITHIN:
            assert self.ask_telegram is not None
            await self.ask_telegram()

    @staticmethod
    async def _check(check: Awaitable[None]) -> str:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):
                await check
        except Exception as exc:
            return f"failed: {type(exc).__name__}: {exc}".strip()
        return "ok"


def routes(monitor: Monitor) -> list[web.RouteDef]:
    async def healthz(_: web.Request) -> web.Response:
        checks = await monitor.health()
        ok = all(result == "ok" for result in checks.values())
        return web.json_response({"status": "ok" if ok else "failing", **checks},
                                 status=200 if ok else 503)

    async def metrics(_: web.Request) -> web.Response:
        try:
            await monitor.refresh()
        except Exception as exc:  # the database is down: still serve what the process counted
            log.warning("metrics without the database's counts: %s", exc)
        return web.Response(body=generate_latest(REGISTRY),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    return [web.get("/healthz", healthz), web.get("/metrics", metrics)]


async def serve(monitor: Monitor, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """The routes on a server of their own (``METRICS_PORT``); cleanup() stops it."""
    app = web.Application()
    app.add_routes(routes(monitor))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("health and metrics on port %d (/healthz, /metrics)", port)
    return runner
