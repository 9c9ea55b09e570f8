"""Every call counts toward its chat's budget and the bot's calls a second over all chats.

A group's sliding minute (Telegram allows about 20 messages plus edits), a private chat's few
seconds (about one send or edit a second, a burst of 3). In a group the table message's edits
never take the share of the minute kept free for one-off messages: an edit goes only while
the window, whatever filled it, has more than that share free (``reserve_of``, or as many
calls as the one-off messages of the window if more: ``edits_room``), so that a result or a
reply does not wait behind edits (when the minute runs short, the edits fold first). A game's
table message is edited evenly over the minute (latest state wins, ``steady_of``), not in a
burst and a freeze; a lobby, whose players wait to see their press, is not ``even``: it is
edited at once while the window allows. (A deal being entered by a scorekeeper, who waits for
each next question, is in his private chat.)

Several workers: a ``SharedBudget`` counts every call in PostgreSQL too, so that the workers'
calls to one chat together stay within its budget, and each worker counts its even share of
the calls a second (``share``). A single process keeps its calls to groups in its database
(``GroupCalls``), so that after a restart a group's window starts with the calls of the minute
before, which Telegram still counts (``counted_before``).

When the bot's calls a second run short (many tables on one token), they wait in one line
(bot/telegram/sending/gate.py): by ``Rank``, an acting player's buttons first, then one-off
messages, the groups' table messages, and last the waiting players' panels, which only fold
more; within a rank, newest first.
"""

from __future__ import annotations

import asyncio
import logging
import time

from bot.telegram.sending.chats import ChatQueue
from bot.telegram.sending.gate import Gate, Rank, Standing
from bot.telegram.sending.limits import (
    GROUP_LIMIT,
    GROUP_WINDOW,
    LONG_WAIT,
    OVERALL_LIMIT,
    OVERALL_WINDOW,
    PRIVATE_LIMIT,
    PRIVATE_WINDOW,
    Window,
    reserve_of,
    steady_of,
)
from bot.telegram.sending.ports import Ask, GroupCalls, SharedBudget
from bot.telegram.sending.slots import Slot

log = logging.getLogger(__name__)


def edits_room(chat: ChatQueue) -> int:
    """How full a group's window may be for its table message to be edited: the reserve, or
    as many one-off calls as the window holds if more, is left free (a chatty group's
    minute goes to its messages first, its table's edits fold), but one edit always fits."""
    assert chat.messages is not None
    reserve = max(chat.window.limit - chat.paced, chat.messages.count())
    return max(1, chat.window.limit - reserve)


