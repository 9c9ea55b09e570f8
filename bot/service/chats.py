"""Chats as Telegram changes them: a player opens the bot, blocks it or changes language; a
group adds or removes the bot, or becomes a supergroup."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.bounds import ident
from bot.service import events, loading, lobby, play
from bot.service.outcome import Outcome
from bot.service.scorekeeping import entering
from bot.service.users import Person

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)


async def start(svc: Services, person: Person, payload: str) -> Outcome:
    """``/start [payload]`` in the bot's private chat: the player can be written to now;
    ``j<table>`` joins that lobby; ``k<table>`` opens the entry of a scorekept table's deals
    here; every game he plays shows his panel anew. The outcome's note is ``help`` when
    there is nothing else to say."""
    user = await svc.users.seen(person, started=True)
    svc.users.unwarn(user.id)
    out = Outcome()
    wanted = ident(payload[1:]) if payload[:1] in ("j", "k") else None
    if wanted is not None:
        table = await loading.table(svc, wanted)
        if table is None:
            out.refuse("table_gone")
        elif table.status == "lobby" or payload[0] == "k":
            async with table.lock:
                done = await (lobby.join(svc, table, user) if payload[0] == "j"
                              else entering.open_entry(svc, table, user))
            out.changed.update(done.changed)
            out.notify.update(done.notify)
            out.refusal, out.note, out.note_params = done.refusal, done.note, done.note_params
    for table in await loading.user_tables(svc, user.id):
        async with table.lock:
            if table.match is not None and table.status == "playing":
                await play.next_deal(svc, table, out)
            out.redraw(table, notify=(user.id,))
    if out.ok and out.note is None and not await loading.user_tables(svc, user.id):
        out.done("help")
    return out


async def forbidden(svc: Services, chat_id: int) -> Outcome:
    """A chat refuses the bot's messages: a group pauses its game; a player who cannot be
    written to is pointed to the bot in each group where he plays (once)."""
    out = Outcome()
    if chat_id < 0:
        log.warning("chat %s refuses the bot", chat_id)
        return await bot_removed(svc, chat_id)
    await svc.users.set_started(chat_id, False)
    for table in await loading.user_tables(svc, chat_id):
        if svc.users.warn(table.id, chat_id):
            seat = table.seat_of(chat_id)
            assert seat is not None
            out.tell(events.CannotWrite(table, seat))
    return out


async def bot_removed(svc: Services, chat_id: int) -> Outcome:
    """The bot was removed from a group: its games pause (their data stays)."""
    for table in await loading.chat_tables(svc, chat_id):
        if table.status == "playing":
            async with table.lock:
                table.row = await svc.store.tables.set_status(table.id, "paused")
    return Outcome()


async def bot_added(svc: Services, chat_id: int, language_code: str | None) -> Outcome:
    await svc.users.chat_language(chat_id, language_code)
    return Outcome().tell(events.Welcome(chat_id))


async def move_chat(svc: Services, old_chat_id: int, new_chat_id: int) -> Outcome:
    """A group became a supergroup: its tables, language and messages move along."""
    await svc.store.chats.migrate_chat(old_chat_id, new_chat_id)
    svc.users.move_chat(old_chat_id, new_chat_id)
    out = Outcome()
    for table in svc.tables.values():  # loaded before the move: their rows are behind
        if table.chat_id == old_chat_id:
            table.row = await svc.store.tables.get_table(table.id)
    for table in await loading.chat_tables(svc, new_chat_id):
        out.come_anew(table)
    return out


async def set_language(svc: Services, chat_id: int, language: str) -> Outcome:
    """The chat's language (a group's, or a player's own in private); what it shows is
    redrawn in it."""
    out = Outcome()
    if language not in svc.users.languages:
        return out.refuse("unknown_language")
    await svc.users.set_language(chat_id, language)
    tables = (await loading.chat_tables(svc, chat_id) if chat_id < 0
              else await loading.user_tables(svc, chat_id))
    for table in tables:
        out.redraw(table)
    return out.done("language_set", language=language)
