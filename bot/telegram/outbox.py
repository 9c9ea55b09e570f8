"""Sending to Telegram within its limits, without losing the final state.

Every chat has one worker that sends in order, and every call it makes counts
toward the chat's budget: a group's sliding minute (Telegram allows about 20
messages plus edits), a private chat's few seconds (about one send or edit a
second, a burst of 3), and the bot's calls a second over all chats.

A *slot* is a message the bot keeps up to date (the group's table message, a
player's panel): showing a new screen only marks the slot dirty, and the worker
sends the latest screen when the budget allows, so a burst of presses becomes
one edit (latest state wins). Identical screens are never re-sent. A change
its reader need not see at once (the panel of a player who has nothing to do)
waits ``EASY`` seconds, so that the next changes fold into the same edit (most often
into the edit of his next turn); a change he needs (his turn) goes at once, with what
waited.

In a group, one-off messages (replies, results, votes) go before the table
message's edits, and the edits never take a share of the minute (``reserve``)
kept free for the one-off messages: a result never waits behind a burst of
edits. A game's table message is edited evenly over the minute (latest state wins,
``steady_of``), not in a burst and a freeze; a lobby, whose players wait for their press
to show, and a scoresheet being entered, which the tapping keeper waits for, are not
``even``: they are edited at once while the window allows. A 429 that
still happens is waited out (one warning).

Several workers (bot/telegram/worker.py): what a unit of work shows or sends is
``held`` until its transaction commits (then ``release``d; dropped if it rolls back),
and a ``SharedBudget`` counts every call in PostgreSQL too, so that the workers'
calls to one chat together stay within its budget. A ``SendQueue`` keeps the one-off
calls that are data (bot/telegram/calls.py) in PostgreSQL: ``keep`` stores the held ones
in the unit's transaction, each is marked done once Telegram answered it, and a worker
``resume``s the calls a dead one left. A press's answer is kept too (as a call of no chat,
``ANSWERS``): made at once after the commit, and by another worker only while Telegram
still takes it (``ANSWER_WITHIN``). Calls the outbox's owner decides after a commit (the
pin of a table message just posted) are kept with its writes in a transaction of their own
(``keeping``). A slot's post or edit goes only if its ``Delivery`` lets it (``sending``: no
other worker drew that table since).

A single process keeps its calls to groups in its database (``GroupCalls``), so that after
a restart a group's window starts with the calls of the minute before, which Telegram
still counts (``counted_before``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import signal
import time
import warnings
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning

from bot.telegram.answers import Answer
from bot.telegram.calls import Call, perform
from bot.ui.screen import Screen

log = logging.getLogger(__name__)
T = TypeVar("T")

GROUP_LIMIT = 18  # calls per GROUP_WINDOW seconds, under Telegram's 20 a minute
GROUP_WINDOW = 60.0
PRIVATE_LIMIT = 3  # calls per PRIVATE_WINDOW seconds in a private chat (sends and edits)
PRIVATE_WINDOW = 3.05  # Telegram's 3 s, counted from the answers (see ``Window``)
OVERALL_LIMIT = 28  # calls per second over all chats, under Telegram's 30
LONG_WAIT = 1.0  # a group waiting longer for its budget is not "busy" (see ``Outbox.busy``)
IN_FLIGHT = 0.02  # seconds to look again when the window is full of calls not yet answered
IN_FLIGHT_MAX = 24  # the outbox's calls at once, of PTB's 32 connections (``POOL_SIZE``)
EASY = 5.0  # seconds a panel whose reader need not act may wait, to fold later changes in
ANSWERS = 0  # the chat of the kept answers to presses: none (Telegram counts no answer)
ANSWER_WITHIN = 15.0  # seconds after a press Telegram takes its answer ("query is too old")
# Test only (tests/bot/test_sends.py): a worker with this set kills itself with SIGKILL once it
# committed work that kept a call (a one-off call, a press's answer, a pin) whose JSON has this
# in it, before any call (``release``).
DIE_AFTER_COMMIT = "CARDTABLE_TEST_DIE_AFTER_COMMIT"


class SharedBudget(Protocol):
    """A chat's budget shared with other processes (storage/budgets.py)."""

    async def take(self, chat_id: int, limit: int, period: float) -> tuple[int | None, float]:
        """Count one call of the chat now if ``limit`` calls in ``period`` seconds allow it:
        (its token, 0); else (None, the seconds to wait)."""

    async def answered(self, token: int) -> None:
        """The call was answered: it counts from now."""


