"""Start-up that waits for the network: the first call to Telegram (getMe) is retried with
back-off while the network or Telegram does not answer, one log line each; a token Telegram
refuses stops start-up with one line (a container may boot before its network; a wrong token
never becomes right)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram.error import InvalidToken, NetworkError

log = logging.getLogger(__name__)

FIRST_WAIT = 1.0  # seconds before the first retry, doubled after each failure
LONGEST_WAIT = 30.0


class TokenRefused(Exception):
    """Telegram answered 401 (or 404) to the token: the one line to print."""

    def __init__(self) -> None:
        super().__init__("BOT_TOKEN was refused by Telegram (401 Unauthorized): copy the token "
                         "again from @BotFather")


async def connect(initialize: Callable[[], Awaitable[object]]) -> None:
    """Run ``initialize`` (an Application's or a Bot's) until Telegram answers."""
    wait = FIRST_WAIT
    while True:
        try:
            await initialize()
            return
        except InvalidToken:
            raise TokenRefused from None
        except NetworkError as exc:  # TimedOut and 5xx answers included
            log.warning("Telegram is not reachable (%s): trying again in %g s",
                        exc.message or type(exc).__name__, wait)
        await asyncio.sleep(wait)
        wait = min(wait * 2, LONGEST_WAIT)
