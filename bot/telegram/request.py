"""PTB's HTTP stack with the metrics of every Bot API call: its method, how long Telegram took
to answer, the answer's HTTP status (a 429 among them), or that no answer came."""

from __future__ import annotations

from typing import Any

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
