"""The outbox: what the bot shows and sends, handed to the chats' queues (or held).

``show`` makes a slot show a screen (bot/telegram/sending/slots.py), ``put``/``post``/``send``/
``request`` queue one-off calls, ``answer`` answers a press. Inside ``holding`` (a worker's unit
of work) all of it is held until the unit commits, then ``release``d (bot/telegram/sending/
held.py); ``keeping`` does the same outside a unit, in a transaction of its own (the pin of a
table message just posted, decided after a commit).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

from telegram import Bot, Message

from bot.telegram.answers import Answer
from bot.telegram.calls import Call
from bot.telegram.sending import held as holds
from bot.telegram.sending.budgets import Budgets
from bot.telegram.sending.chats import Job
from bot.telegram.sending.held import ANSWER_WITHIN, ANSWERS, Held, HeldAnswer, Presses
from bot.telegram.sending.ports import Delivery, SendQueue, Troubles
from bot.telegram.sending.queues import Queues
from bot.telegram.sending.slots import Slot, Wait, message_call
from bot.ui.screen import Screen


class Outbox:
    """The sending side's one way in, for the presenter and the handlers (see the module)."""

    def __init__(self, bot: Bot, delivery: Delivery, budgets: Budgets, *,
                 troubles: Troubles | None = None, queue: SendQueue | None = None) -> None:
        self.queue = queue
        self.budgets = budgets
        self.queues = Queues(bot, delivery, troubles or Troubles(), budgets, queue)
        self.presses = Presses(bot, queue)

    @property
    def newest(self) -> dict[int, int]:
        """Chat -> the newest message id the bot posted there."""
        return self.queues.newest

    def show(self, slot: Slot, screen: Screen, *, renew: bool = False,
             wait: Wait = Wait.NOT) -> None:
        """Make ``slot`` show ``screen``; ``renew`` posts it as a new message (a notification);
        ``wait``: what of it its reader need not see before the table's next beat
        (``Slot.change``). Held (see ``holding``), it is shown once released."""
        held = holds.held_now()
        if held is not None:
            held.show(slot, screen, renew=renew, wait=wait)
            return
        if slot.change(screen, renew=renew, wait=wait):
            self.queues.enqueue(slot.chat_id, slot)

    def shown(self, then: Callable[[], None]) -> None:
        """``then()`` once what was shown before is handed to the chats' queues: now, or (held)
        once released."""
        held = holds.held_now()
        if held is None:
            then()
        else:
            held.then.append(then)

    async def request(self, chat_id: int, call: Call) -> Any:
        """Make one call in order with the chat's other sends and within its budget; None if
        Telegram refused it, or (held) not sent yet (it may be kept: see ``SendQueue``)."""
        future = self.put(chat_id, call)
        return None if holds.held_now() is not None else await future

    def put(self, chat_id: int, call: Call, token: int | None = None) -> asyncio.Future[Any]:
        """Like ``request`` without waiting for it; ``token``: its row in the queue (a kept
        call that another process left unanswered: see ``resume``)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = Job(lambda: self.queues.perform(chat_id, call), future, call, token)
        held = holds.held_now()
        if held is not None:
            held.order.append((chat_id, job))
        else:
            self.queues.enqueue(chat_id, job)
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

    async def answer(self, query_id: str, answer: Answer) -> None:
        """Answer a button press: at once, or (held) once the work is committed (kept with it:
        see ``keep``)."""
        call = Call("answer_callback_query", {
            "callback_query_id": query_id, "text": answer.text or None,
            "show_alert": answer.alert, "url": answer.url})
        held = holds.held_now()
        if held is not None:
            held.answers.append(HeldAnswer(call))
            return
        await self.presses.answer(HeldAnswer(call))

    # -- held, kept, resumed ----------------------------------------------------------------

    @staticmethod
    def holding() -> contextlib.AbstractContextManager[Held]:
        """Inside (in this task only), what is shown or sent is held: ``release`` it once the
        work is committed (a held ``request`` returns None at once)."""
        return holds.holding()

    async def keep(self, held: Held) -> None:
        """Store the held calls that are data and the answers in the queue (none without
        one), in the unit's transaction."""
        if self.queue is not None:
            await holds.keep(self.queue, held)

    def release(self, held: Held) -> None:
        """Show and send what was held, in order; answer the presses."""
        for answer in held.answers:
            self.presses.soon(answer)
        for item in held.order:
            if isinstance(item, Slot):
                screen, renew, wait = held.shows[item]
                self.show(item, screen, renew=renew, wait=wait)
            else:
                self.queues.enqueue(*item)
        for then in held.then:
            then()

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

    async def resume(self, chat_id: int, call: Call, token: int, age: float) -> None:
        """Make a call that another process kept ``age`` seconds ago and left unanswered (it
        died): in order with the chat's sends; a press's answer (``ANSWERS``) at once while
        Telegram still takes it, else it is only marked done."""
        if chat_id != ANSWERS:
            self.put(chat_id, call, token)
        elif age < ANSWER_WITHIN:
            self.presses.soon(HeldAnswer(call, token))
        else:
            await holds.mark_done(self.queue, token)

    # -- what is left -----------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Something is queued to be sent soon (see ``Queues.busy``)."""
        return self.queues.busy

    def backlog(self) -> Counter[tuple[str, str]]:
        """What waits to be sent, by chat and kind (see ``Queues.backlog``)."""
        return self.queues.backlog()

    def holds(self, chat_id: int | None = None) -> bool:
        """Something is left to send to this chat, or (None) to any chat."""
        return self.queues.holds(chat_id)

    async def drain(self, timeout: float = 5.0) -> None:
        """Send what is queued (at most ``timeout`` seconds), before the process stops."""
        await self.queues.drain(timeout)

