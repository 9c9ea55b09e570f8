"""/replace: a new player takes an absent one's seat, by the other players' vote.

``/replace @new`` names the newcomer (or reply to one of their messages with
``/replace``); the seat is the one that is away (a robot plays it, or its time
is up). ``/replace @old @new`` names the seat's player too. The newcomer must
have started the bot. The game record keeps the seat's name as it was at the
start (records are about seats); the group is told who plays it now, and the
statistics of deals finished from now on, and the game's result, go to the newcomer.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from telegram import Message, MessageEntity

from bot import table_votes
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.substitutes import away_seats
from bot.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub


async def named_users(hub: Hub, message: Message, args: list[str],
                      tr: Translate) -> list[UserRow] | str:
    """The users a command names, in order: text mentions and ``@usernames``, then the
    author of the message it replies to; an explanation if one is unknown."""
    named = [await hub.user(e.user) for e in message.entities
             if e.type == MessageEntity.TEXT_MENTION and e.user is not None]
    for arg in args:
        if arg.startswith("@") and len(arg) > 1:
            found = await hub.storage.find_user(arg)
            if found is None:
                return tr("I do not know {name}: they must open me privately first ({link}).",
                          name=escape(arg), link=hub.deep_link("start"))
            named.append(found)
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        named.append(await hub.user(replied.from_user))
    return named


async def command(hub: Hub, message: Message, user: UserRow, args: list[str],
                  tr: Translate) -> str | None:
    table = hub.table_in(message.chat.id)
    if table is None or table.status == "lobby":
        return tr("No game is being played here.")
    named = await named_users(hub, message, args, tr)
    if isinstance(named, str):
        return named
    if not 1 <= len(named) <= 2:
        return tr("Name the new player: /replace @new, or /replace @old @new.")
    async with table.lock:
        if table.seat_of(user.id) is None:
            return tr("Only the players of this game can do that.")
        new = named[-1]
        away = away_seats(table)
        if len(named) == 2:
            seat = table.seat_of(named[0].id)
            if seat is None:
                return tr("{name} does not play at this table.",
                          name=escape(named[0].display_name))
        elif len(away) == 1:
            seat = away[0]
        else:
            return tr("Whose seat should {name} take? /replace @old @new",
                      name=escape(new.display_name))
        if table.seat_of(new.id) is not None:
            return tr("{name} already plays at this table.", name=escape(new.display_name))
        if not new.has_started_bot:
            return tr("{name} must open me privately first: {link}",
                      name=escape(new.display_name), link=hub.deep_link(f"t{table.id}"))
        old = table.user_of(seat)
        besides = frozenset({user.id, old or 0}) if seat in away else frozenset({user.id})
        group_tr = hub.tr_chat(table.chat_id)
        question = group_tr("{name} proposes that {new} takes the seat of {old}.",
                            name=hub.who(table, table.seat_of(user.id) or 0),
                            new=escape(new.display_name), old=hub.who(table, seat))
        await table_votes.ask(hub, table, user.id, "replace", question,
                              lambda: replace(hub, table, seat, new),
                              voters=table_votes.present_players(table, besides=besides))
    return None


async def replace(hub: Hub, table: Table, seat: int, new: UserRow) -> None:
    """Seat ``new`` at ``seat``; the table's lock is held."""
    old = table.user_of(seat)
    row = await hub.storage.replace_player(table.id, seat, new.id)
    hub.users[new.id] = new
    table.panels.pop(seat, None)
    table.selection.pop(seat, None)
    hub.update_row(table, row)
    tr = hub.tr_chat(table.chat_id)
    hub.outbox.post(table.chat_id, Screen(tr(
        "🔄 {new} takes the seat of {old} (the scoresheet keeps the seat's name).",
        new=escape(new.display_name), old=hub.who(table, seat))))
    if old is not None:
        old_tr = hub.tr_user(old)
        hub.outbox.post(old, Screen(old_tr("🔄 {new} took your seat at the table. Thank you "
                                           "for playing!", new=escape(new.display_name))))
    state = table.match.state if table.match is not None else None
    to_act = state is not None and any(state.controller(s) == seat for s in state.to_act)
    await hub.timers.rearm(table, fresh=to_act)  # the newcomer gets a whole turn's time
    hub.redraw(table, notify=frozenset({new.id}))
