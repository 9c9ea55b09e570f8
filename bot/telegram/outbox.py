"""Sending to Telegram within its limits, without losing the final state.

Every chat has one worker that sends in order. A *slot* is a message the bot
keeps up to date (the group's table message, a player's panel): showing a new
screen only marks the slot dirty, and the worker sends the latest screen when
the chat's budget allows, so a burst of presses becomes one edit (latest state
wins). Identical screens are never re-sent ("message is not modified" never
happens). Group chats get a sliding-window budget (Telegram allows about 20
messages-plus-edits a minute); new messages in private chats get one of about
one a second. A 429 is waited out and the latest screen is sent afterwards.
"""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning

from bot.ui.screen import Screen

log = logging.getLogger(__name__)
T = TypeVar("T")

GROUP_LIMIT = 18  # sends per GROUP_WINDOW seconds, under Telegram's 20 a minute
GROUP_WINDOW = 60.0
PRIVATE_LIMIT = 3  # new messages per PRIVATE_WINDOW seconds in a private chat
PRIVATE_WINDOW = 3.3  # a little over Telegram's 3 s: calls arrive after they leave
OVERALL_LIMIT = 28  # calls per second over all chats, under Telegram's 30


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


@dataclass
class Window:
    """At most ``limit`` calls in any ``period`` seconds (a sliding window, as Telegram
    counts; a leaky bucket would let twice the limit through around a burst)."""

    limit: int
    period: float
    sent_at: deque[float] = field(default_factory=deque)

    def delay(self) -> float:
        """Seconds until one more call fits (0: now)."""
        now = time.monotonic()
        while self.sent_at and now - self.sent_at[0] >= self.period:
            self.sent_at.popleft()
        if len(self.sent_at) < self.limit:
            return 0.0
        return self.period - (now - self.sent_at[0]) + 0.01

    def record(self) -> None:
        self.sent_at.append(time.monotonic())


@dataclass
class _Chat:
    window: Window
    queue: deque[Slot | _Job] = field(default_factory=deque)
    throttled: bool = False  # a group waiting for its minute's budget
    worker: asyncio.Task[None] | None = None
    paused_until: float = 0.0


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.rows:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        b.text, callback_data=b.data, url=b.url,
        web_app=None if b.web_app is None else WebAppInfo(b.web_app)) for b in row]
        for row in screen.rows])


