"""The worker's sends held until its unit of work commits, kept in its transaction, made once.

Several workers (bot/telegram/worker.py): what a unit of work shows or sends is ``held`` until
its transaction commits (then released; dropped if it rolls back). A ``SendQueue`` keeps the
one-off calls that are data (bot/telegram/calls.py) in PostgreSQL: ``keep`` stores the held ones
in the unit's transaction, each is marked done once Telegram answered it, and a worker resumes
the calls a dead one left. A press's answer is kept too (as a call of no chat, ``ANSWERS``):
made at once after the commit, and by another worker only while Telegram still takes it
(``ANSWER_WITHIN``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field

from telegram import Bot
from telegram.error import BadRequest

from bot.telegram.calls import Call, perform
from bot.telegram.sending.chats import Job
from bot.telegram.sending.ports import SendQueue
from bot.telegram.sending.slots import Slot, Wait
from bot.ui.screen import Screen
from storage.outage import DatabaseGone

log = logging.getLogger(__name__)

ANSWERS = 0  # the chat of the kept answers to presses: none (Telegram counts no answer)
ANSWER_WITHIN = 15.0  # seconds after a press Telegram takes its answer ("query is too old")


@dataclass(eq=False)
class HeldAnswer:
    """A press's answer (``answer_callback_query``) held until the work is committed."""

    call: Call
    token: int | None = None  # its row in the ``SendQueue``


@dataclass(eq=False)
class Held:
    """What a unit of work showed and sent, in order, kept until it is committed: each slot's
    latest screen (with whether it renews, whether it may wait), the one-off calls, the
    answers to presses, and what to do once they are shown (``then``)."""

    shows: dict[Slot, tuple[Screen, bool, Wait]] = field(default_factory=dict)
    order: list[Slot | tuple[int, Job]] = field(default_factory=list)
    answers: list[HeldAnswer] = field(default_factory=list)
    then: list[Callable[[], None]] = field(default_factory=list)

    def show(self, slot: Slot, screen: Screen, *, renew: bool, wait: Wait) -> None:
        """The slot's latest screen: it renews if any did, it waits as little as any may."""
        if slot not in self.shows:
            self.order.append(slot)
        _, renewed, waits = self.shows.get(slot, (screen, False, Wait.GOING))
        self.shows[slot] = (screen, renewed or renew, min(waits, wait))

    def jobs(self) -> Iterator[tuple[int, Job, Call]]:
        """The held one-off calls that are data (those ``keep`` stores), with their chats."""
        for item in self.order:
            if isinstance(item, tuple) and (call := item[1].call) is not None:
                yield item[0], item[1], call

    def tokens(self) -> list[int]:
        """The rows ``keep`` stored of it, in order."""
        kept = [job.token for _, job, _ in self.jobs()] + [a.token for a in self.answers]
        return [token for token in kept if token is not None]

    def calls(self) -> Iterator[Call]:
        """The held calls that are data: the one-off calls and the answers."""
        yield from (call for _, _, call in self.jobs())
        yield from (answer.call for answer in self.answers)


_holding: ContextVar[Held | None] = ContextVar("outbox_holding", default=None)


def held_now() -> Held | None:
    """What this task holds now (None: it sends at once)."""
    return _holding.get()


@contextlib.contextmanager
def holding() -> Iterator[Held]:
    """Inside (in this task only), what is shown or sent is held."""
    held = Held()
    token = _holding.set(held)
    try:
        yield held
    finally:
        _holding.reset(token)


def not_holding() -> None:
    """In a context copied for a chat's queue: it sends what it is given (not held)."""
    _holding.set(None)


async def keep(queue: SendQueue, held: Held) -> None:
    """Store the held calls that are data and the answers in the queue, in the unit's
    transaction: made even if this process dies once it is committed. A file to draw is drawn
    now."""
    for chat_id, job, call in held.jobs():
        job.token = await queue.keep(chat_id, call.params.get("message_thread_id") or 0,
                                     call.text(), await call.drawn())
    for answer in held.answers:
        answer.token = await queue.keep(ANSWERS, 0, answer.call.text(), None)


async def mark_done(queue: SendQueue | None, token: int | None,
                    answered: Sequence[int] = ()) -> None:
    """A kept call was answered (or failed for good), told with the shared budget's
    ``answered`` calls; not marked, it is made again if this process dies."""
    if queue is None or token is None:
        return
    try:
        await queue.done(token, answered)  # waits while the database is out of reach
    except DatabaseGone:
        pass  # the process stops (said once): the call may be made again by another worker
    except Exception:
        log.exception("cannot mark kept call %s done", token)


class Presses:
    """Answers to button presses: not budgeted (Telegram counts no answer), each made in a task
    of its own (never behind a chat's sends); a refusal (too late) is logged."""

    def __init__(self, bot: Bot, queue: SendQueue | None) -> None:
        self.bot = bot
        self.queue = queue
        self._answering: set[asyncio.Task[None]] = set()

    async def answer(self, answer: HeldAnswer) -> None:
        try:
            await perform(self.bot, answer.call)
        except BadRequest as exc:
            log.info("cannot answer a button: %s", exc.message)
        finally:
            await mark_done(self.queue, answer.token)

    def soon(self, answer: HeldAnswer) -> None:
        """Answer in a task of its own."""
        answering = asyncio.create_task(self.answer(answer))
        self._answering.add(answering)
        answering.add_done_callback(self._answering.discard)