class Budgets:
    """The budgets of this process's chats and of all its calls."""

    def __init__(self, *, group_limit: int = GROUP_LIMIT, window_speed: float = 1.0,
                 overall_limit: int = OVERALL_LIMIT, group_reserve: int | None = None,
                 shared: SharedBudget | None = None,
                 group_calls: GroupCalls | None = None) -> None:
        self.shared = shared
        self.group_calls = group_calls
        self.group_limit = group_limit
        self.group_window = GROUP_WINDOW / window_speed  # ``Settings.window_speed``
        self.private_window = PRIVATE_WINDOW / window_speed
        self.group_reserve = reserve_of(group_limit) if group_reserve is None else group_reserve
        self.overall_limit = overall_limit
        self.overall = Window(overall_limit, OVERALL_WINDOW)
        self.gate = Gate(self.overall)
        self._unknown_until = 0.0  # before then a private chat's last calls are unknown
        self._before: dict[int, list[float]] = {}  # group -> its calls before a restart

    def new_chat(self, chat_id: int) -> ChatQueue:
        """A chat's queue with its budget, as far as this process knows it."""
        if chat_id < 0:
            paced = max(1, self.group_limit - self.group_reserve)
            window = Window(self.group_limit, self.group_window)
            window.sent_at.extend([at] for at in self._before.pop(chat_id, ()))
            return ChatQueue(chat_id, window, paced, min(paced, steady_of(self.group_limit)),
                             Window(paced, self.group_window),
                             Window(self.group_limit, self.group_window))
        window = Window(PRIVATE_LIMIT, self.private_window)
        if time.monotonic() < self._unknown_until:
            start = self._unknown_until - self.private_window
            window.sent_at.extend([start] for _ in range(PRIVATE_LIMIT))
        return ChatQueue(chat_id, window)

    def after_restart(self) -> None:
        """The process before this one may have written to private chats moments ago (its
        calls are not known here): a private chat's window starts full, for one window (a
        group's are known: the shared budget, or ``counted_before``)."""
        self._unknown_until = time.monotonic() + self.private_window

    def counted_before(self, groups: dict[int, list[float]]) -> None:
        """Calls to groups made by the process before this one (how long ago each was
        answered, oldest first): a group's window starts with them."""
        now = time.monotonic()
        self._before = {chat_id: [now - age for age in ages] for chat_id, ages in groups.items()}

    def share(self, workers: int) -> None:
        """One of ``workers`` processes: its even share of the calls a second over all chats
        (no lock shared by all of them on every call)."""
        self.overall.limit = max(1, self.overall_limit // max(1, workers))

    def delay(self, chat: ChatQueue, *, paced: Slot | None = None) -> float:
        """Seconds until the chat may make its next call, as far as its own budget goes (the
        calls a second over all chats: ``place``); ``paced``: a group message's edit (never
        into the group's reserve; evenly spread if the slot is ``even``), or a private
        message's that is ``spaced`` (its edits evenly spread over the window). Sets
        ``resting``."""
        now = time.monotonic()
        budget = chat.window.delay()
        if paced is not None and chat.edits is not None and not paced.first:
            budget = max(budget, chat.edits.delay(), chat.window.delay(edits_room(chat)))
            if paced.even:
                budget = max(budget, chat.edited_at + chat.window.period / chat.steady - now)
        elif paced is not None and paced.spaced and not chat.group:
            budget = max(budget, chat.edited_at + chat.window.period / chat.window.limit - now)
        chat.resting = chat.group and budget > LONG_WAIT
        return max(budget, chat.paused_until - now, chat.shared_until - now)

    async def wait_for(self, chat: ChatQueue, *, paced: Slot | None = None,
                       ask: Ask | None = None) -> float:
        """``delay``, once the chat's next call is reserved in the shared budget (or the
        shared budget said how long to wait); the caller counts the call (``record``) with
        no wait in between, as this process's other chats may be counting theirs. ``ask``
        (``asking``): the shared budget is asked later, with the send (``took``)."""
        delay = self.delay(chat, paced=paced)
        if delay <= 0 and ask is None and self.shared is not None and chat.reserved is None:
            self._reserve(chat, *await self.shared.take(chat.id, chat.window.limit,
                                                        chat.window.period))
            delay = self.delay(chat, paced=paced)
        return delay

    async def place(self, chat: ChatQueue, standing: Standing, *, woken: bool = True) -> bool:
        """The chat's next call has its place in the calls a second over all chats (in the
        ``Gate``'s line, by its ``standing``: rank, then newest first), counted; False: the
        chat was woken first (``woken``: by ``ChatQueue.wake``, something else of it may go
        first)."""
        if chat.placed is None:
            chat.placed = await self.gate.place(standing, chat.wake if woken else None)
        return chat.placed is not None

    def asking(self, chat: ChatQueue) -> Ask | None:
        """The chat's next call to count in the shared budget with its send, if it is to be
        counted there (several workers) and is not yet."""
        if self.shared is None or chat.reserved is not None:
            return None
        return Ask(chat.id, chat.window.limit, chat.window.period)

    async def took(self, chat: ChatQueue, ask: Ask, *, paced: Slot | None = None) -> bool:
        """What the shared budget answered ``ask`` (asked now if the send did not), the call
        counted (``record``) if it may go now; False: it waits (the shared budget is full)."""
        if not ask.taken:
            assert self.shared is not None
            ask.token, ask.wait = await self.shared.take(ask.chat_id, ask.limit, ask.period)
        self._reserve(chat, ask.token, ask.wait)
        if self.delay(chat, paced=paced) > 0:
            return False
        self.record(chat, paced=paced)
        return True

    @staticmethod
    def _reserve(chat: ChatQueue, token: int | None, wait: float) -> None:
        chat.reserved, chat.shared_until = token, time.monotonic() + wait

    def record(self, chat: ChatQueue, *, paced: Slot | None = None) -> None:
        """Count a call that is about to be made (its place in the calls a second over all
        chats: ``place``)."""
        assert chat.placed is not None, "a call counted without its place (``place``)"
        chat.counted += [chat.window.record(), chat.placed]
        chat.placed = None
        if chat.reserved is not None:
            chat.shared.append(chat.reserved)
            chat.reserved = None
        if paced is not None and chat.edits is not None:
            chat.counted.append(chat.edits.record())
            chat.edited_at = time.monotonic()
        elif paced is not None:  # a private message's spaced edit
            chat.edited_at = time.monotonic()
        elif chat.messages is not None:
            chat.counted.append(chat.messages.record())

    async def take(self, chat: ChatQueue) -> None:
        """Wait until one more call of the chat fits its budget, and count it."""
        while (delay := await self.wait_for(chat)) > 0:
            await asyncio.sleep(delay)
        now = time.monotonic()  # the removal of a message's old copy: at once
        await self.place(chat, lambda: (Rank.BUTTONS, now), woken=False)
        chat.resting = False
        self.record(chat)

    async def settle(self, chat: ChatQueue) -> None:
        """The chat's counted calls were answered (or not made after all): they count from
        now; the shared budget is told so by the next write that stores what a call showed
        (``Delivery.slot_sent``), or else by ``tell``."""
        now = time.monotonic()
        if chat.placed is not None:  # a place not used (the call waits again): spent
            chat.counted.append(chat.placed)
            chat.placed = None
        for call in chat.counted:
            call[0] = now
        if chat.counted:
            await self._keep(chat)
        chat.counted.clear()
        chat.answered += chat.shared
        chat.shared = []

    def telling(self, chat: ChatQueue) -> list[int]:
        """The chat's answered calls, to tell the shared budget with a write (given up)."""
        tokens, chat.answered = chat.answered, []
        return tokens

    async def tell(self, chat: ChatQueue) -> None:
        """Tell the shared budget the chat's answered calls that no write told (in one)."""
        tokens = self.telling(chat)
        if tokens:
            assert self.shared is not None
            await self.shared.answered(tokens)

    async def _keep(self, chat: ChatQueue) -> None:
        """Keep a group's call for after a restart (if that fails, the call was made still)."""
        if self.group_calls is None or not chat.group:
            return
        try:
            await self.group_calls.made(chat.id)
        except Exception:
            log.exception("cannot keep a call to group %s", chat.id)
