"""Button presses held up by an outage of the database (issue 35): each one ends stored, or
answered "not saved, try again"; never both, never neither.

Telegram takes a press's answer for about 15 s. So a press stored in the inbox is applied
only within ``LATE`` seconds of the receiver storing it (storage/inbox.py); older, it is
answered "not saved" and changes nothing. A worker that had a press in hand when the
database went out of reach answers it "not saved" itself, without the database, once it is
older than that (``InHand``): whichever worker takes it when the database is back finds it
too late.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.telegram.answers import Answer
from bot.telegram.presenter import Presenter
from storage.inbox import LATE, MARGIN
from storage.outage import Outage


@dataclass(frozen=True)
class Press:
    query_id: str
    chat_id: int  # the chat of the pressed message (its language), or the presser's

    @classmethod
    def of(cls, update: dict[str, Any]) -> Press | None:
        """The press an update (Telegram's JSON) is, if it is one of a sane shape."""
        try:
            query = update["callback_query"]
            chat = (query.get("message") or {}).get("chat") or query["from"]
            return cls(str(query["id"]), int(chat["id"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


class InHand:
    """The press of the unit of work under way, and, if the database went out of reach
    during it, the answer "not saved" given once the press is too late while it still is."""

    def __init__(self, outage: Outage, not_saved: Callable[[Press], Awaitable[None]]) -> None:
        self.outage = outage
        self.not_saved = not_saved
        self.press: Press | None = None
        self.told: Press | None = None  # the last press it answered (not to be again)
        self.due = 0.0  # time.monotonic() when the press is too late, with the margin
        self._waiting: asyncio.Task[None] | None = None

    def take(self, press: Press | None, age: float) -> None:
        """The unit of work of a press stored ``age`` seconds ago starts."""
        self.press, self.due = press, time.monotonic() + LATE + MARGIN - age

    def done(self) -> None:
        """The unit ended (committed, or failed not for an outage): its press is answered."""
        self.press = None

    def failed(self) -> None:
        """The unit failed, the database out of reach: its press is answered "not saved" once
        it is too late, if the database is still out of reach then."""
        press = self.press
        if press is None or (self._waiting is not None and not self._waiting.done()):
            return
        self._waiting = asyncio.create_task(self._answer(press))

    async def _answer(self, press: Press) -> None:
        await asyncio.sleep(max(0.0, self.due - time.monotonic()))
        if self.press == press and self.outage.since is not None:
            self.press, self.told = None, press
            await self.not_saved(press)

    async def close(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._waiting


async def not_saved(presenter: Presenter, press: Press) -> None:
    """Answer the press "not saved, try again" (held, if in a unit of work)."""
    await presenter.outbox.answer(press.query_id,
                                  Answer.refuse(presenter.not_stored(press.chat_id)))
