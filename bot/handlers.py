"""python-telegram-bot handlers: read the update, find the table, call the game code.

Every press is answered (an alert says why nothing happened); nothing here
raises to the user.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Chat, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

import bot.game_choice as game_choice
from bot import (
    commands,
    language,
    lobby,
    long_games,
    play,
    sheet_command,
    stats_commands,
    substitutes,
)
from bot.answers import Answer
from bot.callbacks import BadCallback, unpack
from bot.games.registry import GAME_UIS
from bot.hub import Hub
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.scorekeeper import entering as scorekeeper
from bot.scorekeeper import handlers as scorekeeper_commands
from storage.rows import UserRow

log = logging.getLogger(__name__)

GROUPS = filters.ChatType.GROUPS
PRIVATE = filters.ChatType.PRIVATE


def hub_of(context: ContextTypes.DEFAULT_TYPE) -> Hub:
    return context.application.bot_data["hub"]


async def _reply(hub: Hub, update: Update, text: str | None) -> None:
    """Answer in the chat, through the outbox (in order and within the chat's budget)."""
    if text and update.effective_chat is not None:
        await hub.outbox.send(update.effective_chat.id, Screen(text))


async def _chat_tr(hub: Hub, update: Update) -> Translate:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    if chat.type == ChatType.PRIVATE:
        if user is not None:
            await hub.user(user, started=True)
            return hub.tr_user(user.id)
        return hub.tr_chat(chat.id)
    stored = await hub.user(user) if user is not None else None
    await hub.chat_language(chat.id, stored.language if stored else None)
    return hub.tr_chat(chat.id)


# -- commands -------------------------------------------------------------------------------

async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tg_user = update.effective_user
    if tg_user is None:
        return
    user = await hub.user(tg_user, started=True)
    hub.unwarn(user.id)
    tr = hub.tr_user(user.id)
    payload = context.args[0] if context.args else ""
    reply = None
    if payload[:1] == "j" and payload[1:].isdigit():
        table = hub.tables.get(int(payload[1:]))
        if table is None:
            reply = tr("That table is no longer open.")
        elif table.status == "lobby":
            async with table.lock:
                reply = (await lobby.join(hub, table, user)).text
    for table in hub.tables_of(user.id):
        async with table.lock:
            if table.match is not None and table.status == "playing":
                await play.next_deal(hub, table)
            hub.redraw(table, notify=frozenset({user.id}))
    if reply is None and not hub.tables_of(user.id):
        reply = commands.help_text(tr, private=True)
    await _reply(hub, update, reply)


async def on_newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    chat, tg_user = update.effective_chat, update.effective_user
    if chat is None or tg_user is None or update.effective_message is None:
        return
    tr = await _chat_tr(hub, update)
    if chat.type == ChatType.PRIVATE:
        await _reply(hub, update, tr("Add me to a group and send /newgame there."))
        return
    command = update.effective_message.text.split()[0][1:].split("@")[0].lower()
    wanted = (context.args[0].lower() if context.args else command)
    game = next((ui.name for ui in GAME_UIS.values() if wanted in (ui.name, *ui.commands)),
                None)
    if game is None:
        if command == "newgame" and not context.args:
            await hub.outbox.send(chat.id, game_choice.screen(tr))
            return
        else:
            names = ", ".join(ui.name for ui in GAME_UIS.values())
            await _reply(hub, update, tr("I know these games: {names}. Example: /newgame preferans",
                                    names=names))
            return
    user = await hub.user(tg_user)
    await lobby.open_table(hub, chat.id, user, game)


async def _table_command(update: Update, context: ContextTypes.DEFAULT_TYPE,
                         answer: Callable[[Hub, int, Translate], Awaitable[str | None]]) -> None:
    """A command about a table: this group's, or in a private chat the player's own."""
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    chat_id = _game_chat(hub, update)
    if chat_id is None:
        await _reply(hub, update, tr("You are not playing at any table."))
        return
    await _reply(hub, update, await answer(hub, chat_id, tr))


async def on_score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, commands.score)


async def on_history(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, commands.history)


