"""Button presses held up by an outage of the database (issue 35): each one ends stored, or
answered "not saved, try again"; never both, never neither.

Telegram takes a press's answer for about 15 s. So a press stored in the inbox is applied
only within ``LATE`` seconds of the receiver storing it (storage/inbox.py); older, it is
answered "not saved" and changes nothing. A worker that had a press in hand when the
database went out of reach answers it "not saved" itself, without the database, once it is
older than that (``InHand``); so does the receiver for each press it stored that is not
done by then (``Overdue``): whichever worker takes it when the database is back finds it
too late.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.telegram.answers import Answer
from bot.telegram.presenter import Presenter
from storage import inbox
from storage.inbox import LATE, MARGIN
from storage.outage import Outage, impatient, of_outage
from storage.postgres import PostgresDatabase


@dataclass(frozen=True)
class Press:
    query_id: str
    chat_id: int  # the chat of the pressed message (its language), or the presser's
    language: str | None  # the presser's, as Telegram says it

    @classmethod
    def of(cls, update: dict[str, Any]) -> Press | None:
        """The press an update (Telegram's JSON) is, if it is one of a sane shape."""
        try:
            query = update["callback_query"]
            chat = (query.get("message") or {}).get("chat") or query["from"]
            language = query["from"].get("language_code")
            return cls(str(query["id"]), int(chat["id"]),
                       language if isinstance(language, str) else None)
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


class Overdue:
    """The presses a receiver stored, each looked at once it is too late to be done
    (``LATE`` + ``MARGIN`` after): one not done by then, or every one while the database is
    out of reach, is answered "not saved" (whoever takes it later finds it too late). One
    done by then was answered already, and Telegram refuses a second answer."""

    def __init__(self, db: PostgresDatabase, not_saved: Callable[[Press], Awaitable[None]]
                 ) -> None:
        self.db = db
        self.not_saved = not_saved
        self.due: deque[tuple[float, int, Press]] = deque()  # when, update id, press

    def add(self, update_id: int, press: Press) -> None:
        self.due.append((time.monotonic() + LATE + MARGIN, update_id, press))

    async def run(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            due: list[tuple[float, int, Press]] = []
            while self.due and self.due[0][0] <= time.monotonic():
                due.append(self.due.popleft())
            if due:
                await self._look([update_id for _, update_id, _ in due],
                                 [press for _, _, press in due])

    async def _look(self, update_ids: list[int], presses: list[Press]) -> None:
        try:
            with impatient():
                async with self.db.reading() as conn:
                    done = await inbox.done(conn, update_ids)
        except Exception as exc:
            if not of_outage(exc):
                raise
            done = set()  # none can be done while it is out of reach
        for update_id, press in zip(update_ids, presses, strict=True):
            if update_id not in done:
                await self.not_saved(press)