class GroupCalls(Protocol):
    """A single process's calls to groups, kept for the process after a restart
    (storage/budgets.py)."""

    async def made(self, chat_id: int) -> None:
        """A call to the group was answered now."""

    async def recent(self, period: float) -> dict[int, list[float]]:
        """Each group's calls of the last ``period`` seconds: how long ago each was answered,
        oldest first."""


class SendQueue(Protocol):
    """The one-off calls kept until Telegram answered them, shared with other processes
    (storage/sends.py)."""

    async def keep(self, chat_id: int, thread_id: int, call: str, file: bytes | None) -> int:
        """Store a call (``Call.text``, its file) in the unit of work's transaction: its
        token."""

    async def done(self, token: int) -> None:
        """Telegram answered the call (or refused it): it is not made again."""

    def together(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Inside (this task): the store's writes and the calls kept are one transaction,
        committed at the end (undone if it raises)."""


def reserve_of(limit: int) -> int:
    """The share of a group's budget kept free of table edits for one-off messages."""
    return max(1, limit // 4)


def steady_of(limit: int) -> int:
    """A game's table message is edited evenly at two thirds of the group's budget (12 a
    minute, one every 5 s): the group view a few seconds behind the panels at most, while
    every edit it makes is one of the ~30 calls a second the bot has for all its tables."""
    return max(1, limit * 2 // 3)


@dataclass(eq=False)
class Slot:
    """A message kept up to date. ``renew`` asks for a fresh message (it notifies).
    ``thread_id``: the forum topic it lives in (0: none)."""

    key: str
    chat_id: int
    message_id: int | None = None
    thread_id: int = 0
    sent_digest: str | None = None
    screen: Screen | None = None
    renew: bool = False
    queued: bool = False
    due: float = 0.0  # not sent before (monotonic): a change its reader need not see at once
    live: bool = False  # the message on Telegram has buttons
    forgotten: bool = False  # its owner forgot it (another process draws it now): not sent
    even: bool = True  # a group's edits spread over the minute (see ``Outbox.show``)

    @property
    def pending(self) -> bool:
        """The screen differs from what was last sent (or must be posted anew)."""
        return self.screen is not None and (
            self.renew or self.screen.digest() != self.sent_digest)


@dataclass(eq=False)
class _Job:
    """A one-off call (a message, a document) sent in order with the chat's other sends."""

    make: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]
    call: Call | None = None  # what ``make`` does, as data (it may be kept)
    token: int | None = None  # its row in the ``SendQueue``


@dataclass
class Window:
    """At most ``limit`` calls in any ``period`` seconds (a sliding window, as Telegram
    counts; a leaky bucket would let twice the limit through around a burst). A call counts
    from when it was answered (until then: from now), so that a call slow to arrive never
    falls into the same window as one a period later."""

    limit: int
    period: float
    sent_at: deque[list[float]] = field(default_factory=deque)  # [answered at] (inf: not yet)

    def delay(self, limit: int | None = None) -> float:
        """Seconds until one more call fits, with at most ``limit`` (default: all) calls
        in the window (0: now)."""
        limit = self.limit if limit is None else limit
        now = time.monotonic()
        while self.sent_at and now - self.sent_at[0][0] >= self.period:
            self.sent_at.popleft()
        if len(self.sent_at) < limit:
            return 0.0
        answered = sorted(call[0] for call in self.sent_at)[len(self.sent_at) - limit]
        if answered == math.inf:
            return IN_FLIGHT
        return self.period - (now - answered) + 0.01

    def record(self) -> list[float]:
        """Count a call that is about to be made; set the cell to when it was answered."""
        call = [math.inf]
        self.sent_at.append(call)
        return call


@dataclass(eq=False)
class _Chat:
    """A chat's queue and budget. In a group, ``paced`` is how many of the window's calls
    the table messages' edits may take (``edits`` counts them): the rest of the window is
    kept for one-off calls. A game's table message is edited at most every ``period /
    steady`` seconds."""

    id: int
    window: Window
    paced: int = 0
    steady: int = 0
    edits: Window | None = None
    queue: deque[Slot | _Job] = field(default_factory=deque)
    resting: bool = False  # waiting long for a group's budget, or on purpose (``EASY``)
    worker: asyncio.Task[None] | None = None
    paused_until: float = 0.0  # a 429's wait
    edited_at: float = -1e9  # the table message's last paced edit
    counted: list[list[float]] = field(default_factory=list)  # its calls not yet answered
    shared: list[int] = field(default_factory=list)  # their tokens in the shared budget
    reserved: int | None = None  # the next call's token in the shared budget
    shared_until: float = 0.0  # the shared budget's wait
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def group(self) -> bool:
        return self.id < 0

    def next_item(self) -> Slot | _Job:
        """What goes next: in a group a one-off call before the table message's edits;
        in a private chat everything in order, but a slot that may still wait after what
        need not."""
        if self.group:
            job = next((item for item in self.queue if isinstance(item, _Job)), None)
            if job is not None:
                return job
        now = time.monotonic()
        return next((item for item in self.queue if not isinstance(item, Slot)
                     or item.due <= now), self.queue[0])


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        b.text, callback_data=b.data, url=b.url,
        web_app=None if b.web_app is None else WebAppInfo(b.web_app)) for b in row]
        for row in screen.rows])


