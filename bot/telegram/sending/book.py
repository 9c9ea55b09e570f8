"""The message book: which message shows each table and seat, which is pinned, which shows a
vote, and up to when a table's messages show it (``shown_at``). The only code of the sending
side that writes storage; the outbox tells it what Telegram did (``Delivery``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from telegram import Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.service.ports import Services
from bot.service.tables import Table
from bot.telegram.calls import Call
from bot.telegram.sending.outbox import Outbox
from bot.telegram.sending.pins import PinRights
from bot.telegram.sending.ports import Ask, Delivery
from bot.telegram.sending.slots import Slot

log = logging.getLogger(__name__)

# Whether this process may send what it drew of the tables of a chat topic (chat id, thread
# id), held for the send, and the call counted in the shared budget by the same statement if
# asked (bot/telegram/worker.py ``Worker.ours``): several workers.
Fence = Callable[[int, int, Ask | None], contextlib.AbstractAsyncContextManager[bool]]

# Messages posted in a group below a table message that is not pinned, after which a new
# deal brings it back down (posted anew): about what a phone's screen shows.
SCROLLED = 10


class MessageBook(Delivery):
    """The tables' messages of this process (``slots``) and what is stored of them."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.outbox: Outbox | None = None  # set once the outbox that tells it is made
        self.moved: Callable[[Table], None] = lambda table: None  # a table message is new
        # table -> seat (None: the group) -> its slot
        self.slots: dict[int, dict[int | None, Slot]] = {}
        # table -> user -> the scorekept table's entry message in that user's private chat
        self.entries: dict[int, dict[int, Slot]] = {}
        self.drawn: dict[int, float] = {}  # table -> its row's updated_at when last drawn
        self.pins = PinRights(svc.store.marks)  # groups where the bot may not pin
        self.dealt: dict[int, int] = {}  # table -> how many deals it had when last drawn
        self.fence: Fence | None = None  # None: this process alone draws the tables

    @property
    def _outbox(self) -> Outbox:
        assert self.outbox is not None, "the book has no outbox"
        return self.outbox

    def slot(self, table: Table, seat: int | None) -> Slot:
        """The message kept up to date for the table's group (``seat`` None) or a player: a
        new one where the chat changed (a migrated group, a replaced player)."""
        row = table.row
        if seat is None:
            chat_id, message_id, key = row.chat_id, row.table_message_id, f"t{row.id}"
            shown = row.shown_digest
        else:
            chat_id = row.user_of(seat) or 0
            message_id, shown = next((s.panel_message_id, s.shown_digest) for s in row.seats
                                     if s.seat == seat)
            key = f"t{row.id}s{seat}"
        mine = self.slots.setdefault(row.id, {})
        slot = mine.get(seat)
        if slot is None or slot.chat_id != chat_id:
            known = slot is None and message_id is not None  # what it shows: stored
            slot = Slot(key, chat_id, message_id if slot is None else None,
                        thread_id=row.thread_id if seat is None else 0,
                        sent_digest=shown if known else None)
            mine[seat] = slot
        return slot

    def entry(self, table_id: int, user_id: int, message_id: int | None = None) -> Slot:
        """The entry message of a scorekept table in ``user_id``'s private chat: opened by
        his ``/start k<table>`` (posted anew), or, not known to this process (a restart,
        another worker drew the table), adopted when he presses its buttons (``message_id``;
        what it shows is then unknown: its next drawing edits it). Not stored: a keeper
        who presses nothing after a restart is shown nothing new until he does."""
        mine = self.entries.setdefault(table_id, {})
        slot = mine.get(user_id)
        if slot is None:
            slot = mine[user_id] = Slot(f"t{table_id}k{user_id}", user_id, message_id,
                                        spaced=True)
        return slot

    def entries_of(self, table_id: int) -> list[tuple[int, Slot]]:
        """The table's entry messages this process knows, by user."""
        return list(self.entries.get(table_id, {}).items())

    def drawing(self, table: Table) -> None:
        """The table's screens are shown: once handed to the chats' queues (a unit's: once
        committed), its row's ``updated_at`` is what they show."""
        drawn = table.row.updated_at
        self._outbox.shown(lambda: self.drawn.__setitem__(table.id, drawn))

    def forget(self, table_id: int) -> None:
        """What this process knows of a table's messages is no longer true (another worker
        drew them since): their ids come from the table's row again, and nothing is taken
        as shown."""
        for slot in [*self.slots.pop(table_id, {}).values(),
                     *self.entries.pop(table_id, {}).values()]:
            slot.forgotten = True
        self.drawn.pop(table_id, None)
        self.dealt.pop(table_id, None)

    def scrolled_away(self, table: Table, group: Slot) -> bool:
        """At a new deal of a table whose message is not pinned: whether the chat ran on so
        far below it (``SCROLLED`` of the bot's messages at least) that it comes anew."""
        match = table.match
        if table.keeps_score or match is None or table.status != "playing":
            return False
        deals, before = match.deal_count, self.dealt.get(table.id)
        self.dealt[table.id] = deals
        if before is None or before == deals or table.row.pinned_message_id is not None \
                or group.message_id is None:
            return False
        return self._outbox.newest.get(table.chat_id, 0) - group.message_id >= SCROLLED

    # -- what the outbox tells ------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def sending(self, slot: Slot, ask: Ask | None = None) -> AsyncIterator[bool]:
        """A slot's screen goes unless its table was forgotten or (several workers) another
        worker may have drawn the table since this one did (``fence``). A table message that
        went there is pinned once what the fence's transaction wrote is committed (its row
        held till then)."""
        group = self.slots.get(_table_of(slot), {}).get(None)
        if slot.forgotten or group is None:
            yield False
        elif self.fence is None:
            yield True
        else:
            async with self.fence(group.chat_id, group.thread_id, ask) as ours:
                yield ours
            table = self.svc.tables.get(_table_of(slot))
            if ours and slot is group and table is not None:
                await self._pin(table, slot)

    async def slot_sent(self, slot: Slot, answered: Sequence[int]) -> bool:
        """A slot's message was posted or edited: its id and the digest of what it shows are
        stored (a worker that takes the table over, or a restart, edits only a message that
        shows something else), with the shared budget's ``answered`` calls: one write. Also
        when this process no longer holds the table (another worker took its lane while the
        call was made: it reads them from storage)."""
        ids = _slot_ids(slot)
        if ids is None:
            return False
        (table_id, seat), table = ids, self.svc.tables.get(ids[0])
        shown, told = slot.sent_digest, False
        drawn = None if table is None else self._settles(table, slot)
        try:
            if await self.svc.store.tables.set_shown(table_id, seat, slot.message_id, shown,
                                                     answered=answered, drawn=drawn) \
                    and table is not None:
                table.row = replace(table.row, shown_at=drawn)
            told = True
            if table is None:
                return told
            if seat is not None:
                table.row = replace(table.row, seats=tuple(
                    replace(s, panel_message_id=slot.message_id, shown_digest=shown)
                    if s.seat == seat else s for s in table.row.seats))
            else:
                moved = table.row.table_message_id != slot.message_id
                table.row = replace(table.row, table_message_id=slot.message_id,
                                    shown_digest=shown)
                if moved and table.match is not None:  # the panels' links follow it
                    self.moved(table)
        except Exception:
            log.exception("table %s: cannot store message id of %s", table_id, slot.key)
        if seat is None and table is not None and self.fence is None:
            await self._pin(table, slot)  # (several workers: after the fence, ``sending``)
        return told

    def _settles(self, table: Table, slot: Slot) -> float | None:
        """The drawing of the table that all its messages show once this slot's is stored, if
        they do (``slot_settled``, told with the store); else None."""
        if slot.pending and slot.urgent:  # (it goes again: ``Queues``)
            return None
        return self._unmarked(table, besides=slot)

    def _unmarked(self, table: Table, besides: Slot | None = None) -> float | None:
        """The table's last drawing (its row's ``updated_at``) if no message of it but
        ``besides`` is queued and it is not yet stored as shown; else None."""
        drawn = self.drawn.get(table.id)
        if drawn is None or (table.row.shown_at or 0) >= drawn:
            return None
        others = (s for s in self.slots.get(table.id, {}).values() if s is not besides)
        return None if any(s.queued for s in others) else drawn

    async def slot_settled(self, slot: Slot) -> None:
        """Once every message of a table shows its latest drawing (or a change that waits for
        the table's beat: a restart need not show it sooner), that is stored: a restart
        redraws only the tables that changed after (``TableRow.shown``)."""
        table, _ = self._slot_table(slot)
        drawn = None if table is None else self._unmarked(table)
        if table is None or drawn is None:
            return
        try:
            if await self.svc.store.tables.mark_shown(table.id, drawn):
                table.row = replace(table.row, shown_at=drawn)
        except Exception:
            log.exception("table %s: cannot store that its messages are shown", table.id)

    def _slot_table(self, slot: Slot) -> tuple[Table | None, int | None]:
        """A slot's table and seat (None: the group's); no table for an entry message, which
        nothing stores."""
        ids = _slot_ids(slot)
        if ids is None:
            return None, None
        return self.svc.tables.get(ids[0]), ids[1]

    # -- where the group finds the table ------------------------------------------------------

    async def _pin(self, table: Table, slot: Slot) -> None:
        """A game's table message is pinned where the bot may pin (the one it replaces is
        unpinned), so the group finds it however far the chat has run on. Which message is
        pinned is stored with the calls (``Outbox.keeping``), before them: a restart neither
        pins it again nor forgets it, and a worker's death leaves them to another. Refused
        (no right to pin here), the table message comes back down at a new deal instead
        (``call_refused``)."""
        message_id, old = slot.message_id, table.row.pinned_message_id
        if (table.status != "playing" or table.keeps_score or message_id is None
                or message_id == old or not await self.pins.may_pin(table.chat_id)):
            return
        chat_id, outbox = table.chat_id, self._outbox
        try:
            async with outbox.keeping():
                await self.svc.store.tables.set_pinned(table.id, message_id)
                outbox.put(chat_id, Call("pin_chat_message", {
                    "chat_id": chat_id, "message_id": message_id, "disable_notification": True},
                    after={"pinned": table.id, "message": message_id}))
                if old is not None:
                    outbox.put(chat_id, _unpin_call(chat_id, old, None))
        except Exception:
            log.exception("table %s: cannot store its pinned message", table.id)
            return
        table.row = replace(table.row, pinned_message_id=message_id)

    def unpin(self, table_id: int, chat_id: int) -> None:
        """The message an ended game had pinned is unpinned (the stored one, read when the
        call's turn comes), then forgotten (``call_sent``): a stop before leaves it to the
        next start."""
        self._outbox.put(chat_id, Call("unpin_chat_message", {"chat_id": chat_id},
                                       fill={"unpin": table_id}))

    async def unpin_ended(self) -> None:
        """At start: the games that ended before their message was unpinned unpin it now."""
        for row in await self.svc.store.tables.pinned_closed():
            self.unpin(row.id, row.chat_id)

    # -- one-off calls that tell back -------------------------------------------------------------

    async def call_sent(self, after: Mapping[str, Any], result: Message | bool) -> None:
        """A vote's question was posted (its message stored with the vote, so that its outcome
        is written under it whenever it ends), or an ended game's message unpinned."""
        if "vote" in after:
            assert isinstance(result, Message)
            await self.svc.store.votes.set_message(after["vote"], result.message_id,
                                                   after["question"])
        elif after.get("unpinned") is not None:
            await self._unpinned(after["unpinned"])

    async def call_refused(self, after: Mapping[str, Any], error: BadRequest) -> None:
        """A pin refused (no right to pin here: not tried again in this group), or an unpin
        (unpinned by hand, or gone with a migrated group)."""
        if "pinned" in after:
            table_id, message_id = after["pinned"], after["message"]
            row = await self.svc.store.tables.get_table(table_id)
            log.info("cannot pin in %s: %s", row.chat_id, error.message)
            await self.pins.refuse(row.chat_id)
            if row.pinned_message_id == message_id:
                await self._unpinned(table_id)
        elif "unpinned" in after:
            log.info("cannot unpin: %s", error.message)
            if after["unpinned"] is not None:
                await self._unpinned(after["unpinned"])
        else:
            raise error

    async def _unpinned(self, table_id: int) -> None:
        """The table's message is pinned no more."""
        await self.svc.store.tables.set_pinned(table_id, None)
        table = self.svc.tables.get(table_id)
        if table is not None:
            table.row = replace(table.row, pinned_message_id=None)

    async def call_ready(self, call: Call) -> Call | None:
        """An ended game's unpin (``unpin``): of the message stored as pinned when the call's
        turn comes. A vote's outcome, under its question: which message, and what it asked, are
        read from the stored vote then."""
        assert call.fill is not None
        if "unpin" in call.fill:
            table_id = call.fill["unpin"]
            pinned = (await self.svc.store.tables.get_table(table_id)).pinned_message_id
            return (None if pinned is None
                    else _unpin_call(call.params["chat_id"], pinned, table_id))
        vote = await self.svc.store.votes.get(call.fill["vote"])
        if vote is None or vote.message_id is None:
            return None
        where = {"chat_id": call.params["chat_id"], "message_id": vote.message_id}
        if vote.question is None:
            return Call("edit_message_reply_markup", {**where, "reply_markup": None})
        return Call("edit_message_text", {**where, "parse_mode": ParseMode.HTML.value,
                                          "text": vote.question + "\n" + call.fill["outcome"]})


def _table_of(slot: Slot) -> int:
    """The table of a slot (its key: ``t<table>``, then ``s<seat>`` or ``k<user>``)."""
    return int(slot.key[1:].partition("s")[0].partition("k")[0])


def _slot_ids(slot: Slot) -> tuple[int, int | None] | None:
    """The table and the seat (None: the group's message) a slot shows; None for an entry
    message, which nothing stores."""
    if "k" in slot.key:
        return None
    table_id, _, seat = slot.key[1:].partition("s")
    return int(table_id), int(seat) if seat else None


def _unpin_call(chat_id: int, message_id: int, table_id: int | None) -> Call:
    """Unpin a message; ``table_id``: the table whose stored pin it is, forgotten once it is
    unpinned (or refused)."""
    return Call("unpin_chat_message", {"chat_id": chat_id, "message_id": message_id},
                after={"unpinned": table_id})
