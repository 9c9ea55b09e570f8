"""Every chat has one task that sends its queue in order, within its budget, with the API
calls themselves: a slot's post or edit (or the removal of the message it renews), a one-off
call. In a group, one-off messages (replies, results, votes) go before the table message's
edits. A 429 that still happens is waited out (one warning); a slot's post or edit goes only if
the ``Delivery`` lets it (``sending``: no other worker drew that table since)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable
from contextvars import copy_context
from functools import partial
from typing import Any, TypeVar

from telegram import Bot, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.telegram.calls import Call, perform
from bot.telegram.sending.budgets import Budgets
from bot.telegram.sending.chats import ChatQueue, Job
from bot.telegram.sending.gate import Rank
from bot.telegram.sending.held import mark_done, not_holding
from bot.telegram.sending.limits import IN_FLIGHT_MAX, retry_seconds
from bot.telegram.sending.ports import Delivery, SendQueue, Troubles
from bot.telegram.sending.slots import Slot, buttons, markup, message_call, only_go
from bot.ui.screen import Screen
from storage.outage import DatabaseGone, unavailable

log = logging.getLogger(__name__)
T = TypeVar("T")
OUTAGE_RETRY = 0.5  # seconds before a send that found the database out of reach goes again


class _Retry(Exception):
    """Send the same queue item again after the chat's pause."""


def rank_of(chat: ChatQueue, item: Slot | Job) -> Rank:
    """Where the item goes when the bot's calls a second run short (``Rank``)."""
    if isinstance(item, Job):
        return Rank.MESSAGE
    if chat.group:
        return Rank.TABLE
    screen = item.screen
    if item.renew or screen is None or item.sent_buttons is None:
        return Rank.BUTTONS
    new = buttons(screen)
    if new == item.sent_buttons or only_go(new, item.sent_buttons):
        return Rank.PANEL
    return Rank.BUTTONS


def _stopped(worker: asyncio.Task[None]) -> None:
    """A chat's task that failed is said at once (what it held waits for the chat's next
    send, which starts another)."""
    if not worker.cancelled() and worker.exception() is not None:
        log.error("a chat's sends stopped", exc_info=worker.exception())


def standing_of(chat: ChatQueue, item: Slot | Job) -> tuple[Rank, float]:
    """The item's place in the line for the calls a second (bot/telegram/sending/gate.py)."""
    return rank_of(chat, item), item.since