def message_call(chat_id: int, screen: Screen, *, silent: bool = False, thread_id: int = 0,
                 reply_to: int | None = None) -> Call:
    """A screen as a new message of the chat."""
    buttons = markup(screen)
    return Call("send_message", {
        "chat_id": chat_id, "text": screen.text, "parse_mode": ParseMode.HTML.value,
        "reply_markup": None if buttons is None else buttons.to_dict(),
        "disable_web_page_preview": True, "disable_notification": silent or None,
        "message_thread_id": thread_id or None, "reply_to_message_id": reply_to,
        "allow_sending_without_reply": True if reply_to else None})


@dataclass(eq=False)
class _Answer:
    """A press's answer (``answer_callback_query``) held until the work is committed."""

    call: Call
    token: int | None = None  # its row in the ``SendQueue``


@dataclass(eq=False)
class Held:
    """What a unit of work showed and sent, in order, kept until it is committed: each slot's
    latest screen (with whether it renews, whether it may wait), the one-off calls, the
    answers to presses, and what to do once they are shown (``then``)."""

    shows: dict[Slot, tuple[Screen, bool, bool]] = field(default_factory=dict)
    order: list[Slot | tuple[int, _Job]] = field(default_factory=list)
    answers: list[_Answer] = field(default_factory=list)
    then: list[Callable[[], None]] = field(default_factory=list)

    def jobs(self) -> Iterator[tuple[int, _Job, Call]]:
        """The held one-off calls that are data (those ``keep`` stores), with their chats."""
        for item in self.order:
            if isinstance(item, tuple) and (call := item[1].call) is not None:
                yield item[0], item[1], call

    def calls(self) -> Iterator[Call]:
        """The held calls that are data: the one-off calls and the answers."""
        yield from (call for _, _, call in self.jobs())
        yield from (answer.call for answer in self.answers)


_holding: ContextVar[Held | None] = ContextVar("outbox_holding", default=None)


