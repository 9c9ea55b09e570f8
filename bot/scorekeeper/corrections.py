"""``/undo`` and ``/edit N``: the sheet rebuilt from its entries, stored, then told.

Whoever entered a deal may remove or correct it at once; anyone else asks
the table (the other players on Telegram, and the deal's enterer) with a
vote. A vote carries the match version it was asked at: if another deal was
entered meanwhile, it changes nothing. The chat's last game, once finished,
can still be corrected: a correction that leaves some pool open reopens it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from html import escape
from typing import TYPE_CHECKING, Any

from bot import table_votes
from bot.i18n import Translate
from bot.play import hub_reason
from bot.render.screen import Screen
from bot.scorekeeper.draft import taps_of
from bot.scorekeeper.keeper import keeper_of
from bot.scorekeeper.lobby import MODE, may_keep
from bot.scorekeeper.registry import ENTRY_UIS
from bot.scorekeeper.saving import show_next
from bot.scorekeeper.screen import deal_text, entry_text, screen
from bot.tables import Table
from engine.base import ActionError
from engine.manual import edit, form_at, undo
from storage.errors import StorageError, TableExists
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)

Change = Callable[[], Awaitable["str | None"]]  # does it; the reason if it could not


async def table_to_correct(hub: Hub, chat_id: int, tr: Translate) -> Table | str:
    """The chat's scorekept game: the open one, or the last one if it is finished; or why
    there is none."""
    none = tr("No game here keeps score by hand: only deals entered by hand can be undone "
              "or corrected.")
    table = hub.table_in(chat_id)
    if table is not None:
        if not table.keeps_score:
            return none
        return table if table.match is not None else tr("The game has not started yet.")
    games = await hub.storage.recent_games(chat_id, 1)
    if not games or games[0].status != "finished":
        return none
    table = hub.tables.get(games[0].table_id)
    if table is None:
        row = await hub.storage.get_table(games[0].table_id)
        if row.settings.get("mode") != MODE:
            return none
        table = hub.adopt(row)
        table.match = await hub.storage.load_match(row.id)
    return table


async def undo_command(hub: Hub, table: Table, user: UserRow, tr: Translate) -> str | None:
    """``/undo``: remove the last deal (now, or after a vote). Called with the lock held."""
    match = table.match
    assert match is not None
    if not may_keep(table, user.id):
        return tr("Only the players and whoever opened the table enter deals.")
    if not match.deals:
        return tr("No deal has been entered yet.")
    number = len(match.deals)
    text = deal_text(ENTRY_UIS[table.row.game], match, number)
    group_tr = hub.tr_chat(table.chat_id)
    return await _with_consent(
        hub, table, user, number,
        group_tr("remove deal {n} ({text})", n=number, text=escape(text)),
        lambda: _undo(hub, table, match.version))


async def _undo(hub: Hub, table: Table, version: int) -> str | None:
    tr = hub.tr_chat(table.chat_id)
    match = table.match
    assert match is not None
    if match.version != version:
        return tr("The sheet changed meanwhile, so nothing was removed. Ask again.")
    number = len(match.deals)
    text = deal_text(ENTRY_UIS[table.row.game], match, number)
    new = undo(match)
    refused = await _store(hub, table, len(new.deals), new, version, tr)
    if refused:
        return refused
    keeper = keeper_of(table)
    keeper.enterers.pop()
    keeper.restart()
    code = f"<code>{escape(text)}</code>"
    hub.outbox.post(table.chat_id, Screen(tr("↩ Deal {n} was removed: {text}", n=number,
                                             text=code)))
    await show_next(hub, table)
    return None


async def edit_command(hub: Hub, table: Table, user: UserRow, text: str,
                       tr: Translate) -> str | None:
    """``/edit N`` (the deal pre-filled on the message) or ``/edit N <one line>`` (at once).
    Called with the lock held."""
    match = table.match
    assert match is not None
    if not may_keep(table, user.id):
        return tr("Only the players and whoever opened the table enter deals.")
    head, *tail = text.split(maxsplit=1) or [""]
    rest = tail[0] if tail else ""
    if not head.isdigit():
        return tr("Which deal? For example /edit 3 (deals 1 to {n}).", n=len(match.deals))
    number = int(head)
    ui = ENTRY_UIS[table.row.game]
    try:
        form = form_at(match, number)
        if rest.strip():
            return await correct(hub, table, user, number, ui.parse(form, rest))
        old = form.from_dict(match.deals[number - 1]["entry"])
    except ActionError as exc:
        return tr("Not corrected: {reason}", reason=hub_reason(exc, tr, table.names))
    if table.status != "playing":
        return tr("Send the corrected deal in one line: /edit {n} …", n=number)
    draft = keeper_of(table).restart(number)
    draft.taps = taps_of(form, old)
    assert table.slot is not None
    hub.outbox.show(table.slot, screen(hub, table, hub.tr_chat(table.chat_id)), renew=True)
    return None


async def correct(hub: Hub, table: Table, user: UserRow, number: int, entry: Any) -> str | None:
    """Replace deal ``number`` by ``entry`` (now, or after a vote); the reason if refused."""
    tr = hub.tr_user(user.id)
    match = table.match
    assert match is not None
    ui = ENTRY_UIS[table.row.game]
    form = form_at(match, number)
    try:
        form.result(entry)
    except ActionError as exc:
        return tr("Not corrected: {reason}", reason=hub_reason(exc, tr, table.names))
    group_tr = hub.tr_chat(table.chat_id)
    text = entry_text(ui, form, entry)
    return await _with_consent(
        hub, table, user, number,
        group_tr("correct deal {n} to: {text}", n=number, text=escape(text)),
        lambda: _edit(hub, table, user.id, number, entry, match.version))


async def _edit(hub: Hub, table: Table, user_id: int, number: int, entry: Any,
                version: int) -> str | None:
    tr = hub.tr_chat(table.chat_id)
    match = table.match
    assert match is not None
    if match.version != version:
        return tr("The sheet changed meanwhile, so nothing was corrected. Ask again.")
    form = form_at(match, number)
    try:
        new = edit(match, number, entry)
    except ActionError as exc:
        return tr("Not corrected: {reason}", reason=hub_reason(exc, tr, table.names))
    refused = await _store(hub, table, number - 1, new, version, tr)
    if refused:
        return refused
    keeper = keeper_of(table)
    keeper.enterers[number - 1] = user_id
    keeper.restart()
    lines = [tr("✏️ Deal {n} was corrected.", n=number)]
    if number < len(new.deals):
        lines.append(tr("The deals after it were scored again: /score shows the sheet."))
    view = ENTRY_UIS[table.row.game].final_view(form, entry)
    lines.append(table.ui.deal_summary(new.outputs[number - 1], view,
                                       replace(hub.context(table, tr), deal_no=number)))
    hub.outbox.post(table.chat_id, Screen("\n".join(lines)))
    await show_next(hub, table)
    return None


async def _store(hub: Hub, table: Table, first: int, new: Any, version: int,
                 tr: Translate) -> str | None:
    """Replace the stored deals from ``first`` (0-based) by the new match's; on success the
    table takes the new match."""
    try:
        table.row = await hub.storage.replace_entered_deals(
            table.id, first, new.deals[first:], new.outputs[first:], expected_last=version,
            settlement=new.report()["settlement"] if new.over else None)
    except TableExists:
        return tr("Another table is open in this chat: the finished game cannot be reopened.")
    except StorageError:
        log.exception("table %s: cannot replace deals from %s", table.id, first)
        return tr("The sheet could not be changed. Please try again.")
    table.match = new
    return None


async def _with_consent(hub: Hub, table: Table, user: UserRow, number: int, what: str,
                        change: Change) -> str | None:
    """Do ``change`` now if ``user`` entered deal ``number`` (or nobody else can be asked);
    else ask the others. The reason if it was refused at once."""
    enterer = keeper_of(table).enterers[number - 1]
    seated = {s.user_id for s in table.row.seats if s.user_id is not None}
    voters = frozenset(u for u in seated | {enterer} if u is not None and u != user.id)
    if enterer == user.id or not voters:
        return await change()
    tr = hub.tr_chat(table.chat_id)

    async def passed() -> None:
        reason = await change()
        if reason:
            hub.outbox.post(table.chat_id, Screen(reason))

    await table_votes.ask(hub, table, user.id, "correct",
                          tr("{name} wants to {what}.", name=escape(user.display_name),
                             what=what), passed, voters=voters)
    return None
