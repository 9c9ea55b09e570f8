"""The scorekeeper's commands: /add, /deal, /undo, /edit, /settle (``install``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Chat, Update
from telegram.constants import ChatType
from telegram.ext import Application, CommandHandler, ContextTypes

from bot.hub import Hub
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.scorekeeper import corrections, lobby
from bot.scorekeeper.entering import deal_command
from bot.scorekeeper.paper import settle_text
from bot.tables import Table
from storage.rows import UserRow

# what a table command does: (hub, table, user, the text after the command, tr) -> a reply
Action = Callable[[Hub, Table, UserRow, str, Translate], Awaitable["str | None"]]


def _after_command(text: str) -> str:
    """The message without its command (new lines kept: /settle reads them)."""
    parts = text.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


@dataclass(frozen=True)
class _Command:
    hub: Hub
    chat: Chat
    user: UserRow
    tr: Translate  # in the chat's language (a private chat: the user's)
    text: str  # after the command

    async def reply(self, text: str | None) -> None:
        if text:
            await self.hub.outbox.send(self.chat.id, Screen(text))


async def _command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> _Command | None:
    hub: Hub = context.application.bot_data["hub"]
    chat, tg_user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or tg_user is None or message is None or not message.text:
        return None
    user = await hub.user(tg_user)
    if chat.type == ChatType.PRIVATE:
        tr = hub.tr_user(user.id)
    else:
        await hub.chat_language(chat.id, user.language)
        tr = hub.tr_chat(chat.id)
    return _Command(hub, chat, user, tr, _after_command(message.text))


async def _table_command(update: Update, context: ContextTypes.DEFAULT_TYPE,
                         action: Action, *, finished_too: bool = False) -> None:
    """Run a scorekeeper command on the group's table, under its lock."""
    command = await _command(update, context)
    if command is None:
        return
    hub, tr = command.hub, command.tr
    if command.chat.type == ChatType.PRIVATE:
        await command.reply(tr("Send this command in the group where the table is."))
        return
    if finished_too:
        found = await corrections.table_to_correct(hub, command.chat.id, tr)
    else:
        found = hub.table_in(command.chat.id) or tr(
            "No table is open here. Send /newgame to open one.")
    if isinstance(found, str):
        await command.reply(found)
        return
    async with found.lock:
        if not found.keeps_score and not finished_too:
            reply = tr("This table deals its cards: deals are entered by hand only at a table "
                       "that keeps score (/newgame, then “Keep score only”).")
        else:
            reply = await action(hub, found, command.user, command.text, tr)
    await command.reply(reply)


async def on_add(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, lobby.add_names)


async def on_deal(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, deal_command)


async def _undo(hub: Hub, table: Table, user: UserRow, text: str, tr: Translate) -> str | None:
    return await corrections.undo_command(hub, table, user, tr)


async def on_undo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, _undo, finished_too=True)


async def on_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, corrections.edit_command, finished_too=True)


async def on_settle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any chat: settle a pasted paper sheet."""
    command = await _command(update, context)
    if command is not None:
        await command.reply(settle_text(command.text, command.tr))


def install(app: Application) -> None:
    app.add_handler(CommandHandler("add", on_add))
    app.add_handler(CommandHandler("deal", on_deal))
    app.add_handler(CommandHandler("undo", on_undo))
    app.add_handler(CommandHandler("edit", on_edit))
    app.add_handler(CommandHandler("settle", on_settle))