class Delivery:
    """What the outbox tells its owner: message ids to persist, chats that refuse the bot."""

    async def slot_sent(self, slot: Slot) -> None:
        """A slot's message was posted or edited (a new message id to persist)."""

    def sending(self, slot: Slot) -> contextlib.AbstractAsyncContextManager[bool]:
        """Around a slot's post or edit (and what ``slot_sent`` does): whether it may go now
        (False: it is dropped, not settled)."""
        return contextlib.nullcontext(True)

    async def slot_settled(self, slot: Slot) -> None:
        """A slot's latest screen is on Telegram (or was refused): nothing left to send."""

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        """The chat refuses messages (blocked, never started, kicked)."""

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup."""

    async def call_sent(self, after: dict[str, Any], result: Message | bool) -> None:
        """A call was made (its message, or True); ``after``: what the call asked to be done
        with what it made."""

    async def call_refused(self, after: dict[str, Any], error: BadRequest) -> None:
        """Telegram refused a call that has an ``after`` (a pin without the right to pin);
        by default the refusal stands (raised, logged as any failed send)."""
        raise error

    async def call_ready(self, call: Call) -> Call | None:
        """The call as it is to be made now (``Call.fill``); None: not at all."""
        return call


class Outbox:
    def __init__(self, bot: Bot, delivery: Delivery, *, group_limit: int = GROUP_LIMIT,
                 group_window: float = GROUP_WINDOW, overall_limit: int = OVERALL_LIMIT,
                 group_reserve: int | None = None, shared: SharedBudget | None = None,
                 queue: SendQueue | None = None, group_calls: GroupCalls | None = None) -> None:
        self.bot = bot
        self.shared = shared
        self.group_calls = group_calls
        self.queue = queue
        self.delivery = delivery
        self.group_limit = group_limit
        self.group_window = group_window
        self.group_reserve = reserve_of(group_limit) if group_reserve is None else group_reserve
        self._chats: dict[int, _Chat] = {}
        self.overall_limit = overall_limit
        self._overall = Window(overall_limit, 1.05)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT_MAX)  # never more than the pool holds
        self._unknown_until = 0.0  # before then a private chat's last calls are unknown
        self._before: dict[int, list[float]] = {}  # group -> its calls before a restart
        self.calls = 0  # API calls made (for the benchmarks)
        self.newest: dict[int, int] = {}  # chat -> the newest message id the bot posted there
        self._answering: set[asyncio.Task[None]] = set()  # kept answers being made

    # -- public ---------------------------------------------------------------------------

    def show(self, slot: Slot, screen: Screen, *, renew: bool = False,
             easy: bool = False) -> None:
        """Make ``slot`` show ``screen``; ``renew`` posts it as a new message (a notification);
        ``easy``: its reader need not see it at once (it may wait ``EASY`` seconds), unless
        buttons come or go, or what Telegram shows is unknown (a new message, a restart).
        Held (see ``holding``), it is shown once released."""
        held = _holding.get()
        if held is not None:
            if slot not in held.shows:
                held.order.append(slot)
            _, renewed, waits = held.shows.get(slot, (screen, False, True))
            held.shows[slot] = (screen, renewed or renew, waits and easy)
            return
        slot.screen = screen
        slot.renew = slot.renew or renew
        if not slot.pending:
            return
        if easy and not (slot.renew or slot.sent_digest is None or slot.live or screen.rows):
            if not slot.queued:
                slot.due = time.monotonic() + EASY
        elif slot.due:
            slot.due = 0.0
            self._chat(slot.chat_id).wake.set()
        if not slot.queued:
            slot.queued = True
            self._enqueue(slot.chat_id, slot)

    def shown(self, then: Callable[[], None]) -> None:
        """``then()`` once what was shown before is handed to the chats' queues: now, or (held)
        once released."""
        held = _holding.get()
        if held is None:
            then()
        else:
            held.then.append(then)

    def known(self, slot: Slot, screen: Screen) -> None:
        """The slot's message shows ``screen`` already (known from elsewhere: nothing to
        send), unless something was shown since."""
        if slot.screen is None and not slot.queued:
            slot.screen, slot.sent_digest, slot.live = screen, screen.digest(), bool(screen.rows)

    def after_restart(self) -> None:
        """The process before this one may have written to private chats moments ago (its
        calls are not known here): a private chat's window starts full, for one window (a
        group's are known: the shared budget, or ``counted_before``)."""
        self._unknown_until = time.monotonic() + PRIVATE_WINDOW

    def counted_before(self, groups: dict[int, list[float]]) -> None:
        """Calls to groups made by the process before this one (how long ago each was
        answered, oldest first): a group's window starts with them."""
        now = time.monotonic()
        self._before = {chat_id: [now - age for age in ages] for chat_id, ages in groups.items()}

    async def request(self, chat_id: int, call: Call) -> Any:
        """Make one call in order with the chat's other sends and within its budget; None if
        Telegram refused it, or (held) not sent yet (it may be kept: see ``SendQueue``)."""
        future = self.put(chat_id, call)
        return None if _holding.get() is not None else await future

    def put(self, chat_id: int, call: Call, token: int | None = None) -> asyncio.Future[Any]:
        """Like ``request`` without waiting for it; ``token``: its row in the queue (a kept
        call that another process left unanswered: see ``resume``)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._enqueue(chat_id, _Job(lambda: self._perform(chat_id, call), future, call, token))
        return future

    async def send(self, chat_id: int, screen: Screen, *, thread_id: int = 0,
                   reply_to: int | None = None) -> Message | None:
        """Post a one-off message in order with the chat's other sends; None if it failed.
        ``reply_to``: a message of the chat it answers (if it is still there)."""
        return await self.request(chat_id, message_call(chat_id, screen, thread_id=thread_id,
                                                        reply_to=reply_to))

    def post(self, chat_id: int, screen: Screen, *, silent: bool = False, thread_id: int = 0,
             after: dict[str, Any] | None = None) -> None:
        """Like ``send`` without waiting for it; a ``silent`` message makes no sound
        (the timers' messages in a chat's quiet hours); ``after``: see ``Call``."""
        call = message_call(chat_id, screen, silent=silent, thread_id=thread_id)
        call.after = after
        self.put(chat_id, call)

    async def keep(self, held: Held) -> None:
        """Store the held calls that are data and the answers in the queue (none without
        one), in the unit's transaction: made even if this process dies once it is committed.
        A file to draw is drawn now."""
        if self.queue is None:
            return
        for chat_id, job, call in held.jobs():
            job.token = await self.queue.keep(
                chat_id, call.params.get("message_thread_id") or 0, call.text(),
                await call.drawn())
        for answer in held.answers:
            answer.token = await self.queue.keep(ANSWERS, 0, answer.call.text(), None)

    async def resume(self, chat_id: int, call: Call, token: int, age: float) -> None:
        """Make a call that another process kept ``age`` seconds ago and left unanswered (it
        died): in order with the chat's sends; a press's answer (``ANSWERS``) at once while
        Telegram still takes it, else it is only marked done."""
        if chat_id != ANSWERS:
            self.put(chat_id, call, token)
        elif age < ANSWER_WITHIN:
            self._answer_soon(_Answer(call, token))
        else:
            await self._done(token)

    def share(self, workers: int) -> None:
        """One of ``workers`` processes: its even share of the calls a second over all chats
        (no lock shared by all of them on every call)."""
        self._overall.limit = max(1, self.overall_limit // max(1, workers))

    @contextlib.contextmanager
    def holding(self) -> Iterator[Held]:
        """Inside (in this task only), what is shown or sent is held: ``release`` it once the
        work is committed (a held ``request`` returns None at once)."""
        held = Held()
        token = _holding.set(held)
        try:
            yield held
        finally:
            _holding.reset(token)

    @contextlib.asynccontextmanager
    async def keeping(self) -> AsyncIterator[None]:
        """Inside (this task), outside a unit of work: what is sent is held and kept in one
        transaction with the store's writes inside (``SendQueue.together``; without a queue
        they are written as they come), and sent once that is committed; nothing if it
        raises."""
        with self.holding() as held:
            async with (contextlib.nullcontext() if self.queue is None
                        else self.queue.together()):
                yield
                await self.keep(held)
        self.release(held)

    async def answer(self, query_id: str, answer: Answer) -> None:
        """Answer a button press: at once, or (held) once the work is committed (kept with it:
        see ``keep``). Not budgeted: Telegram counts no answer; a refusal (too late) is
        logged."""
        call = Call("answer_callback_query", {
            "callback_query_id": query_id, "text": answer.text or None,
            "show_alert": answer.alert, "url": answer.url})
        held = _holding.get()
        if held is not None:
            held.answers.append(_Answer(call))
            return
        await self._answer(_Answer(call))

    async def _answer(self, answer: _Answer) -> None:
        try:
            await perform(self.bot, answer.call)
        except BadRequest as exc:
            log.info("cannot answer a button: %s", exc.message)
        finally:
            if answer.token is not None:
                await self._done(answer.token)

    def _answer_soon(self, answer: _Answer) -> None:
        """Answer a press in a task of its own (not behind any chat's sends)."""
        answering = asyncio.create_task(self._answer(answer))
        self._answering.add(answering)
        answering.add_done_callback(self._answering.discard)

    def release(self, held: Held) -> None:
        """Show and send what was held, in order; answer the presses."""
        die = os.environ.get(DIE_AFTER_COMMIT)
        if die and any(die in call.text() for call in held.calls()):
            os.kill(os.getpid(), signal.SIGKILL)
        for answer in held.answers:
            self._answer_soon(answer)
        for item in held.order:
            if isinstance(item, Slot):
                screen, renew, easy = held.shows[item]
                self.show(item, screen, renew=renew, easy=easy)
            else:
                self._enqueue(*item)
        for then in held.then:
            then()

    @property
    def busy(self) -> bool:
        """Something is queued to be sent soon: a group waiting long for its budget does
        not count (it may wait up to a minute; a private chat only seconds), nor a change
        that waits because its reader need not see it at once (see ``holds``)."""
        return any(chat.queue and not chat.resting for chat in self._chats.values())

    def backlog(self) -> Counter[tuple[str, str]]:
        """What waits to be sent (the metrics'), by chat (``group``, ``private``) and kind:
        table messages and panels to draw (``screen``), one-off calls (``call``)."""
        return Counter(("group" if chat.group else "private",
                        "screen" if isinstance(item, Slot) else "call")
                       for chat in self._chats.values() for item in chat.queue)

    def holds(self, chat_id: int | None = None) -> bool:
        """Something is left to send to this chat, or (None) to any chat, what may wait
        included."""
        if chat_id is None:
            return any(chat.queue for chat in self._chats.values())
        chat = self._chats.get(chat_id)
        return chat is not None and bool(chat.queue)

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued send is done, at most ``timeout`` seconds; then stop.

        What is left is only the latest look of messages, which a restart redraws.
        """
        workers = [c.worker for c in self._chats.values() if c.worker and not c.worker.done()]
        if workers:
            _, late = await asyncio.wait(workers, timeout=timeout)
            for worker in late:
                worker.cancel()
            if late:
                log.warning("shutting down with %d chats still waiting to be updated", len(late))

    # -- workers --------------------------------------------------------------------------

    def _chat(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            if chat_id < 0:
                paced = max(1, self.group_limit - self.group_reserve)
                window = Window(self.group_limit, self.group_window)
                window.sent_at.extend([at] for at in self._before.pop(chat_id, ()))
                chat = _Chat(chat_id, window, paced, min(paced, steady_of(self.group_limit)),
                             Window(paced, self.group_window))
            else:
                window = Window(PRIVATE_LIMIT, PRIVATE_WINDOW)
                if time.monotonic() < self._unknown_until:
                    start = self._unknown_until - PRIVATE_WINDOW
                    window.sent_at.extend([start] for _ in range(PRIVATE_LIMIT))
                chat = _Chat(chat_id, window)
            self._chats[chat_id] = chat
        return chat

    def _enqueue(self, chat_id: int, item: Slot | _Job) -> None:
        held = _holding.get()
        if held is not None and isinstance(item, _Job):
            held.order.append((chat_id, item))
            return
        chat = self._chat(chat_id)
        chat.queue.append(item)
        chat.wake.set()  # a one-off call need not wait for a paced edit
        if chat.worker is None or chat.worker.done():
            context = copy_context()  # not the unit's that started it: it would hold its calls
            context.run(_holding.set, None)
            chat.worker = asyncio.create_task(self._work(chat), context=context)

    async def _work(self, chat: _Chat) -> None:
        while chat.queue:
            item = chat.next_item()
            paced = item if chat.group and isinstance(item, Slot) else None
            delay = await self._wait_for(chat, paced=paced)
            if isinstance(item, Slot) and item.due:
                easy = item.due - time.monotonic()
                chat.resting = chat.resting or easy > 0
                delay = max(delay, easy)
            if delay > 0:
                chat.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(chat.wake.wait(), delay)
                continue  # something else may go first now
            chat.resting = False
            self._record(chat, paced=paced)
            failed = dropped = False
            try:
                if isinstance(item, Slot):
                    async with self.delivery.sending(item) as ours:
                        old = await self._sync(chat, item) if ours else None
                        dropped = not ours
                    if old is not None:
                        await self._retire(chat, old)
                else:
                    result = await self._request(chat, item.make())
                    if not item.future.done():
                        item.future.set_result(result)
            except _Retry:
                continue  # the same item again, after the pause
            except Exception:  # never let one bad send stop the chat's queue
                log.exception("sending to chat %s failed", chat.id)
                failed = True
                if isinstance(item, _Job) and not item.future.done():
                    item.future.set_result(None)
            finally:
                await self._settle(chat)  # counted, though nothing was sent (nothing changed)
            if isinstance(item, _Job) and item.token is not None:
                await self._done(item.token)
            chat.queue.remove(item)
            if isinstance(item, Slot):
                item.due = 0.0
                if dropped:
                    item.queued = False
                elif not failed and item.pending:
                    chat.queue.append(item)  # it changed while being sent
                else:
                    item.queued = False
                    await self.delivery.slot_settled(item)

    def _delay(self, chat: _Chat, *, paced: Slot | None = None) -> float:
        """Seconds until the chat may make its next call; ``paced``: a group message's edit
        (never into the group's reserve; evenly spread if the slot is ``even``). Sets
        ``resting``."""
        now = time.monotonic()
        budget = chat.window.delay()
        if paced is not None and chat.edits is not None:
            budget = max(budget, chat.edits.delay())
            if paced.even:
                budget = max(budget, chat.edited_at + chat.window.period / chat.steady - now)
        chat.resting = chat.group and budget > LONG_WAIT
        return max(budget, chat.paused_until - now, chat.shared_until - now,
                   self._overall.delay())

    def _record(self, chat: _Chat, *, paced: Slot | None = None) -> None:
        chat.counted += [chat.window.record(), self._overall.record()]
        if chat.reserved is not None:
            chat.shared.append(chat.reserved)
            chat.reserved = None
        if paced is not None and chat.edits is not None:
            chat.counted.append(chat.edits.record())
            chat.edited_at = time.monotonic()

    async def _settle(self, chat: _Chat) -> None:
        """The chat's counted calls were answered (or not made after all): they count from
        now."""
        now = time.monotonic()
        for call in chat.counted:
            call[0] = now
        if chat.counted:
            await self._keep(chat)
        chat.counted.clear()
        tokens, chat.shared = chat.shared, []
        for token in tokens:
            assert self.shared is not None
            await self.shared.answered(token)

    async def _wait_for(self, chat: _Chat, *, paced: Slot | None = None) -> float:
        """``_delay``, once the chat's next call is reserved in the shared budget (or the
        shared budget said how long to wait); the caller counts the call (``_record``) with
        no wait in between, as this process's other chats may be counting theirs."""
        delay = self._delay(chat, paced=paced)
        if delay <= 0 and self.shared is not None and chat.reserved is None:
            token, wait = await self.shared.take(chat.id, chat.window.limit, chat.window.period)
            chat.reserved, chat.shared_until = token, time.monotonic() + wait
            delay = self._delay(chat, paced=paced)
        return delay

    async def _budget(self, chat: _Chat) -> None:
        """Wait until one more call of the chat fits its budget, and count it."""
        while (delay := await self._wait_for(chat)) > 0:
            await asyncio.sleep(delay)
        chat.resting = False
        self._record(chat)

    async def _sync(self, chat: _Chat, slot: Slot) -> int | None:
        """Send the slot's latest screen (its budget is counted already); the message it
        replaces, to remove, if it was posted anew."""
        screen = slot.screen
        assert screen is not None
        digest = screen.digest()
        if not slot.renew and digest == slot.sent_digest:
            return None
        old = slot.message_id
        if slot.renew or old is None:
            slot.renew = False
            message = await self._request(chat, self._post(slot.chat_id, screen,
                                                           thread_id=slot.thread_id))
            if message is None:
                slot.sent_digest = digest  # refused: not again until shown anew
                return None
            slot.message_id, slot.sent_digest = message.message_id, digest
            slot.live = bool(screen.rows)
            await self.delivery.slot_sent(slot)
            return old
        try:
            await self._request(chat, self.bot.edit_message_text(
                screen.text, chat_id=slot.chat_id, message_id=old, parse_mode=ParseMode.HTML,
                reply_markup=markup(screen), disable_web_page_preview=True))
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                slot.sent_digest = digest
                return None
            log.info("cannot edit message %s in %s (%s): posting anew", old, slot.chat_id, exc)
            slot.message_id = None
            slot.renew = True
            raise _Retry from None
        slot.sent_digest, slot.live = digest, bool(screen.rows)
        await self.delivery.slot_sent(slot)
        return None

    async def _retire(self, chat: _Chat, message_id: int) -> None:
        """Remove an old copy of a renewed message (or at least its buttons)."""
        try:
            await self._budget(chat)
            await self._once(chat, self.bot.delete_message(chat.id, message_id))
        except BadRequest:
            try:
                await self._budget(chat)
                await self._once(chat, self.bot.edit_message_reply_markup(
                    chat.id, message_id, reply_markup=None))
            except BadRequest:
                log.debug("old message %s in %s is gone", message_id, chat.id)

    async def _once(self, chat: _Chat, request: Awaitable[T]) -> T | None:
        """A call that is not repeated after a 429 (only waited out by the next one)."""
        try:
            return await self._request(chat, request)
        except _Retry:
            return None

    async def _keep(self, chat: _Chat) -> None:
        """Keep a group's call for after a restart (if that fails, the call was made still)."""
        if self.group_calls is None or not chat.group:
            return
        try:
            await self.group_calls.made(chat.id)
        except Exception:
            log.exception("cannot keep a call to group %s", chat.id)

    async def _done(self, token: int) -> None:
        """A kept call was answered (or failed for good); not marked, it is made again if this
        process dies."""
        assert self.queue is not None
        try:
            await self.queue.done(token)
        except Exception:
            log.exception("cannot mark kept call %s done", token)

    async def _post(self, chat_id: int, screen: Screen, *, thread_id: int = 0) -> Message:
        message: Message = await self._perform(chat_id, message_call(chat_id, screen,
                                                                     thread_id=thread_id))
        return message

    async def _perform(self, chat_id: int, call: Call) -> Any:
        if call.fill is not None:
            ready = await self.delivery.call_ready(call)
            if ready is None:
                return None
            call = ready
        try:
            result = await perform(self.bot, call)
        except BadRequest as exc:
            if call.after is None:
                raise
            await self.delivery.call_refused(call.after, exc)
            return None
        if isinstance(result, Message):
            self.newest[chat_id] = max(self.newest.get(chat_id, 0), result.message_id)
        if call.after is not None:
            await self.delivery.call_sent(call.after, result)
        return result

    async def _request(self, chat: _Chat, request: Awaitable[T]) -> T | None:
        """One API call: 429 pauses the chat and retries; a refusal is reported, not raised."""
        self.calls += 1
        try:
            async with self._in_flight:  # many chats at once (a start-up) wait here, not in
                return await request     # PTB's pool (its timeout would fail the call)
        except RetryAfter as exc:
            delay = _seconds(exc)
            chat.paused_until = time.monotonic() + float(delay) + 0.1
            log.warning("429 in chat %s: waiting %.1f s", chat.id, delay)
            raise _Retry from None
        except Forbidden as exc:
            await self.delivery.forbidden(chat.id, exc)
            return None
        except ChatMigrated as exc:
            await self.delivery.migrated(chat.id, exc.new_chat_id)
            return None
        except (TimedOut, NetworkError) as exc:
            if isinstance(exc, BadRequest):
                raise
            chat.paused_until = time.monotonic() + 1.0
            log.warning("network error in chat %s: %s; retrying", chat.id, exc)
            raise _Retry from None
        finally:
            await self._settle(chat)


def _seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds: PTB 22 gives an int (with a deprecation warning) or, when
    opted in, a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = error.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


class _Retry(Exception):
    """Send the same queue item again after the chat's pause."""

