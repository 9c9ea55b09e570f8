"""The commands and buttons of long games (issue 9): /timer, /pause, /resume, /replace,
/quiet; time settings proposed by button (``t:T:key:value``) and the panel's "I am back"
(``r:T``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import Update
from telegram.constants import ChatType

from bot import pause, quiet, replace, substitutes, time_settings
from bot.answers import Answer
from bot.callbacks import Callback
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

COMMANDS = ("timer", "pause", "resume", "replace", "quiet")
KINDS = ("t", "r")


async def command(hub: Hub, update: Update, args: list[str], tr: Translate) -> Screen | None:
    """One of ``COMMANDS``; what to answer in the chat, if anything."""
    message, chat, tg_user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or tg_user is None or not message.text:
        return None
    if chat.type == ChatType.PRIVATE:
        return Screen(tr("Send this command in the group where the table is."))
    name = message.text.split()[0][1:].split("@")[0].lower()
    user = await hub.user(tg_user)
    if name == "quiet":
        return Screen(await quiet.command(hub, chat.id, args, tr))
    if name == "timer":
        table = hub.table_in(chat.id)
        return time_settings.screen(table, tr) if table is not None else Screen(
            tr("No table is open here. Send /newgame to open one."))
    if name == "replace":
        text = await replace.command(hub, message, user, args, tr)
    else:
        text = await pause.request(hub, chat.id, user, name == "pause", tr)
    return Screen(text) if text else None


async def press(hub: Hub, table: Table, user: UserRow, callback: Callback) -> Answer:
    """A button of ``KINDS``; the table's lock is held."""
    if callback.kind == "t":
        return await time_settings.press(hub, table, user, callback.parts)
    return await substitutes.back_press(hub, table, user)