class Delivery:
    """What the outbox tells its owner: message ids to persist, chats that refuse the bot."""

    async def slot_sent(self, slot: Slot) -> None:
        """A slot's message was posted or edited (a new message id to persist)."""

    async def slot_settled(self, slot: Slot) -> None:
        """A slot's latest screen is on Telegram (or was refused): nothing left to send."""

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        """The chat refuses messages (blocked, never started, kicked)."""

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup."""


class Outbox:
    def __init__(self, bot: Bot, delivery: Delivery, *, group_limit: int = GROUP_LIMIT,
                 group_window: float = GROUP_WINDOW, overall_limit: int = OVERALL_LIMIT) -> None:
        self.bot = bot
        self.delivery = delivery
        self.group_limit = group_limit
        self.group_window = group_window
        self._chats: dict[int, _Chat] = {}
        self._overall = Window(overall_limit, 1.05)
        self.calls = 0  # API calls made (for the benchmarks)

    # -- public ---------------------------------------------------------------------------

    def show(self, slot: Slot, screen: Screen, *, renew: bool = False) -> None:
        """Make ``slot`` show ``screen``; ``renew`` posts it as a new message (a notification)."""
        slot.screen = screen
        slot.renew = slot.renew or renew
        if slot.pending and not slot.queued:
            slot.queued = True
            self._enqueue(slot.chat_id, slot)

    async def call(self, chat_id: int, make: Callable[[], Awaitable[T]]) -> T | None:
        """Make one call (``make()`` builds it) in order with the chat's other sends and
        within its budget; None if Telegram refused it."""
        future: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
        self._enqueue(chat_id, _Job(make, future))
        return await future

    async def send(self, chat_id: int, screen: Screen, *, thread_id: int = 0,
                   reply_to: int | None = None) -> Message | None:
        """Post a one-off message in order with the chat's other sends; None if it failed.
        ``reply_to``: a message of the chat it answers (if it is still there)."""
        return await self.call(chat_id, lambda: self._post(chat_id, screen, thread_id=thread_id,
                                                           reply_to=reply_to))

    def post(self, chat_id: int, screen: Screen, *, silent: bool = False, thread_id: int = 0,
             sent: Callable[[Message], Awaitable[None]] | None = None) -> None:
        """Like ``send`` without waiting for it; a ``silent`` message makes no sound
        (the timers' messages in a chat's quiet hours); ``sent`` is told the message."""
        async def make() -> Message:
            message = await self._post(chat_id, screen, silent=silent, thread_id=thread_id)
            if sent is not None:
                await sent(message)
            return message

        self.later(chat_id, make)

    def later(self, chat_id: int, make: Callable[[], Awaitable[Any]]) -> None:
        """Like ``call`` without waiting for it."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._enqueue(chat_id, _Job(make, future))

    @property
    def busy(self) -> bool:
        """Something is queued to be sent soon: a group waiting for its minute's budget
        does not count (it may wait up to a minute; a private chat only seconds)."""
        return any(chat.queue and not chat.throttled for chat in self._chats.values())

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
            window = (Window(self.group_limit, self.group_window) if chat_id < 0
                      else Window(PRIVATE_LIMIT, PRIVATE_WINDOW))
            chat = self._chats[chat_id] = _Chat(window)
        return chat

    def _enqueue(self, chat_id: int, item: Slot | _Job) -> None:
        chat = self._chat(chat_id)
        chat.queue.append(item)
        if chat.worker is None or chat.worker.done():
            chat.worker = asyncio.create_task(self._work(chat_id, chat))

    async def _work(self, chat_id: int, chat: _Chat) -> None:
        while chat.queue:
            item = chat.queue[0]
            posting = not isinstance(item, Slot) or item.renew or item.message_id is None
            await self._wait_budget(chat_id, chat, posting=posting)
            failed = False
            try:
                if isinstance(item, Slot):
                    await self._sync(item)
                else:
                    result = await self._call(chat_id, item.make())
                    if not item.future.done():
                        item.future.set_result(result)
            except _Retry:
                continue  # the same item again, after the pause
            except Exception:  # never let one bad send stop the chat's queue
                log.exception("sending to chat %s failed", chat_id)
                failed = True
                if isinstance(item, _Job) and not item.future.done():
                    item.future.set_result(None)
            chat.queue.popleft()
            if isinstance(item, Slot):
                if not failed and item.pending:
                    chat.queue.append(item)  # it changed while being sent
                else:
                    item.queued = False
                    await self.delivery.slot_settled(item)

    async def _wait_budget(self, chat_id: int, chat: _Chat, *, posting: bool) -> None:
        """In a group every send and edit counts; in a private chat only new messages do
        (a panel's edits are not throttled the same way; a 429 would still pause the
        chat). Every call counts toward the bot's overall rate."""
        windows = [chat.window] if chat_id < 0 or posting else []
        windows.append(self._overall)
        while True:
            delay = max([chat.paused_until - time.monotonic(), *(w.delay() for w in windows)])
            if delay <= 0:
                break
            # Only a group's own minute budget makes a long wait (see ``busy``).
            chat.throttled = chat_id < 0 and chat.window.delay() > 0
            await asyncio.sleep(delay)
        chat.throttled = False
        for window in windows:
            window.record()

    async def _sync(self, slot: Slot) -> None:
        screen = slot.screen
        assert screen is not None
        digest = screen.digest()
        if not slot.renew and digest == slot.sent_digest:
            return
        old = slot.message_id
        if slot.renew or old is None:
            slot.renew = False
            message = await self._call(slot.chat_id, self._post(slot.chat_id, screen,
                                                                thread_id=slot.thread_id))
            if message is None:
                slot.sent_digest = digest  # refused: not again until shown anew
                return
            slot.message_id, slot.sent_digest = message.message_id, digest
            await self.delivery.slot_sent(slot)
            if old is not None:
                await self._retire(slot.chat_id, old)
            return
        try:
            await self._call(slot.chat_id, self.bot.edit_message_text(
                screen.text, chat_id=slot.chat_id, message_id=old, parse_mode=ParseMode.HTML,
                reply_markup=markup(screen), disable_web_page_preview=True))
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                slot.sent_digest = digest
                return
            log.info("cannot edit message %s in %s (%s): posting anew", old, slot.chat_id, exc)
            slot.message_id = None
            slot.renew = True
            raise _Retry from None
        slot.sent_digest = digest
        await self.delivery.slot_sent(slot)

    async def _retire(self, chat_id: int, message_id: int) -> None:
        """Remove an old copy of a renewed message (or at least its buttons)."""
        try:
            await self._call(chat_id, self.bot.delete_message(chat_id, message_id))
        except BadRequest:
            try:
                await self._call(chat_id, self.bot.edit_message_reply_markup(
                    chat_id, message_id, reply_markup=None))
            except BadRequest:
                log.debug("old message %s in %s is gone", message_id, chat_id)

    def _post(self, chat_id: int, screen: Screen, *, silent: bool = False, thread_id: int = 0,
              reply_to: int | None = None) -> Awaitable[Message]:
        return self.bot.send_message(
            chat_id, screen.text, parse_mode=ParseMode.HTML, reply_markup=markup(screen),
            disable_web_page_preview=True, disable_notification=silent or None,
            message_thread_id=thread_id or None, reply_to_message_id=reply_to,
            allow_sending_without_reply=True if reply_to else None)

    async def _call(self, chat_id: int, request: Awaitable[T]) -> T | None:
        """One API call: 429 pauses the chat and retries; a refusal is reported, not raised."""
        chat = self._chat(chat_id)
        self.calls += 1
        try:
            return await request
        except RetryAfter as exc:
            delay = _seconds(exc)
            chat.paused_until = time.monotonic() + float(delay) + 0.1
            log.info("429 in chat %s: waiting %.1f s", chat_id, delay)
            raise _Retry from None
        except Forbidden as exc:
            await self.delivery.forbidden(chat_id, exc)
            return None
        except ChatMigrated as exc:
            await self.delivery.migrated(chat_id, exc.new_chat_id)
            return None
        except (TimedOut, NetworkError) as exc:
            if isinstance(exc, BadRequest):
                raise
            chat.paused_until = time.monotonic() + 1.0
            log.warning("network error in chat %s: %s; retrying", chat_id, exc)
            raise _Retry from None


def _seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds: PTB 22 gives an int (with a deprecation warning) or, when
    opted in, a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = error.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


class _Retry(Exception):
    """Send the same queue item again after the chat's pause."""