async def on_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _table_command(update, context, commands.rules_text)


async def on_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    chat = update.effective_chat
    await _reply(hub, update, commands.help_text(tr, private=chat is not None and
                                            chat.type == ChatType.PRIVATE))


async def on_export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    target = update.effective_chat.id if update.effective_chat else 0

    async def export(hub: Hub, chat_id: int, tr: Translate) -> str | None:
        return await commands.export(hub, chat_id, tr, target)

    await _table_command(update, context, export)


async def on_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _leave_or_abort(update, context, "leave")


async def on_abort(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _leave_or_abort(update, context, "abort")


async def _leave_or_abort(update: Update, context: ContextTypes.DEFAULT_TYPE, kind: str) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    chat, tg_user = update.effective_chat, update.effective_user
    if chat is None or tg_user is None:
        return
    if chat.type == ChatType.PRIVATE:
        await _reply(hub, update, tr("Send this command in the group where the table is."))
        return
    user = await hub.user(tg_user)
    await _reply(hub, update, await commands.leave_or_abort(hub, chat.id, user, kind, tr))


def _game_chat(hub: Hub, update: Update) -> int | None:
    """The group whose game a command is about: this group, or in private the player's table."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return None
    if chat.type != ChatType.PRIVATE:
        return chat.id
    tables = hub.tables_of(user.id) if user is not None else []
    return tables[0].chat_id if tables else None


async def on_unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Only in private chats, or when addressed to this bot by name, so as not to answer
    other bots' commands in a group."""
    hub = hub_of(context)
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None or not message.text:
        return
    addressed = f"@{hub.username}".lower() in message.text.split()[0].lower()
    if chat.type != ChatType.PRIVATE and not addressed:
        return
    tr = await _chat_tr(hub, update)
    await _reply(hub, update, tr("I do not know that command. /help lists what I can do."))


# -- buttons --------------------------------------------------------------------------------

async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    hub = hub_of(context)
    user = await hub.user(query.from_user)
    tr = hub.tr_user(user.id)
    try:
        answer = await _press(hub, query.data, user, tr)
    except Exception:
        log.exception("button %r from %s failed", query.data, user.id)
        answer = Answer.refuse(tr("Something went wrong; nothing was changed. Please try again."))
    try:
        await query.answer(answer.text or None, show_alert=answer.alert, url=answer.url)
    except BadRequest as exc:
        log.info("cannot answer button %r: %s", query.data, exc.message)


async def _press(hub: Hub, data: str | None, user: UserRow, tr: Translate) -> Answer:
    try:
        callback = unpack(data)
    except BadCallback:
        return Answer.refuse(tr("This button is not one of mine, or it is too old."))
    table = hub.tables.get(callback.table)
    if table is None:
        return Answer.refuse(tr("This table is closed."))
    async with table.lock:
        if callback.kind == "l":
            return await lobby.press(hub, table, user, callback.parts)
        if callback.kind == "v":
            return await commands.vote_press(hub, table, user, callback.parts)
        if callback.kind == "k":
            return await scorekeeper.press(hub, table, user, callback.parts)
        if callback.kind in long_games.KINDS:
            return await long_games.press(hub, table, user, callback)
        version, seat, rest = int(callback.parts[0]), int(callback.parts[1]), callback.parts[2]
        await substitutes.take_back(hub, table, user.id)  # any press of a panel brings one back
        if callback.kind == "a":
            return await play.act(hub, table, user.id, version, seat, rest)
        return await play.step(hub, table, user.id, version, seat, rest)


# -- chats ----------------------------------------------------------------------------------

async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await hub_of(context).move_chat(old, new)


async def on_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    change = update.my_chat_member
    if change is None or change.chat.type == Chat.PRIVATE:
        return
    hub = hub_of(context)
    status = change.new_chat_member.status
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        table = hub.table_in(change.chat.id)
        if table is not None and table.status == "playing":
            async with table.lock:
                table.row = await hub.storage.set_status(table.id, "paused")
        return
    if change.old_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        await hub.chat_language(change.chat.id, change.from_user.language_code)
        tr = hub.tr_chat(change.chat.id)
        hub.outbox.post(change.chat.id, Screen(tr(
            "Hello! Send /newgame to open a table of Preferans, Seep or Joker. /help lists "
            "my commands.")))


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)