class Queues:
    """The chats' queues of this process."""

    def __init__(self, bot: Bot, delivery: Delivery, troubles: Troubles, budgets: Budgets,
                 queue: SendQueue | None) -> None:
        self.bot = bot
        self.delivery = delivery
        self.troubles = troubles
        self.budgets = budgets
        self.queue = queue
        self.chats: dict[int, ChatQueue] = {}
        self._in_flight = asyncio.Semaphore(IN_FLIGHT_MAX)  # never more than the pool holds
        self.calls = 0  # API calls made (for the benchmarks)
        self.newest: dict[int, int] = {}  # chat -> the newest message id the bot posted there

    def chat(self, chat_id: int) -> ChatQueue:
        chat = self.chats.get(chat_id)
        if chat is None:
            chat = self.chats[chat_id] = self.budgets.new_chat(chat_id)
        return chat

    def enqueue(self, chat_id: int, item: Slot | Job) -> None:
        chat = self.chat(chat_id)
        chat.queue.append(item)
        chat.wake.set()  # a one-off call need not wait for a paced edit
        if chat.worker is None or chat.worker.done():
            context = copy_context()  # not the unit's that started it: it would hold its calls
            context.run(not_holding)
            chat.worker = asyncio.create_task(self._work(chat), context=context)
            chat.worker.add_done_callback(_stopped)

    @property
    def busy(self) -> bool:
        """Something is queued to be sent soon: a group waiting long for its budget does
        not count (it may wait up to a minute; a private chat only seconds)."""
        return any(chat.queue and not chat.resting for chat in self.chats.values())

    def backlog(self) -> Counter[tuple[str, str]]:
        """What waits to be sent (the metrics'), by chat (``group``, ``private``) and kind:
        table messages and panels to draw (``screen``), one-off calls (``call``)."""
        return Counter(("group" if chat.group else "private",
                        "screen" if isinstance(item, Slot) else "call")
                       for chat in self.chats.values() for item in chat.queue)

    def holds(self, chat_id: int | None = None) -> bool:
        """Something is queued for this chat, or (None) for any chat (a change that waits
        for its table's beat is not: see ``Slot.change``)."""
        if chat_id is None:
            return any(chat.queue for chat in self.chats.values())
        chat = self.chats.get(chat_id)
        return chat is not None and bool(chat.queue)

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued send is done, at most ``timeout`` seconds; then stop.

        What is left is only the latest look of messages, which a restart redraws.
        """
        workers = [c.worker for c in self.chats.values() if c.worker and not c.worker.done()]
        if workers:
            _, late = await asyncio.wait(workers, timeout=timeout)
            for worker in late:
                worker.cancel()
            if late:
                log.warning("shutting down with %d chats still waiting to be updated", len(late))

    async def _work(self, chat: ChatQueue) -> None:
        budgets = self.budgets
        while chat.queue:
            chat.wake.clear()  # set by what is queued from now on: it may go first
            item = chat.next_item()
            paced = item if isinstance(item, Slot) and (chat.group or item.spaced) else None
            # A slot's call is counted in the shared budget with its send's hold (one statement)
            ask = budgets.asking(chat) if isinstance(item, Slot) else None
            delay = await budgets.wait_for(chat, paced=paced, ask=ask)
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(chat.wake.wait(), delay)
                continue  # something else may go first now
            if not await budgets.place(chat, partial(standing_of, chat, item)):
                continue  # woken: something else may go first now
            chat.resting = False
            if ask is None:
                budgets.record(chat, paced=paced)
            failed = dropped = False
            kept = isinstance(item, Job) and item.token is not None and self.queue is not None
            try:
                if isinstance(item, Slot):
                    async with self.delivery.sending(item, ask) as ours:
                        if ours and ask is not None and not await budgets.took(
                                chat, ask, paced=paced):
                            raise _Retry  # the shared budget is full: again, after the wait
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
            except Exception as exc:  # never let one bad send stop the chat's queue
                if unavailable(exc):  # the database (its outage is logged once): again, soon
                    await asyncio.sleep(OUTAGE_RETRY)
                    continue
                if not isinstance(exc, DatabaseGone):  # the process stops: said once
                    log.exception("sending to chat %s failed", chat.id)
                failed = True
                if isinstance(item, Job) and not item.future.done():
                    item.future.set_result(None)
            finally:
                await budgets.settle(chat)  # counted, though nothing was sent (nothing changed)
                if not kept:
                    await budgets.tell(chat)
            if isinstance(item, Job):  # a kept call's mark tells its budget's answer too
                await mark_done(self.queue, item.token, budgets.telling(chat) if kept else ())
            chat.queue.remove(item)
            if isinstance(item, Slot):
                item.first = False
                if dropped:
                    item.queued = False
                elif not failed and item.pending and item.urgent:
                    chat.queue.append(item)  # it changed while being sent (and may not wait)
                else:
                    item.queued = False
                    await self.delivery.slot_settled(item)

    async def _sync(self, chat: ChatQueue, slot: Slot) -> int | None:
        """Send the slot's latest screen (its budget is counted already); the message it
        replaces, to remove, if it was posted anew."""
        screen = slot.screen
        assert screen is not None
        digest = screen.digest()
        slot.urgent = False
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
            slot.message_id = message.message_id
            slot.sent(screen, digest)
            await self._slot_sent(chat, slot)
            return old
        try:
            await self._request(chat, self.bot.edit_message_text(
                screen.text, chat_id=slot.chat_id, message_id=old, parse_mode=ParseMode.HTML,
                reply_markup=markup(screen), disable_web_page_preview=True))
        except BadRequest as exc:
            if "not modified" not in exc.message.lower():
                log.info("cannot edit message %s in %s (%s): posting anew", old, slot.chat_id,
                         exc)
                slot.message_id = None
                slot.renew = True
                raise _Retry from None
            # It shows this screen already (a worker killed before storing that it sent it):
            # stored as shown like a sent one, or the next worker would try it again.
        slot.sent(screen, digest)
        await self._slot_sent(chat, slot)
        return None

    async def _slot_sent(self, chat: ChatQueue, slot: Slot) -> None:
        """Tell the ``Delivery`` what the slot's message shows; the chat's answered calls go
        with what it stores (one write), else the shared budget is told after (``tell``)."""
        answered = list(chat.answered)
        if await self.delivery.slot_sent(slot, answered):
            del chat.answered[:len(answered)]

    async def _retire(self, chat: ChatQueue, message_id: int) -> None:
        """Remove an old copy of a renewed message (or at least its buttons)."""
        try:
            await self.budgets.take(chat)
            await self._once(chat, self.bot.delete_message(chat.id, message_id))
        except BadRequest:
            try:
                await self.budgets.take(chat)
                await self._once(chat, self.bot.edit_message_reply_markup(
                    chat.id, message_id, reply_markup=None))
            except BadRequest:
                log.debug("old message %s in %s is gone", message_id, chat.id)

    async def _once(self, chat: ChatQueue, request: Awaitable[T]) -> T | None:
        """A call that is not repeated after a 429 (only waited out by the next one)."""
        try:
            return await self._request(chat, request)
        except _Retry:
            return None

    async def _post(self, chat_id: int, screen: Screen, *, thread_id: int = 0) -> Message:
        message: Message = await self.perform(chat_id, message_call(chat_id, screen,
                                                                    thread_id=thread_id))
        return message

    async def perform(self, chat_id: int, call: Call) -> Any:
        """Make a call (filled in first, if it asks to be), telling the ``Delivery`` what it
        made or that it was refused."""
        if call.fill is not None:
            ready = await self.delivery.call_ready(call)
            if ready is None:
                return None
            call = ready
        try:
            result = await perform(self.bot, call)
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return True  # an edit of what the message shows already: done
            if call.after is None:
                raise
            await self.delivery.call_refused(call.after, exc)
            return None
        if isinstance(result, Message):
            self.newest[chat_id] = max(self.newest.get(chat_id, 0), result.message_id)
        if call.after is not None:
            await self.delivery.call_sent(call.after, result)
        return result

    async def _request(self, chat: ChatQueue, request: Awaitable[T]) -> T | None:
        """One API call: 429 pauses the chat and retries; a refusal is reported, not raised."""
        self.calls += 1
        try:
            async with self._in_flight:  # many chats at once (a start-up) wait here, not in
                return await request     # PTB's pool (its timeout would fail the call)
        except RetryAfter as exc:
            delay = retry_seconds(exc)
            chat.paused_until = time.monotonic() + float(delay) + 0.1
            log.warning("429 in chat %s: waiting %.1f s", chat.id, delay)
            raise _Retry from None
        except Forbidden as exc:
            await self.troubles.forbidden(chat.id, exc)
            return None
        except ChatMigrated as exc:
            await self.troubles.migrated(chat.id, exc.new_chat_id)
            return None
        except (TimedOut, NetworkError) as exc:
            if isinstance(exc, BadRequest):
                raise
            chat.paused_until = time.monotonic() + 1.0
            log.warning("network error in chat %s: %s; retrying", chat.id, exc)
            raise _Retry from None
        finally:
            await self.budgets.settle(chat)
