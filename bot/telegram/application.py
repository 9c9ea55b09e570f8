"""The python-telegram-bot Application: the HTTP stack and the handlers.

No PTB rate limiter: the outbox budgets every call it makes (``bot.telegram.sending``) and
waits a 429 out itself; PTB's ``AIORateLimiter`` would log each 429 as an error with a
traceback although nothing is lost.

The HTTP pool is sized to what one event loop serves: httpcore scans its whole pool on every
request, so 256 connections with 192 calls in flight cost a quarter of the loop at 100
tables; 32 connections with the outbox's 24 calls at once (``IN_FLIGHT_MAX``) measured best,
the rest left to press answers. A call that finds the pool full waits for a connection
(``POOL_WAIT``) rather than failing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram.ext import ApplicationBuilder

from bot.config import Settings
from bot.telegram.commands import install
from bot.telegram.context import CONTEXT_TYPES, App
from bot.telegram.request import MeteredRequest

POOL_SIZE = 32  # connections to the Bot API
POOL_WAIT = 30.0  # seconds a call may wait for a free connection


def build(settings: Settings, *, start: Callable[[App], Awaitable[object]],
          stop: Callable[[App], Awaitable[None]]) -> App:
    """The Application for ``settings``: ``start`` runs before it takes updates, ``stop``
    after the last."""
    app: App = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.api_base_url)
        .base_file_url(settings.api_base_file_url)
        .context_types(CONTEXT_TYPES)
        .concurrent_updates(True)
        .request(MeteredRequest(connection_pool_size=POOL_SIZE, pool_timeout=POOL_WAIT))
        .get_updates_request(MeteredRequest())
        .post_init(start)
        .post_shutdown(stop)
        .build()
    )
    app.bot_data.settings = settings
    install(app)
    return app