# -- long games: /timer, /pause, /resume, /replace, /quiet ----------------------------------

async def on_long_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    screen = await long_games.command(hub, update, context.args or [], tr)
    if screen is not None and update.effective_chat is not None:
        await hub.outbox.send(update.effective_chat.id, screen)


# -- the scoresheet picture, statistics, language ------------------------------------------

async def on_sheet(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    chat_id = _game_chat(hub, update)
    if chat_id is None or update.effective_chat is None:
        await _reply(hub, update, tr("You are not playing at any table."))
        return
    if context.args and update.effective_user is not None:  # /sheet on|off
        await _reply(hub, update, await sheet_command.setting(
            hub, chat_id, update.effective_user.id, context.args[0].lower(), tr))
        return
    await _reply(hub, update, await sheet_command.sheet(hub, chat_id, tr,
                                                        update.effective_chat.id))


async def on_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    who = await stats_commands.target(hub, message, context.args or [],
                                     await hub.user(tg_user), tr)
    await _reply(hub, update, who if isinstance(who, str) else
                 await stats_commands.stats_text(hub, who, tr))


async def on_top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    tr = await _chat_tr(hub, update)
    chat_id = _game_chat(hub, update)
    await _reply(hub, update, await stats_commands.top_text(hub, chat_id, context.args or [], tr)
                 if chat_id is not None else tr("Send /top in a group: it ranks its players."))


async def on_language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    hub = hub_of(context)
    await _chat_tr(hub, update)  # loads the chat's language (a new group's from the sender)
    if update.effective_chat is not None:
        chat_id = update.effective_chat.id
        await hub.outbox.send(chat_id, await language.command(hub, chat_id, context.args or []))


async def on_language_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None or query.message is None:
        return
    hub = hub_of(context)
    await hub.user(query.from_user)
    text = await language.press(hub, query.message.chat.id, query.message.message_id,
                                query.data or "")
    try:
        await query.answer(text)
    except BadRequest as exc:
        log.info("cannot answer language button: %s", exc.message)


async def on_game_choice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A game button of /newgame: open that game's lobby in the button's chat."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    hub = hub_of(context)
    user = await hub.user(query.from_user)
    answer = await game_choice.press(hub, query.message.chat.id, user, query.data or "")
    try:
        await query.answer(answer.text or None, show_alert=answer.alert)
    except BadRequest as exc:
        log.info("cannot answer game button: %s", exc.message)


def install(app: Application) -> None:
    aliases = sorted({c for ui in GAME_UIS.values() for c in ui.commands})
    app.add_handler(CommandHandler("start", on_start, filters=PRIVATE))
    app.add_handler(CommandHandler(["newgame", *aliases], on_newgame))
    app.add_handler(CommandHandler("score", on_score))
    app.add_handler(CommandHandler("history", on_history))
    app.add_handler(CommandHandler("rules", on_rules))
    app.add_handler(CommandHandler("help", on_help))
    app.add_handler(CommandHandler("export", on_export))
    app.add_handler(CommandHandler("leave", on_leave))
    app.add_handler(CommandHandler("abort", on_abort))
    app.add_handler(CommandHandler("sheet", on_sheet))
    app.add_handler(CommandHandler("stats", on_stats))
    app.add_handler(CommandHandler("top", on_top))
    app.add_handler(CommandHandler("language", on_language))
    app.add_handler(CommandHandler(list(long_games.COMMANDS), on_long_game))
    scorekeeper_commands.install(app)
    # Further command handlers go above this line: the fallback answers every other command.
    app.add_handler(MessageHandler(filters.COMMAND, on_unknown_command))
    app.add_handler(CallbackQueryHandler(on_language_button, pattern=language.PATTERN))
    app.add_handler(CallbackQueryHandler(on_game_choice, pattern=game_choice.PATTERN))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    app.add_handler(ChatMemberHandler(on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(on_error)
