"""The one place where outcomes become messages: screens drawn and handed to the outbox.

``show(outcome)`` tells the outcome's events (in order) and redraws the tables
it changed: the group's table message and every player's panel, each in its
reader's language. It only queues sends (the outbox sends them within
Telegram's budgets), so it runs right after the use case, with nothing in
between that could change a table. ``answer`` and ``reply_text`` turn a
refusal or note into a press's alert or a command's reply.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games import PLUGINS
from bot.screens import events as tell
from bot.screens import refusals
from bot.screens.look import AppLinks, Look
from bot.screens.scorekeeping import keeper_screen
from bot.screens.sheet import caption, draw_sheet
from bot.screens.table import panel, table_message
from bot.service import events
from bot.service.outcome import Outcome, Refusal
from bot.service.ports import Services
from bot.service.tables import Table
from bot.telegram.answers import OK, Answer
from bot.telegram.calls import Call
from bot.telegram.links import message_link
from bot.telegram.rhythm import Beat, Rhythm
from bot.telegram.sending.book import MessageBook
from bot.telegram.sending.outbox import Outbox
from bot.telegram.sending.slots import Wait
from bot.ui.i18n import Translate, translator
from bot.ui.screen import Screen
from engine.match import Match


class Presenter:
    """Draws outcomes as screens and hands them to the outbox, in the messages the book
    keeps (bot/telegram/sending/)."""

    def __init__(self, svc: Services, outbox: Outbox, book: MessageBook, username: str, *,
                 app: AppLinks | None = None) -> None:
        self.svc = svc
        self.app = app  # the Mini App's launch links (None: no Mini App)
        self.outbox = outbox
        self.book = book
        book.moved = self.redraw
        self.rhythm = Rhythm()
        self.username = username
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
            events.DealAnalysed: self._deal_analysed,
            events.Welcome: lambda ev: self.outbox.post(
                ev.chat_id, tell.welcome(self.translator(ev.chat_id))),
        }

    # -- languages, links, looks --------------------------------------------------------------

    def translator(self, chat_id: int) -> Translate:
        """The translator of a chat: a group's language, or in private the user's."""
        return translator(self.svc.users.language_of(chat_id))

    def not_stored(self, chat_id: int) -> str:
        """"Not saved, try again", in the chat's known language (no database read)."""
        return self.text(Refusal("not_stored"), self.translator(chat_id))

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
        ended = {ev.table.id for ev in outcome.events
                 if isinstance(ev, events.DealScored | events.GameOver)}
        for table in outcome.changed.values():
            self.redraw(table, notify=outcome.notify, urge=outcome.urge,
                        renew=table.id in outcome.renew,
                        first=table.id in ended)

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
        if said.code == "correct_in_private":
            extra["link"] = self.link(f"k{params['table']}")
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

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        """A message of the bot's loses its buttons (a refused edit is only logged)."""
        await self.outbox.request(chat_id, Call("edit_message_reply_markup", {
            "chat_id": chat_id, "message_id": message_id, "reply_markup": None}))

    # -- the tables' messages -----------------------------------------------------------------

    def redraw(self, table: Table, *, notify: set[int] | frozenset[int] = frozenset(),
               urge: set[int] | frozenset[int] = frozenset(), renew: bool = False,
               first: bool = False) -> None:
        """Show every message of the table in its current state; ``notify`` users get a
        fresh panel (a notification) instead of an edit, ``urge`` users theirs at once;
        ``renew``: the group message too;
        ``first``: the group message at once, before the group's one-off messages (a deal's
        result never stands above a table still waiting for its last card).
        A player who must act gets his panel at once; the others' panels and the group's
        message wait for the table's next beat (bot/telegram/rhythm.py), or a player's for his
        turn; so do the buttons of a player who acted, until the round is complete
        (``Rhythm.lingers``, ``Wait.GOING``)."""
        look = self.look(table)
        screen = table_message(table, self.translator(table.chat_id), look)
        if screen is None:
            return
        beat = self.rhythm.beat(table)
        group = self.book.slot(table, None)
        # (a scorekept game's message too: its keeper enters the deals in private, and the
        # group's message, which only says the next deal, follows the saved deals evenly)
        group.even = table.status != "lobby"
        renew = renew or self.book.scrolled_away(table, group)
        # (a table message posted anew comes below the result: it is brought back down; a
        # scorekept table's shows no deal going on, to be ended before its result)
        group.first = group.first or (first and not renew and not table.keeps_score)
        self.outbox.show(group, screen, renew=renew,
                         wait=Wait.TEXT if beat is None and not first else Wait.NOT)
        if table.keeps_score:
            self._entries(table, look, notify)
        acting = table.acting_users() | urge
        for seat in table.row.seats:
            user_id = seat.user_id
            if user_id is None:
                continue
            shown = panel(table, seat.seat, self.translator(user_id), look)
            if shown is None:
                continue
            waits = beat is not Beat.EVERYONE and user_id not in acting and not (
                beat is Beat.DEAL and self.rhythm.sits_out(table, seat.seat))
            lingers = self.rhythm.lingers(table, beat, seat.seat)
            self.outbox.show(self.book.slot(table, seat.seat), shown, renew=user_id in notify,
                             wait=(Wait.GOING if lingers else Wait.TEXT) if waits else Wait.NOT)
        self.book.drawing(table)

    def _entries(self, table: Table, look: Look, notify: set[int] | frozenset[int]) -> None:
        """A scorekept table's entry messages: the keeper's, with the deal's buttons (posted
        anew when he opened it: ``notify``), and those of whoever entered before him."""
        keeper = None if table.keeper is None else table.keeper.draft.keeper
        if keeper is not None and keeper in notify:
            self.book.entry(table.id, keeper)
        for user_id, slot in self.book.entries_of(table.id):
            self.outbox.show(slot, keeper_screen(table, self.translator(user_id), look, user_id),
                             renew=user_id == keeper and keeper in notify)

    def entry_pressed(self, table_id: int, user_id: int, message_id: int) -> None:
        """A button of a scorekept table's entry message was pressed in ``user_id``'s private
        chat: that message is the one to keep up to date (adopted if this process did not
        know it)."""
        self.book.entry(table_id, user_id, message_id)

    def forget(self, table_id: int) -> None:
        """Another process drew the table since: what this one knows of its messages, and of
        its beats, is no longer true."""
        self.book.forget(table_id)
        self.rhythm.forget(table_id)

    def known(self, table: Table) -> None:
        """The table's messages show it as it is now (a table loaded after a restart): what
        its messages without buttons show is noted, so that only a change edits them. (Those
        with buttons change at the next move anyway, and may show a pick held in memory.)"""
        look = self.look(table)
        screens = [(None, table_message(table, self.translator(table.chat_id), look))]
        screens += [(seat.seat, panel(table, seat.seat, self.translator(seat.user_id), look))
                    for seat in table.row.seats if seat.user_id is not None]
        for seat, screen in screens:
            slot = self.book.slot(table, seat)
            if screen is not None and not screen.rows and slot.message_id is not None:
                slot.known(screen)

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
            self.book.unpin(table.id, table.chat_id)

    def _deal_analysed(self, ev: events.DealAnalysed) -> None:
        """The analysis in the group, or in the private chat of the player who asked."""
        chat = ev.row.chat_id if ev.to is None else ev.to
        self.outbox.post(chat, tell.deal_analysis(ev, self.translator(chat)),
                         thread_id=ev.row.thread_id if ev.to is None else 0)

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


def _upload(chat_id: int, filename: str, text: str, thread_id: int) -> dict[str, Any]:
    return {"chat_id": chat_id, "filename": filename, "caption": text,
            "message_thread_id": thread_id or None}
