"""Running a python-telegram-bot Application against the fake server."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

from telegram.ext import Application, ApplicationBuilder

from tests.fakebot.harness import FakeTelegram


def application_builder(tg: FakeTelegram) -> ApplicationBuilder:  # type: ignore[type-arg]
    """An ApplicationBuilder pointed at the fake: token, base_url and base_file_url set."""
    return (
        ApplicationBuilder().token(tg.token).base_url(tg.base_url).base_file_url(tg.base_file_url)
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _busy(app: Application[Any, Any, Any, Any, Any, Any]) -> bool:
    return not app.update_queue.empty() or app.update_processor.current_concurrent_updates > 0


@contextlib.asynccontextmanager
async def running(
    tg: FakeTelegram,
    app: Application[Any, Any, Any, Any, Any, Any],
    *,
    webhook_secret: str | None = None,
    poll_timeout: int = 5,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """Run the application: long polling, or (with a secret) a webhook on a free port.
    tg.idle() also waits for the application's queued and running updates."""
    updater = app.updater
    if updater is None:
        raise ValueError("the application was built without an updater")
    unwatch = tg.watch(lambda: _busy(app))
    await app.initialize()
    try:
        if webhook_secret is None:
            await updater.start_polling(poll_interval=0, timeout=poll_timeout)
        else:
            port = free_port()
            await updater.start_webhook(
                listen="127.0.0.1",
                port=port,
                url_path="hook",
                webhook_url=f"http://127.0.0.1:{port}/hook",
                secret_token=webhook_secret,
            )
        await app.start()
        try:
            yield app
        finally:
            await updater.stop()
            await app.stop()
    finally:
        await app.shutdown()
        unwatch()
