"""The one place where outcomes become messages: screens drawn and handed to the outbox.

``show(outcome)`` tells the outcome's events (in order) and redraws the tables
it changed: the group's table message and every player's panel, each in its
reader's language. It only queues sends (the outbox sends them within
Telegram's budgets), so it runs right after the use case, with nothing in
between that could change a table. ``answer`` and ``reply_text`` turn a
refusal or note into a press's alert or a command's reply.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from telegram import Bot, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from bot.games import PLUGINS
from bot.screens import events as tell
from bot.screens import refusals
from bot.screens.look import AppLinks, Look
from bot.screens.sheet import caption, draw_sheet
from bot.screens.table import panel, table_message
from bot.service import chats, events
from bot.service.outcome import Outcome, Refusal
from bot.service.services import Services
from bot.service.tables import Table
from bot.telegram.answers import OK, Answer
from bot.telegram.calls import Call
from bot.telegram.links import message_link
from bot.telegram.outbox import (
    GROUP_LIMIT,
    OVERALL_LIMIT,
    Delivery,
    GroupCalls,
    Outbox,
    SendQueue,
    SharedBudget,
    Slot,
)
from bot.ui.i18n import Translate, translator
from bot.ui.screen import Screen
from engine.match import Match

log = logging.getLogger(__name__)

# Whether this process may send what it drew of the tables of a chat topic (chat id, thread
# id), held for the send (bot/telegram/worker.py ``Worker.ours``): several workers.
Fence = Callable[[int, int], contextlib.AbstractAsyncContextManager[bool]]

# Messages posted in a group below a table message that is not pinned, after which a new
# deal brings it back down (posted anew): about what a phone's screen shows.
SCROLLED = 10


class Presenter(Delivery):
    """Draws outcomes and keeps the tables' messages; the outbox tells it back what
    Telegram did (``Delivery``)."""

    def __init__(self, svc: Services, bot: Bot, username: str, *,
                 group_limit: int = GROUP_LIMIT, overall_limit: int = OVERALL_LIMIT,
                 app: AppLinks | None = None, shared: SharedBudget | None = None,
                 queue: SendQueue | None = None, group_calls: GroupCalls | None = None) -> None:
        self.svc = svc
        self.app = app  # the Mini App's launch links (None: no Mini App)
        self.listeners: list[Callable[[Table], None]] = []  # told of every table redrawn
        self.outbox = Outbox(bot, self, group_limit=group_limit, overall_limit=overall_limit,
                             shared=shared, queue=queue, group_calls=group_calls)
        self.bot = bot
        self.username = username
        self.slots: dict[tuple[int, int | None], Slot] = {}  # (table, seat or None: group)
        self.drawn: dict[int, float] = {}  # table -> its row's updated_at when last drawn
        self.cannot_pin: set[int] = set()  # groups where the bot may not pin
        self.dealt: dict[int, int] = {}  # table -> how many deals it had when last drawn
        self.fence: Fence | None = None  # None: this process alone draws the tables
        self._tellers: dict[type, Callable[[Any], None]] = {
            events.GameBegins: lambda ev: self._group(
                ev.table, lambda tr: tell.game_begins(tr, self.link(f"t{ev.table.id}"))),
            events.DealScored: self._deal_scored,
            events.GameOver: self._game_over,
            events.VoteAsked: self._vote_asked,
            events.VoteEnded: self._vote_ended,
            events.Paused: lambda ev: self._group(ev.table, lambda tr: tell.paused(ev, tr)),
            events.PlayerBack: lambda ev: self._group(
                ev.table, lambda tr: tell.player_back(ev, tr)),
            events.TimeUp: lambda ev: self._group(ev.table, lambda tr: tell.time_up(ev, tr),
                                                  silent=ev.silent),
            events.Reminder: self._reminder,
            events.TimeSettingsChanged: lambda ev: self._group(
                ev.table, lambda tr: tell.time_settings_changed(ev, tr)),
            events.Replaced: self._replaced,
            events.CannotWrite: lambda ev: self._group(
                ev.table, lambda tr: tell.cannot_write(ev, tr, self.link(f"t{ev.table.id}"))),
            events.DealRemoved: lambda ev: self._group(
                ev.table, lambda tr: tell.deal_removed(ev, tr)),
            events.DealCorrected: lambda ev: self._group(
                ev.table, lambda tr: tell.deal_corrected(ev, tr)),
            events.Refused: lambda ev: self._group(ev.table, lambda tr: tell.refused(ev, tr)),
            events.Welcome: lambda ev: self.outbox.post(
                ev.chat_id, tell.welcome(self.translator(ev.chat_id))),
        }

    # -- languages, links, looks --------------------------------------------------------------

    def translator(self, chat_id: int) -> Translate:
        """The translator of a chat: a group's language, or in private the user's."""
        return translator(self.svc.users.language_of(chat_id))

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.username}?start={payload}"

    def look(self, table: Table) -> Look:
        chat = self.svc.users.chats.get(table.chat_id)
        back = message_link(table.chat_id, table.row.table_message_id, thread_id=table.thread_id,
                            username=chat.username if chat else None)
        return Look(self.svc.users.users, self.link, chat, time.time(), self.app, back)

    # -- outcomes -----------------------------------------------------------------------------

    def show(self, outcome: Outcome) -> None:
        """Tell what happened, then show every changed table as it is now."""
        for table in outcome.as_shown.values():
            self.known(table)
        for event in outcome.events:
            self._tellers[type(event)](event)
        for table in outcome.changed.values():
            self.redraw(table, notify=outcome.notify, renew=table.id in outcome.renew)

    def answer(self, outcome: Outcome, tr: Translate, names: Sequence[str] = ()) -> Answer:
        """What a press answers: the refusal as an alert, a link to open, or the note."""
        if outcome.refusal is not None:
            return Answer.refuse(self.text(outcome.refusal, tr, names))
        if outcome.link is not None:
            return Answer(url=self.link(outcome.link))
        if outcome.note is not None:
            return Answer.note(self.text(Refusal(outcome.note, outcome.note_params), tr, names))
        return OK

    def reply_text(self, outcome: Outcome, tr: Translate,
                   names: Sequence[str] = ()) -> str | None:
        """What a command answers in its chat (HTML): the refusal or the note, if any."""
        said = outcome.refusal or (Refusal(outcome.note, outcome.note_params)
                                   if outcome.note is not None else None)
        return None if said is None else self.text(said, tr, names, html=True)

    def text(self, said: Refusal, tr: Translate, names: Sequence[str] = (), *,
             html: bool = False) -> str:
        """A refusal or a note in words; the values only the presenter knows added."""
        params: Mapping[str, Any] = said.params
        extra: dict[str, str] = {}
        plugin = PLUGINS.get(params.get("game", ""))
        if plugin is not None:
            extra["game"] = tr(plugin.title)
        status = params.get("status")
        if status is not None:
            extra["status"] = tr(status)
        if said.code == "unknown_user":
            extra["link"] = self.link("start")
        if said.code == "must_start":
            extra["link"] = self.link(f"t{params['table']}")
        return refusals.text(said, tr, names, html=html, extra=extra)

    async def reply(self, chat_id: int, text: str | None, *, thread_id: int = 0,
                    reply_to: int | None = None) -> None:
        """Answer in a chat, through the outbox (in order and within the chat's budget)."""
        if text:
            await self.send(chat_id, Screen(text), thread_id=thread_id, reply_to=reply_to)

    async def send(self, chat_id: int, screen: Screen, *, thread_id: int = 0,
                   reply_to: int | None = None) -> None:
        """A screen as a new message of the chat (a menu, a command's answer)."""
        await self.outbox.send(chat_id, screen, thread_id=thread_id, reply_to=reply_to)

    async def replace_text(self, chat_id: int, message_id: int, text: str) -> None:
        """A message of the bot's says ``text`` instead (a question answered); a refused
        edit (the message was deleted) is only logged."""
        await self.outbox.request(chat_id, Call("edit_message_text", {
            "text": text, "chat_id": chat_id, "message_id": message_id}))

    async def drain(self) -> None:
        """Send what is queued (at most a few seconds), before the process stops."""
        await self.outbox.drain()

    # -- the tables' messages -----------------------------------------------------------------

    def redraw(self, table: Table, *, notify: set[int] | frozenset[int] = frozenset(),
               renew: bool = False) -> None:
        """Show every message of the table in its current state; ``notify`` users get a
        fresh panel (a notification) instead of an edit; ``renew``: the group message too.
        A player who must act gets his panel at once, and so does everyone at a deal's end
        (its result, his next hand); the others' may wait a moment (until their turn).
        The listeners (open Mini Apps) hear of it first."""
        for listener in self.listeners:
            listener(table)
        look = self.look(table)
        screen = table_message(table, self.translator(table.chat_id), look)
        if screen is None:
            return
        group = self.slot(table, None)
        group.even = table.status != "lobby" and not table.keeps_score
        self.outbox.show(group, screen, renew=renew or self._scrolled_away(table, group))
        acting = table.acting_users()
        for seat in table.row.seats:
            user_id = seat.user_id
            if user_id is None:
                continue
            shown = panel(table, seat.seat, self.translator(user_id), look)
            if shown is not None:
                self.outbox.show(self.slot(table, seat.seat), shown, renew=user_id in notify,
                                 easy=table.ended is None and user_id not in acting)
        drawn = table.row.updated_at  # noted once the screens are queued (a unit's: committed)
        self.outbox.shown(lambda: self.drawn.__setitem__(table.id, drawn))

    def known(self, table: Table) -> None:
        """The table's messages show it as it is now (a table loaded after a restart): what
        its messages without buttons show is noted, so that only a change edits them. (Those
        with buttons change at the next move anyway, and may show a pick held in memory.)"""
        look = self.look(table)
        screens = [(None, table_message(table, self.translator(table.chat_id), look))]
        screens += [(seat.seat, panel(table, seat.seat, self.translator(seat.user_id), look))
                    for seat in table.row.seats if seat.user_id is not None]
        for seat, screen in screens:
            slot = self.slot(table, seat)
            if screen is not None and not screen.rows and slot.message_id is not None:
                self.outbox.known(slot, screen)

    def forget(self, table_id: int) -> None:
        """What this process knows of a table's messages is no longer true (another worker
        drew them since): their ids come from the table's row again, and nothing is taken
        as shown."""
        for key in [key for key in self.slots if key[0] == table_id]:
            self.slots.pop(key).forgotten = True
        self.drawn.pop(table_id, None)
        self.dealt.pop(table_id, None)

    def slot(self, table: Table, seat: int | None) -> Slot:
        """The message kept up to date for the table's group (``seat`` None) or a player: a
        new one where the chat changed (a migrated group, a replaced player)."""
        row = table.row
        if seat is None:
            chat_id, message_id, key = row.chat_id, row.table_message_id, f"t{row.id}"
        else:
            chat_id = row.user_of(seat) or 0
            message_id = next(s.panel_message_id for s in row.seats if s.seat == seat)
            key = f"t{row.id}s{seat}"
        slot = self.slots.get((row.id, seat))
        if slot is None or slot.chat_id != chat_id:
            slot = Slot(key, chat_id, message_id if slot is None else None,
                        thread_id=row.thread_id if seat is None else 0)
            self.slots[(row.id, seat)] = slot
        return slot

    @contextlib.asynccontextmanager
    async def sending(self, slot: Slot) -> AsyncIterator[bool]:
        """A slot's screen goes unless its table was forgotten or (several workers) another
        worker may have drawn the table since this one did (``fence``)."""
        group = self.slots.get((int(slot.key[1:].partition("s")[0]), None))
        if slot.forgotten or group is None:
            yield False
        elif self.fence is None:
            yield True
        else:
            async with self.fence(group.chat_id, group.thread_id) as ours:
                yield ours

    async def slot_sent(self, slot: Slot) -> None:
        """A slot's message is new: its id is stored (what it shows is kept in memory)."""
        table, seat = self._slot_table(slot)
        if table is None:
            return
        tables = self.svc.store.tables
        try:
            if seat is not None:
                if any(s.seat == seat and s.panel_message_id != slot.message_id
                       for s in table.row.seats):
                    await tables.set_panel_message(table.id, seat, slot.message_id)
                    table.row = replace(table.row, seats=tuple(
                        replace(s, panel_message_id=slot.message_id) if s.seat == seat else s
                        for s in table.row.seats))
            elif table.row.table_message_id != slot.message_id:
                await tables.set_table_message(table.id, slot.message_id)
                table.row = replace(table.row, table_message_id=slot.message_id)
                if table.match is not None:  # the panels' links follow the new message
                    self.redraw(table)
        except Exception:
            log.exception("table %s: cannot store message id of %s", table.id, slot.key)
        if seat is None:
            await self._pin(table, slot)

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
                or message_id == old or table.chat_id in self.cannot_pin):
            return
        chat_id = table.chat_id
        try:
            async with self.outbox.keeping():
                await self.svc.store.tables.set_pinned(table.id, message_id)
                self.outbox.put(chat_id, Call("pin_chat_message", {
                    "chat_id": chat_id, "message_id": message_id, "disable_notification": True},
                    after={"pinned": table.id, "message": message_id}))
                if old is not None:
                    self.outbox.put(chat_id, _unpin_call(chat_id, old, None))
        except Exception:
            log.exception("table %s: cannot store its pinned message", table.id)
            return
        table.row = replace(table.row, pinned_message_id=message_id)

    def unpin(self, table_id: int, chat_id: int) -> None:
        """The message an ended game had pinned is unpinned (the stored one, read when the
        call's turn comes), then forgotten (``call_sent``): a stop before leaves it to the
        next start."""
        self.outbox.put(chat_id, Call("unpin_chat_message", {"chat_id": chat_id},
                                      fill={"unpin": table_id}))

    async def unpin_ended(self) -> None:
        """At start: the games that ended before their message was unpinned unpin it now."""
        for row in await self.svc.store.tables.pinned_closed():
            self.unpin(row.id, row.chat_id)

    def _scrolled_away(self, table: Table, group: Slot) -> bool:
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
        return self.outbox.newest.get(table.chat_id, 0) - group.message_id >= SCROLLED

    async def slot_settled(self, slot: Slot) -> None:
        """Once every message of a table shows its latest drawing, that is stored: a restart
        redraws only the tables that changed after (``TableRow.shown``)."""
        table, _ = self._slot_table(slot)
        if table is None or table.id not in self.drawn:
            return
        drawn = self.drawn[table.id]
        mine = [s for (t, _), s in self.slots.items() if t == table.id]
        if any(s.queued or s.pending for s in mine) or (table.row.shown_at or 0) >= drawn:
            return
        try:
            if await self.svc.store.tables.mark_shown(table.id, drawn):
                table.row = replace(table.row, shown_at=drawn)
        except Exception:
            log.exception("table %s: cannot store that its messages are shown", table.id)

    def _slot_table(self, slot: Slot) -> tuple[Table | None, int | None]:
        table_id, _, seat = slot.key[1:].partition("s")
        return self.svc.tables.get(int(table_id)), int(seat) if seat else None

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        self.show(await chats.forbidden(self.svc, chat_id))

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        self.show(await chats.move_chat(self.svc, old_chat_id, new_chat_id))

    # -- events ---------------------------------------------------------------------------------

    def _group(self, table: Table, screen: Callable[[Translate], Screen], *,
               silent: bool = False) -> None:
        self.outbox.post(table.chat_id, screen(self.translator(table.chat_id)), silent=silent,
                         thread_id=table.thread_id)

    def _game_over(self, ev: events.GameOver) -> None:
        """The settlement; the finished table's message is unpinned."""
        table = ev.table
        self._group(table, lambda tr: tell.game_over(ev, tr))
        if table.row.pinned_message_id is not None:  # else no call: the start checks again
            self.unpin(table.id, table.chat_id)

    def _deal_scored(self, ev: events.DealScored) -> None:
        table = ev.table
        tr = self.translator(table.chat_id)
        self.outbox.post(table.chat_id, tell.deal_result(ev, tr), thread_id=table.thread_id)
        if ev.picture is not None:
            self.send_picture(table.chat_id, ev.picture, tr, thread_id=table.thread_id)

    def _vote_asked(self, ev: events.VoteAsked) -> None:
        """The question, with its buttons; its message and what it asks are stored with the
        vote, so that its outcome is written under it whenever it ends (a restart too)."""
        table, tr = ev.table, self.translator(ev.table.chat_id)
        asked = tell.question(table, ev.vote, ev.initiator_name, tr)
        self.outbox.post(table.chat_id, tell.vote_question(ev, tr), thread_id=table.thread_id,
                         after={"vote": ev.vote.id, "question": asked})

    async def call_sent(self, after: Mapping[str, Any], result: Message | bool) -> None:
        """A vote's question was posted (``_vote_asked``), or an ended game's message
        unpinned (``unpin``)."""
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
            self.cannot_pin.add(row.chat_id)
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
        turn comes. A vote's outcome, under its question (``_vote_ended``): which message,
        and what it asked, are read from the stored vote then."""
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

    def _vote_ended(self, ev: events.VoteEnded) -> None:
        """The vote's message says how it ended and loses its buttons (read from the stored
        vote when its turn comes in the chat's queue, after the question was posted). A
        vote whose question was not stored (asked by an older version) only loses them, and
        a refusal is told."""
        table, tr = ev.table, self.translator(ev.table.chat_id)
        self.outbox.put(table.chat_id, Call("edit_message_text", {"chat_id": table.chat_id},
                                            fill={"vote": ev.vote.id,
                                                  "outcome": tell.vote_over(ev, tr)}))
        if ev.by is not None and ev.vote.message_id is not None and ev.vote.question is None:
            self._group(table, lambda tr: tell.vote_refused(ev, tr))

    def _reminder(self, ev: events.Reminder) -> None:
        for user_id in ev.users:
            self.outbox.post(user_id, tell.reminder(ev, self.translator(user_id)), silent=ev.silent)

    def _replaced(self, ev: events.Replaced) -> None:
        self._group(ev.table, lambda tr: tell.replaced(ev, tr))
        if ev.old_user is not None:
            self.outbox.post(ev.old_user, tell.replaced_player(ev, self.translator(ev.old_user)))

    # -- files ----------------------------------------------------------------------------------

    def send_picture(self, chat_id: int, match: Match, tr: Translate, *,
                     thread_id: int = 0) -> None:
        """The match's sheet as a photo (``match`` is a copy nobody changes)."""
        self.send_drawn(chat_id, lambda: draw_sheet(match, tr), "scoresheet.png",
                        caption(match, tr), thread_id=thread_id)

    def send_drawn(self, chat_id: int, draw: Callable[[], bytes], filename: str, text: str, *,
                   thread_id: int = 0) -> None:
        """A picture as a photo, drawn (``draw``: its PNG) in a worker thread when its turn
        comes in the chat's queue (kept, before its unit of work is committed)."""
        self.outbox.put(chat_id, Call("send_photo", _upload(chat_id, filename, text, thread_id),
                                      draw=draw))

    async def send_document(self, chat_id: int, data: bytes, filename: str, text: str, *,
                            thread_id: int = 0) -> None:
        await self.outbox.request(chat_id, Call(
            "send_document", _upload(chat_id, filename, text, thread_id), data))


def _unpin_call(chat_id: int, message_id: int, table_id: int | None) -> Call:
    """Unpin a message; ``table_id``: the table whose stored pin it is, forgotten once it is
    unpinned (or refused)."""
    return Call("unpin_chat_message", {"chat_id": chat_id, "message_id": message_id},
                after={"unpinned": table_id})


def _upload(chat_id: int, filename: str, text: str, thread_id: int) -> dict[str, Any]:
    return {"chat_id": chat_id, "filename": filename, "caption": text,
            "message_thread_id": thread_id or None}
