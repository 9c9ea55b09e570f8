"""`python -m bot`: run the bot (polling; a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import logging
import os
import sys
from urllib.parse import urlparse

from bot.app import build_application
from bot.config import ConfigError, load_settings


def main() -> int:
    try:
        settings = load_settings(os.environ)
    except ConfigError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level_number,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    app = build_application(settings)
    if settings.webhook_url:
        path = urlparse(settings.webhook_url).path.lstrip("/")
        app.run_webhook(listen="0.0.0.0", port=settings.port, url_path=path,
                        webhook_url=settings.webhook_url)
    else:
        app.run_polling()
    return 0


if __name__ == "__main__":
    sys.exit(main())
