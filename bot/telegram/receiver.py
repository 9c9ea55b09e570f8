"""``python -m bot receive``: the webhook receiver of several workers (bot/telegram/worker.py).

It stores each update in the inbox (storage/inbox.py), in its lane, and answers
Telegram at once; it does nothing else, so it stays up while the workers restart. An
update Telegram sends again is stored once. aiohttp (the Mini App's server already)
rather than PTB's tornado webhook: the receiver needs no Application, only one route.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
import time
from typing import Any
from urllib.parse import urlparse

from aiohttp import web
from telegram import Bot
from telegram.error import TelegramError

from bot.bounds import MAX_ID
from bot.config import Settings
from bot.monitoring.server import Monitor, routes
from bot.screens import refusals
from bot.service.outcome import Refusal
from bot.telegram.answers import ALERT_LIMIT
from bot.telegram.connect import connect
from bot.telegram.lanes import lane_of, sender_lane
from bot.telegram.late import Overdue, Press
from bot.ui.i18n import translator
from storage import inbox
from storage.outage import DatabaseGone, unavailable
from storage.postgres import PgConn, PostgresDatabase, dropping_broken
from storage.tables import TableStore

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
RETRY_AFTER = 2  # seconds Telegram is asked to wait before sending an update again (503)
PATIENCE = 2.0  # seconds a press waits for the database before it is answered "not saved"


def secret_of(settings: Settings) -> str:
    """The webhook's secret token: WEBHOOK_SECRET, or one made from the bot's token."""
    return settings.webhook_secret or hashlib.sha256(
        b"cardtable-webhook:" + settings.token.encode()).hexdigest()[:48]


class Receiver:
    def __init__(self, db: PostgresDatabase, secret: str, bot: Bot | None = None) -> None:
        self.db = db
        self.secret = secret
        self.bot = bot  # to answer a press "not saved" (None: Telegram sends it again)
        self.overdue = None if bot is None else Overdue(db, self._not_saved)
        self.gone = asyncio.Event()  # the database stayed out of reach past its outage limit

    async def handle(self, request: web.Request) -> web.Response:
        """200 for every update stored (or stored before); 400 for a body that is no update,
        never 500 for one that is: an update whose lane cannot be found goes to its sender's.
        The database out of reach: 503, and Telegram sends the update again later; but a
        press not stored within ``PATIENCE`` is answered "not saved, try again" and dropped
        (Telegram takes its answer for 15 s only: bot/telegram/late.py), and one stored (or
        perhaps stored: its COMMIT went unanswered) is so answered if it is not done in time
        (``Overdue``)."""
        if request.headers.get(SECRET_HEADER) != self.secret:
            return web.Response(status=403)
        try:
            body = await request.text()
            update = json.loads(body)
            update_id = update["update_id"]
        except (ValueError, KeyError, TypeError, IndexError, RecursionError):
            return web.Response(status=400)
        if type(update_id) is not int or not 0 <= update_id <= MAX_ID:
            return web.Response(status=400)
        press = Press.of(update) if self.bot is not None else None
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                await self._store(update_id, update, body)
                self.db.outage.ok()
                break
            except Exception as exc:
                sent = isinstance(exc, Unanswered)  # COMMIT sent: stored, or not
                cause = exc.__cause__ if sent else exc
                if cause is None or not unavailable(cause):
                    raise
                try:
                    self.db.outage.failed(cause)  # logged once, when the outage starts
                except DatabaseGone:
                    self.gone.set()  # past the limit: the receiver stops (``serve``)
                    return _retry_later()
                if press is None:
                    return _retry_later()
                if sent:  # stored or not: answered "not saved" unless done in time
                    break
                if time.monotonic() > deadline:
                    await self._not_saved(press)
                    return web.Response(text="ok")
                await asyncio.sleep(0.2)
        if press is not None and self.overdue is not None:
            self.overdue.add(update_id, press)
        return web.Response(text="ok")

    async def _store(self, update_id: int, update: dict[str, Any], body: str) -> None:
        """Store the update, in one transaction (``Unanswered``: its COMMIT was sent, and the
        database went out of reach before it answered)."""
        committing = False
        try:
            async with self.db.pool.acquire() as raw:
                with dropping_broken(raw):
                    async with raw.transaction():
                        await _put(PgConn(raw), update_id, update, body)
                        committing = True
        except Exception as exc:
            if committing and unavailable(exc):
                raise Unanswered(f"update {update_id}") from exc
            raise

    async def _not_saved(self, press: Press) -> None:
        """Answer the press "not saved, try again" in its presser's language."""
        assert self.bot is not None
        text = refusals.text(Refusal("not_stored"), translator(press.language))
        try:
            await self.bot.answer_callback_query(press.query_id, text[:ALERT_LIMIT],
                                                 show_alert=True)
        except TelegramError as exc:
            log.info("cannot answer a button: %s", exc.message)


class Unanswered(Exception):
    """The update's COMMIT was sent and no answer came: it may be stored."""


def _retry_later() -> web.Response:
    return web.Response(status=503, headers={"Retry-After": str(RETRY_AFTER)})


async def _put(conn: PgConn, update_id: int, update: dict[str, Any], body: str) -> None:
    """Store the update in its lane."""

    async def table_lane(table_id: int) -> str | None:
        return await inbox.lane_of_table(conn, table_id)

    try:
        lane = await lane_of(update, table_lane)
    except Exception as exc:  # an odd shape: the sender's lane
        if unavailable(exc):
            raise
        lane = sender_lane(update)
        log.warning("update %s goes to lane %s: %r", update_id, lane, exc)
    if not await inbox.put(conn, update_id, lane, body):
        log.info("update %s came again: stored before", update_id)


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT: migrate, listen, set the webhook."""
    assert settings.webhook_url is not None and settings.database_url is not None
    db = await PostgresDatabase.open(settings.database_url, size=4)
    db.outage.limit = settings.outage_limit
    bot = Bot(settings.token, base_url=settings.api_base_url,
              base_file_url=settings.api_base_file_url)
    await connect(bot.initialize)
    receiver = Receiver(db, secret_of(settings), bot)
    app = web.Application()
    app.router.add_post("/" + urlparse(settings.webhook_url).path.lstrip("/"), receiver.handle)
    app.add_routes(routes(Monitor(TableStore(db).count_open)))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "0.0.0.0", settings.port).start()
    await bot.set_webhook(settings.webhook_url, secret_token=receiver.secret)
    log.info("receiving updates at %s", settings.webhook_url)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    overdue = asyncio.create_task(receiver.overdue.run()) if receiver.overdue else None
    try:
        await asyncio.wait([asyncio.create_task(stopping.wait()),
                            asyncio.create_task(receiver.gone.wait())],
                           return_when=asyncio.FIRST_COMPLETED)
        if receiver.gone.is_set():
            raise DatabaseGone(f"database {db.where} out of reach")
    finally:
        if overdue is not None:
            overdue.cancel()
        await runner.cleanup()
        await bot.shutdown()
        await db.close()
