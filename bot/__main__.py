"""`python -m bot`: run the bot (polling; a webhook when WEBHOOK_URL is set).

`python -m bot receive` and `python -m bot work`: the webhook receiver and a worker of
several worker processes on PostgreSQL (README, "Running several workers")."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from urllib.parse import urlparse

from bot.app import build_application, work
from bot.config import ConfigError, Settings, load_settings
from bot.telegram.connect import TokenRefused, connect
from storage.outage import EXIT_CODE, DatabaseGone

USAGE = "usage: python -m bot [receive | work]"


def main(argv: list[str]) -> int:
    role = argv[0] if argv else ""
    if role not in ("", "receive", "work") or len(argv) > 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = load_settings(os.environ)
        if role and settings.database_url is None:
            raise ConfigError(f"'{role}' needs DATABASE_URL (several workers share PostgreSQL)")
        if role == "receive" and settings.webhook_url is None:
            raise ConfigError("'receive' needs WEBHOOK_URL (the HTTPS address Telegram posts to)")
    except ConfigError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level_number,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        run(role, settings)
    except TokenRefused as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    except DatabaseGone:  # said once, as an ERROR, when it gave up (storage/outage.py)
        return EXIT_CODE
    except KeyboardInterrupt:  # while it waited for the network
        return 130
    return 0


def run(role: str, settings: Settings) -> None:
    if role == "receive":
        from bot.telegram.receiver import serve  # aiohttp is loaded only where it serves

        asyncio.run(serve(settings))
        return
    if role == "work":
        asyncio.run(work(settings))
        return
    app = build_application(settings)
    # The Application runs in this loop: it is initialized here, once Telegram answers.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(connect(app.initialize))
    if settings.webhook_url:
        path = urlparse(settings.webhook_url).path.lstrip("/")
        app.run_webhook(listen="0.0.0.0", port=settings.port, url_path=path,
                        webhook_url=settings.webhook_url, bootstrap_retries=-1)
    else:
        app.run_polling(bootstrap_retries=-1)
    services = app.bot_data.services
    if services is not None and services.store.db.outage.gone:
        raise DatabaseGone(f"database {services.store.db.where} out of reach")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
