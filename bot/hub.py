"""The bot's state: open tables, users, languages, and drawing every table's messages.

One ``Hub`` per process. Handlers and timer jobs find tables here and change
them only under the table's lock.
"""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import Bot
from telegram import User as TgUser
from telegram.error import Forbidden
from telegram.ext import JobQueue

from bot import i18n, play
from bot.games.base import GameUI
from bot.games.registry import GAME_UIS
from bot.lobby_screen import lobby_screen
from bot.outbox import GROUP_LIMIT, OVERALL_LIMIT, Delivery, Outbox, Slot
from bot.render.context import RenderContext
from bot.render.screen import Screen
from bot.scorekeeper.screen import screen as scorekeeper_screen
from bot.tables import Table
from bot.timers import Timers
from bot.turn_notes import panel_note, table_note
from bot.votes import Votes
from storage.rows import TableRow, UserRow
from storage.store import Storage

log = logging.getLogger(__name__)


class Hub(Delivery):
    def __init__(self, storage: Storage, bot: Bot, username: str, *,
                 group_limit: int = GROUP_LIMIT, overall_limit: int = OVERALL_LIMIT,
                 job_queue: JobQueue[Any] | None = None) -> None:
        self.storage = storage
        self.bot = bot
        self.username = username
        self.outbox = Outbox(bot, self, group_limit=group_limit, overall_limit=overall_limit)
        self.tables: dict[int, Table] = {}
        self.users: dict[int, UserRow] = {}
        self.languages: dict[int, str] = {}  # chat id -> language
        self._warned: set[tuple[int, int]] = set()  # (table, user) told to open the bot
        self.votes = Votes()
        self.timers = Timers(self, job_queue)  # turn timers and robot moves (none without a queue)

    # -- users and languages ------------------------------------------------------------

    async def user(self, tg: TgUser, *, started: bool | None = None) -> UserRow:
        """The stored user, created or updated when Telegram shows a change."""
        known = self.users.get(tg.id)
        name = tg.full_name or tg.username or str(tg.id)
        changes: dict[str, Any] = {}
        if known is None or known.display_name != name:
            changes["display_name"] = name
        if known is None or known.username != tg.username:
            changes["username"] = tg.username
        if known is None:
            changes["language"] = i18n.normalize(tg.language_code)
        if started is not None and (known is None or known.has_started_bot != started):
            changes["has_started_bot"] = started
        if changes:
            known = await self.storage.save_user(tg.id, **changes)
            self.users[tg.id] = known
        assert known is not None
        return known

    async def chat_language(self, chat_id: int, default: str | None = None) -> str:
        if chat_id not in self.languages:
            row = await self.storage.get_chat(chat_id)
            if row is None or row.language is None:
                language = i18n.normalize(default)
                await self.storage.save_chat(chat_id, language=language)
            else:
                language = row.language
            self.languages[chat_id] = language
        return self.languages[chat_id]

    def tr_chat(self, chat_id: int) -> i18n.Translate:
        return i18n.translator(self.languages.get(chat_id))

    def tr_user(self, user_id: int) -> i18n.Translate:
        user = self.users.get(user_id)
        return i18n.translator(user.language if user else None)

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.username}?start={payload}"

    # -- tables -------------------------------------------------------------------------

    def table_in(self, chat_id: int) -> Table | None:
        return next((t for t in self.tables.values()
                     if t.chat_id == chat_id and t.status in ("lobby", "playing", "paused")), None)

    def tables_of(self, user_id: int) -> list[Table]:
        return [t for t in self.tables.values()
                if t.seat_of(user_id) is not None and t.status in ("playing", "paused")]

    def adopt(self, row: TableRow) -> Table:
        """Track a stored table (a new lobby, or one restored at start)."""
        table = Table(row, GAME_UIS[row.game])
        table.slot = Slot(f"t{row.id}", row.chat_id, row.table_message_id,
                          row.table_message_digest)
        self.tables[row.id] = table
        self.update_row(table, row)
        return table

    def update_row(self, table: Table, row: TableRow) -> None:
        table.row = row
        for seat in row.seats:
            slot = table.panels.get(seat.seat)
            if seat.user_id is not None and (slot is None or slot.chat_id != seat.user_id):
                table.panels[seat.seat] = Slot(f"t{row.id}s{seat.seat}", seat.user_id,
                                               seat.panel_message_id, seat.panel_digest)

    def forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)

    async def restore(self) -> list[str]:
        """Load every open table, rebuild its match and redraw its messages."""
        report = await self.storage.restore()
        problems = []
        for table_id, row in report.tables.items():
            table = self.adopt(row)
            await self.chat_language(row.chat_id)
            for seat in row.seats:
                if seat.user_id is not None and seat.user_id not in self.users:
                    user = await self.storage.get_user(seat.user_id)
                    if user is not None:
                        self.users[user.id] = user
            table.match = report.matches.get(table_id)
            if table_id in report.failed:
                problems.append(f"table {table_id}: {report.failed[table_id]}")
                continue
            async with table.lock:
                if table.status == "playing":
                    # A stop between storing a deal's end and dealing the next one: deal now.
                    await play.next_deal(self, table)
                await self.timers.rearm(table)  # the stored timer, with the time that is left
            self.redraw(table)
        return problems

    # -- drawing ------------------------------------------------------------------------

    def context(self, table: Table, tr: i18n.Translate, seat: int | None = None) -> RenderContext:
        match = table.match
        deal_no = len(match.deals) if match else 0
        rules = match.rules.to_dict() if match else dict(table.row.rules)
        selection = table.selection.get(seat, frozenset()) if seat is not None else frozenset()
        return RenderContext(table.id, table.names, rules, deal_no, tr,
                             match.version if match else 0, selection)

    def redraw(self, table: Table, *, notify: frozenset[int] = frozenset()) -> None:
        """Show every message of the table in its current state; ``notify`` users get a
        fresh panel (a notification) instead of an edit."""
        assert table.slot is not None
        tr = self.tr_chat(table.chat_id)
        if table.keeps_score:  # no cards, no panels: one message in the group
            self.outbox.show(table.slot, scorekeeper_screen(self, table, tr))
            return
        if table.status == "lobby" or table.match is None:
            self.outbox.show(table.slot, lobby_screen(self, table, tr))
            return
        match = table.match
        ui: GameUI = table.ui
        if match.state is None:
            return
        ctx = self.context(table, tr)
        screen = ui.table(match.state.view(None), ctx)
        screen = table_note(self, table, screen, tr)
        self.outbox.show(table.slot, self._status_note(table, screen, tr))
        for seat, slot in table.panels.items():
            user_id = table.user_of(seat)
            if user_id is None:
                continue
            utr = self.tr_user(user_id)
            panel = ui.panel(ui.seat_view(match.state, seat), self.context(table, utr, seat))
            panel = panel_note(self, table, seat, panel, utr)
            if table.status != "playing":
                panel = Screen(panel.text + "\n\n" + self._paused_line(table, utr))
            self.outbox.show(slot, panel, renew=user_id in notify)

    def _status_note(self, table: Table, screen: Screen, tr: i18n.Translate) -> Screen:
        if table.status == "playing":
            return screen
        return Screen(screen.text + "\n\n" + self._paused_line(table, tr), screen.rows)

    def _paused_line(self, table: Table, tr: i18n.Translate) -> str:
        if table.status == "paused":
            return tr("⏸ The game is paused.")
        if table.status == "finished":
            return tr("🏁 The game is over.")
        return tr("The game was stopped.")

    def who(self, table: Table, seat: int) -> str:
        return escape(table.names[seat]) if table.names else str(seat)

    # -- Delivery (outbox callbacks) -------------------------------------------------------

    async def slot_sent(self, slot: Slot) -> None:
        table_id, _, seat = slot.key[1:].partition("s")
        table = self.tables.get(int(table_id))
        if table is None:
            return
        try:
            if seat:
                if any(s.seat == int(seat) for s in table.row.seats):
                    await self.storage.set_panel_message(table.id, int(seat), slot.message_id,
                                                         slot.sent_digest)
            else:
                table.row = await self.storage.update_table(
                    table.id, table_message_id=slot.message_id,
                    table_message_digest=slot.sent_digest)
        except Exception:
            log.exception("table %s: cannot store message id of %s", table_id, slot.key)

    async def forbidden(self, chat_id: int, error: Forbidden) -> None:
        if chat_id < 0:
            table = self.table_in(chat_id)
            log.warning("chat %s refuses the bot (%s)", chat_id, error.message)
            if table is not None and table.status == "playing":
                async with table.lock:
                    table.row = await self.storage.set_status(table.id, "paused")
            return
        user = self.users.get(chat_id)
        if user is not None and user.has_started_bot:
            self.users[chat_id] = await self.storage.save_user(chat_id, has_started_bot=False)
        for table in self.tables_of(chat_id):
            if (table.id, chat_id) in self._warned:
                continue
            self._warned.add((table.id, chat_id))
            seat = table.seat_of(chat_id)
            assert seat is not None
            tr = self.tr_chat(table.chat_id)
            self.outbox.post(table.chat_id, Screen(tr(
                "{name}, I cannot write to you privately, so you cannot see your cards. "
                "Open {link} and press Start.",
                name=self.who(table, seat), link=self.deep_link(f"t{table.id}"))))

    def unwarn(self, user_id: int) -> None:
        self._warned = {(t, u) for t, u in self._warned if u != user_id}

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.move_chat(old_chat_id, new_chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its tables, language and messages move along."""
        await self.storage.migrate_chat(old_chat_id, new_chat_id)
        if old_chat_id in self.languages:
            self.languages[new_chat_id] = self.languages.pop(old_chat_id)
        for table in list(self.tables.values()):
            if table.chat_id == old_chat_id:
                self.update_row(table, await self.storage.get_table(table.id))
                table.slot = Slot(f"t{table.id}", new_chat_id)
                self.redraw(table)
