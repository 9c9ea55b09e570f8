"""What the sending side needs from others: budgets and kept calls shared with other processes
(storage/), and what it tells back (``Delivery``: the message book; ``Troubles``: a chat that
refuses the bot or moved)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import Message
from telegram.error import BadRequest, Forbidden

from bot.telegram.calls import Call
from bot.telegram.sending.slots import Slot


class SharedBudget(Protocol):
    """A chat's budget shared with other processes (storage/budgets.py)."""

    async def take(self, chat_id: int, limit: int, period: float) -> tuple[int | None, float]:
        """Count one call of the chat now if ``limit`` calls in ``period`` seconds allow it:
        (its token, 0); else (None, the seconds to wait)."""

    async def answered(self, tokens: Sequence[int]) -> None:
        """The calls were answered: they count from now."""


@dataclass
class Ask:
    """A call to a chat to count in the shared budget by the statement that holds the table's
    lane for the send (several workers: ``Delivery.sending``), not by one of its own; the
    fence fills in the answer (``taken``: it asked)."""

    chat_id: int
    limit: int
    period: float
    token: int | None = None
    wait: float = 0.0
    taken: bool = False


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

    async def done(self, token: int, answered: Sequence[int] = ()) -> None:
        """Telegram answered the call (or refused it): it is not made again; with the shared
        budget's ``answered`` calls (one write)."""

    def together(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Inside (this task): the store's writes and the calls kept are one transaction,
        committed at the end (undone if it raises)."""


class Delivery:
    """What the outbox tells the keeper of the messages (bot/telegram/sending/book.py): message
    ids to persist, what the calls made; by default nothing."""

    async def slot_sent(self, slot: Slot, answered: Sequence[int]) -> bool:
        """A slot's message was posted or edited (a new message id to persist); True if the
        shared budget's ``answered`` calls were told with what it stored (by default nothing
        is stored: False)."""
        return False

    def sending(self, slot: Slot,
                ask: Ask | None = None) -> contextlib.AbstractAsyncContextManager[bool]:
        """Around a slot's post or edit (and what ``slot_sent`` does): whether it may go now
        (False: it is dropped, not settled); ``ask``: the call counted in the shared budget
        with it, if it can."""
        return contextlib.nullcontext(True)

    async def slot_settled(self, slot: Slot) -> None:
        """A slot's latest screen is on Telegram (or was refused): nothing left to send."""

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


class Troubles:
    """What the outbox tells of chats that no longer take its calls (bot/telegram/reactions.py);
    by default nothing."""

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        """The chat refuses messages (blocked, never started, kicked)."""

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup."""
