"""The one command table: each command's names, where it is offered, its menu and help
lines and its handler; it makes the handlers, the command menus and /help."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.constants import ChatType
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.games import PLUGINS
from bot.screens import texts
from bot.service import chats
from bot.telegram.common import args_of, chat_translator, is_private, person, reply, say
from bot.telegram.context import App, Context
from bot.telegram.handlers import chats as chat_handlers
from bot.telegram.handlers import keeping, tables
from bot.ui.i18n import Translate, languages, translator
from storage.marks import MarkStore

Handler = Callable[[Update, Context], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    """``names``: the first is the command, the others its aliases; ``group``/``private``:
    its menu line in groups and in private chats (None: not in that menu, and in private
    it is not answered unless the handler answers every chat); ``help``: its /help line."""

    names: tuple[str, ...]
    handler: Handler
    group: str | None = None
    private: str | None = None
    help: str | None = None
    private_only: bool = False


async def on_start(update: Update, context: Context) -> None:
    tg_user = update.effective_user
    if tg_user is None:
        return
    payload = args_of(context)[0] if context.args else ""
    out = await chats.start(context.services, person(tg_user), payload)
    tr = context.presenter.translator(tg_user.id)
    if out.note == "help" or out.refusal is not None:  # a refusal is no greeting, and may
        await reply(update, context, help_text(tr, private=True))  # be the bot's first word
    if out.note == "help":
        context.services.publish(out)
    else:
        await say(update, context, out, tr)


async def on_help(update: Update, context: Context) -> None:
    tr = await chat_translator(update, context)
    await reply(update, context, help_text(tr, private=is_private(update)))


def _game_commands() -> tuple[str, ...]:
    return tuple(sorted({c for p in PLUGINS.values() for c in p.commands}))


COMMANDS: tuple[Command, ...] = (
    Command(("start",), on_start, private="show my cards again", private_only=True),
    Command(("newgame", *_game_commands()), tables.on_newgame, group="open a table",
            help="/newgame — open a table in this group: {games}"),
    Command(("score",), tables.on_score, group="the scoresheet and balances",
            private="the score of my table",
            help="/score — the scoresheet and each player's balance as if settled now"),
    Command(("history",), tables.on_history, group="the last deals",
            help="/history — the last deals"),
    Command(("rules",), tables.on_rules, group="the table's rules",
            help="/rules — the table's rules (/rules all: every convention)"),
    Command(("leave",), tables.on_leave_or_abort, group="leave, or end the game by agreement",
            help="/leave — leave the lobby, or ask the others to end the game now"),
    Command(("abort",), tables.on_leave_or_abort, group="abandon the game by agreement",
            help="/abort — ask the others to abandon the game"),
    Command(("export",), tables.on_export, group="the game record as a file",
            help="/export — the game record as a JSON file"),
    Command(("sheet",), tables.on_sheet, group="the scoresheet as a picture",
            private="the scoresheet of my table", help="/sheet — the scoresheet as a picture"),
    Command(("stats",), chat_handlers.on_stats, group="a player's statistics",
            private="my statistics",
            help="/stats — your statistics (/stats @name: someone else's)"),
    Command(("top",), chat_handlers.on_top, group="the group's best players",
            help="/top — the best players of this group"),
    Command(("language",), chat_handlers.on_language, group="the language of this group",
            private="the language I write to you in",
            help="/language — the language I write in here"),
    Command(("timer",), tables.on_timer, group="turn time, reminders, what a timeout does",
            help="/timer — turn time, reminders and what a timeout does (changed by vote)"),
    Command(("pause",), tables.on_pause_or_resume, group="pause the game by agreement",
            help="/pause — pause the game by agreement"),
    Command(("resume",), tables.on_pause_or_resume, group="go on with a paused game",
            help="/resume — go on with a paused game"),
    Command(("replace",), tables.on_replace, group="seat a new player for an absent one",
            help="/replace @new — seat a new player for an absent one (/replace @old @new)"),
    Command(("quiet",), tables.on_quiet, group="quiet hours of this group",
            help="/quiet 23:00-08:00 Europe/Moscow — no timer pings at night (/quiet off)"),
    Command(("deal",), keeping.on_deal, group="enter a deal of a scorekept game",
            help="/deal — enter a deal in one line, e.g. /deal 7H Ann made; Bob whist 3; Cid "
                 "pass (/deal alone shows the format of your game)"),
    Command(("undo",), keeping.on_undo, group="remove the last entered deal",
            help="/undo — remove the last entered deal"),
    Command(("edit",), keeping.on_edit, group="correct an entered deal",
            help="/edit N — correct deal N"),
    Command(("add",), keeping.on_add, group="seat a player by name (scorekeeping)",
            help="/add Ann, Bob — seat players who are not on Telegram (keeping score only)"),
    Command(("settle",), keeping.on_settle, group="settle a paper scoresheet",
            private="settle a paper scoresheet",
            help="/settle — settle a paper scoresheet (/settle alone shows the format)"),
    Command(("help",), on_help, group="what I can do", private="what I can do",
            help="/help — this message"),
)


def help_text(tr: Translate, *, private: bool) -> str:
    games = texts.game_commands(tr)
    return texts.help_text(tr, [tr(c.help, games=games) for c in COMMANDS if c.help],
                           private=private)


async def set_menus(app: App, marks: MarkStore) -> None:
    """The command menus, per scope and language: set once per deploy (when they differ from
    what was set last, by their stored digest), not by every process at every start."""
    menus = []
    for language in languages():
        tr = translator(language)
        for scope, line in ((BotCommandScopeAllGroupChats(), "group"),
                            (BotCommandScopeAllPrivateChats(), "private")):
            items = [BotCommand(c.names[0], tr(text)) for c in COMMANDS
                     if (text := getattr(c, line)) is not None]
            menus.append((scope, None if language == "en" else language, items))
    digest = hashlib.sha256(json.dumps(
        [(scope.type, code, [i.to_dict() for i in items]) for scope, code, items in menus],
        ensure_ascii=False).encode()).hexdigest()
    key = f"{MENUS}:{app.bot.id}"  # another bot on this database sets its own
    if await marks.get(key) == digest:
        return
    for scope, code, items in menus:
        await app.bot.set_my_commands(items, scope=scope, language_code=code)
    await marks.put(key, digest)


async def on_any(update: Update, context: Context) -> None:
    """Before the handlers: a group's title and username, as its updates show them (not
    from a migration's messages: the old group's row is moving away)."""
    chat, message = update.effective_chat, update.effective_message
    moving = message is not None and bool(message.migrate_to_chat_id
                                          or message.migrate_from_chat_id)
    if chat is not None and chat.type != ChatType.PRIVATE and not moving:
        await context.services.users.group_seen(chat.id, chat.title, chat.username)


MENUS = "menus"  # the mark of the menus set (their digest)
NO_DATA = "^$"  # callback data that is empty (PTB matches no pattern against it)


def install(app: App) -> None:
    app.add_handler(TypeHandler(Update, on_any), group=-1)
    for command in COMMANDS:
        app.add_handler(CommandHandler(
            list(command.names), command.handler,
            filters=filters.ChatType.PRIVATE if command.private_only else None))
    # The fallback answers every other command.
    app.add_handler(MessageHandler(filters.COMMAND, chat_handlers.on_unknown_command))
    # PTB gives a press without data to the first handler with a pattern: a table's, which
    # refuses it as not one of ours (not the language handler, which would answer oddly).
    app.add_handler(CallbackQueryHandler(tables.on_button, pattern=NO_DATA))
    app.add_handler(CallbackQueryHandler(chat_handlers.on_language_button,
                                         pattern=chat_handlers.LANGUAGE_PATTERN))
    app.add_handler(CallbackQueryHandler(tables.on_game_choice, pattern=tables.GAME_PATTERN))
    app.add_handler(CallbackQueryHandler(tables.on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_handlers.on_migrate))
    app.add_handler(ChatMemberHandler(chat_handlers.on_membership,
                                      ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(chat_handlers.on_error)
