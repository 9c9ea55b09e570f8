"""Languages, statistics, leaderboards, and what Telegram reports of chats."""

from __future__ import annotations

import logging

from telegram import MessageEntity, Update
from telegram.constants import ChatMemberStatus, ChatType

from bot.games import PLUGINS, command_games
from bot.screens import ratings, texts
from bot.service import chats, queries
from bot.service.outcome import Outcome
from bot.service.users import Person
from bot.telegram.answers import Answer
from bot.telegram.common import (
    args_of,
    chat_translator,
    person,
    refuse,
    replied_person,
    reply,
    say,
    sender,
    thread_of,
)
from bot.telegram.context import Context
from bot.ui.i18n import translator
from storage.outage import DatabaseGone, of_outage

log = logging.getLogger(__name__)

LANGUAGE_PATTERN = rf"^{texts.LANGUAGE_PREFIX}"


async def on_stats(update: Update, context: Context) -> None:
    """/stats: the sender's; of someone else by reply, a mention or @username."""
    tr = await chat_translator(update, context)
    message, tg_user = update.effective_message, update.effective_user
    if message is None or tg_user is None:
        return
    mentions = [person(e.user) for e in message.entities
                if e.type == MessageEntity.TEXT_MENTION and e.user is not None]
    usernames = [arg for arg in args_of(context) if arg.startswith("@") and len(arg) > 1]
    named: Person | str | None = next(iter([*filter(None, [replied_person(message)]),
                                            *mentions, *usernames]), None)
    found = await queries.stats(context.services, person(tg_user), named, message.chat.id)
    if isinstance(found, Outcome):
        await say(update, context, found, tr)
        return
    await reply(update, context, texts.stats_text(found, tr))
    if found.history:
        context.presenter.send_drawn(
            message.chat.id, lambda: ratings.history_picture(found, tr).png, "rating.png",
            ratings.history_caption(found, tr), thread_id=thread_of(message))


async def on_top(update: Update, context: Context) -> None:
    tr = await chat_translator(update, context)
    chat, user = update.effective_chat, update.effective_user
    place = None if chat is None else await queries.game_place(
        context.services, chat.id, 0, user.id if user else None)
    if place is None:
        await refuse(update, context, "top_in_group", tr)
        return
    parsed = queries.parse_top(args_of(context), command_games())
    if parsed is None:
        await refuse(update, context, "top_how", tr, example=next(iter(PLUGINS)))
        return
    games, minimum = parsed
    boards = await queries.top(context.services, place.chat_id, games, minimum)
    await reply(update, context, ratings.top_text(boards, minimum, tr))


# -- languages --------------------------------------------------------------------------------

async def on_language(update: Update, context: Context) -> None:
    """``/language`` shows the buttons; ``/language ru`` switches at once."""
    tr = await chat_translator(update, context)  # a new group's language is the sender's
    chat = update.effective_chat
    if chat is None:
        return
    users = context.services.users
    args = args_of(context)
    if not args:
        await context.presenter.send(chat.id, texts.language_picker(
            users.language_of(chat.id), users.languages, tr, group=chat.id < 0),
            thread_id=thread_of(update.effective_message))
        return
    wanted = args[0].lower()
    if wanted not in users.languages:
        await reply(update, context, texts.languages_known(users.languages, tr))
        return
    out = await chats.set_language(context.services, chat.id, wanted)
    context.services.publish(out)
    await reply(update, context, texts.language_set(translator(wanted), group=chat.id < 0))


async def on_language_button(update: Update, context: Context) -> None:
    """A language button: switch, and turn the question into the confirmation."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    await sender(update, context)
    chat_id, message_id = query.message.chat.id, query.message.message_id
    language = (query.data or "").removeprefix(texts.LANGUAGE_PREFIX)
    out = await chats.set_language(context.services, chat_id, language)
    if out.ok:
        context.services.publish(out)
        done = texts.language_set(translator(language), group=chat_id < 0)
        await context.presenter.replace_text(chat_id, message_id, done)
    else:
        assert out.refusal is not None
        done = context.presenter.text(out.refusal, context.presenter.translator(chat_id))
    await context.presenter.outbox.answer(query.id, Answer.note(done))


# -- what Telegram reports --------------------------------------------------------------------

async def on_migrate(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    context.services.publish(await chats.move_chat(context.services, old, new))


async def on_membership(update: Update, context: Context) -> None:
    change = update.my_chat_member
    if change is None or change.chat.type == ChatType.PRIVATE:
        return
    status = change.new_chat_member.status
    gone = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    if status in gone:
        out = await chats.bot_removed(context.services, change.chat.id)
    elif change.old_chat_member.status in gone:
        out = await chats.bot_added(context.services, change.chat.id,
                                    change.from_user.language_code)
    else:  # the bot's rights changed: it may be allowed to pin now
        await context.presenter.book.pins.grant(change.chat.id)
        return
    context.services.publish(out)


async def on_unknown_command(update: Update, context: Context) -> None:
    """Only in private chats, or when addressed to this bot by name, so as not to answer
    other bots' commands in a group."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None or not message.text:
        return
    addressed = f"@{context.presenter.username}".lower() in message.text.split()[0].lower()
    if chat.type != ChatType.PRIVATE and not addressed:
        return
    tr = await chat_translator(update, context)
    await refuse(update, context, "unknown_command", tr)


async def on_error(update: object, context: Context) -> None:
    error = context.error
    if error is not None and of_outage(error):
        # The database is out of reach (said once, storage/outage.py): nothing was stored.
        if isinstance(update, Update):
            await _not_stored(update, context)
        updater = context.application.updater
        if isinstance(error, DatabaseGone) and updater is not None and updater.running:
            context.application.stop_running()  # the single process exits for a restart
        return
    log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)


async def _not_stored(update: Update, context: Context) -> None:
    """Tell whoever pressed or wrote that it was not stored (in the chat's known language: no
    database read)."""
    chat = update.effective_chat
    if chat is None:
        return
    text = context.presenter.not_stored(chat.id)
    if update.callback_query is not None:
        await context.presenter.outbox.answer(update.callback_query.id, Answer.refuse(text))
    else:
        await reply(update, context, text)
