"""Opening tables, every button of a table, and the commands about a table's game."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from telegram import CallbackQuery, MaybeInaccessibleMessage, Message, MessageEntity, Update

from bot.games import FRONT, PLUGINS, command_games
from bot.screens import texts
from bot.screens.time_settings import quiet_text
from bot.screens.time_settings import screen as timer_screen
from bot.service import loading, lobby, pausing, presses, queries, quiet, replacing, stopping
from bot.service.outcome import Outcome, Refusal
from bot.service.tables import Table
from bot.service.users import Person
from bot.telegram.answers import Answer
from bot.telegram.common import (
    args_of,
    chat_translator,
    command_word,
    in_group,
    is_private,
    person,
    refuse,
    replied_person,
    reply,
    say,
    sender,
    thread_of,
    topic_name,
)
from bot.telegram.context import Context
from bot.ui.callbacks import BadCallback, unpack
from bot.ui.i18n import Translate
from storage.outage import of_outage
from storage.rows import UserRow

log = logging.getLogger(__name__)

GAME_PATTERN = rf"^{texts.GAME_PREFIX}"


# -- opening a table ----------------------------------------------------------------------------

async def on_newgame(update: Update, context: Context) -> None:
    """/newgame [game], or a game's own command (/pref, /seep, /joker). While the topic has a
    table, the answer points at its message instead."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    tr = await chat_translator(update, context)
    if is_private(update):
        await refuse(update, context, "newgame_in_group", tr)
        return
    command, args = command_word(update), args_of(context)
    game = command_games().get(args[0].lower() if args else command)
    user = await sender(update, context)
    assert user is not None
    thread_id = thread_of(message)
    if game is None and not (command == "newgame" and not args):
        await refuse(update, context, "unknown_game", tr, names=", ".join(PLUGINS),
                     example=next(iter(PLUGINS)))
        return
    out = (await lobby.refuse_if_open(context.services, chat.id, thread_id) if game is None else
           await lobby.open_table(context.services, chat.id, thread_id, user, game,
                                  topic_name(message)))
    if out is None:
        await context.presenter.send(chat.id, texts.newgame_menu(tr, user.id),
                                     thread_id=thread_id)
        return
    context.services.publish(out)
    if out.refusal is not None:  # the topic has a table: answered as a reply to its message
        existing = await loading.table(context.services, out.refusal.params.get("table", 0))
        book = context.presenter.book
        reply_to = None if existing is None else book.slot(existing, None).message_id
        await context.presenter.reply(chat.id, context.presenter.reply_text(out, tr),
                                      thread_id=thread_id, reply_to=reply_to)


async def on_game_choice(update: Update, context: Context) -> None:
    """A game button of /newgame: whoever sent /newgame opens that game's lobby in the
    button's chat, and the menu loses its buttons."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    user = await context.services.users.seen(person(query.from_user))
    tr = context.presenter.translator(user.id)
    game, _, owner = (query.data or "").removeprefix(texts.GAME_PREFIX).partition(":")
    chat_id = query.message.chat.id
    if game not in PLUGINS or chat_id > 0:
        answer = Answer.refuse(context.presenter.text(Refusal("bad_button"), tr))
    elif owner != str(user.id):
        answer = Answer.refuse(context.presenter.text(Refusal("not_your_menu"), tr))
    else:
        out = await lobby.open_table(context.services, chat_id, thread_of(query.message), user,
                                     game, topic_name(query.message))
        context.services.publish(out)
        answer = (Answer.refuse(context.presenter.text(Refusal("table_exists_here"), tr))
                  if out.refusal is not None else context.presenter.answer(out, tr))
        await _answer(update, context, answer)  # at once; then the menu says what was chosen
        await context.presenter.replace_text(
            chat_id, query.message.message_id,
            texts.game_chosen(context.presenter.translator(chat_id), game).text)
        return
    await _answer(update, context, answer)


# -- buttons of a table -------------------------------------------------------------------------

async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    user = await context.services.users.seen(person(query.from_user))
    tr = context.presenter.translator(user.id)
    try:
        answer = await _press(context, query, user, tr)
    except Exception as exc:
        if of_outage(exc):
            raise  # answered "not saved" (``on_error``); the outage is said once
        log.exception("button %r from %s failed", query.data, user.id)
        answer = Answer.refuse(context.presenter.text(Refusal("failed"), tr))
    await _answer(update, context, answer)


async def _press(context: Context, query: CallbackQuery, user: UserRow,
                 tr: Translate) -> Answer:
    try:
        callback = unpack(query.data)
    except BadCallback:
        return Answer.refuse(context.presenter.text(Refusal("not_mine"), tr))
    message = query.message
    if callback.kind == "k" and message is not None and message.chat.id == user.id:
        context.presenter.entry_pressed(callback.table, user.id, message.message_id)
    out = await presses.press(context.services, callback.table, user, callback.kind,
                              callback.parts, FRONT)
    context.services.publish(out)
    if (out.refusal is not None and out.refusal.code == "table_closed" and message is not None
            and _shows(message, query.data)):
        # a message of an ended game that kept its buttons (a /timer picker): none now (not
        # for a forged press: that would spend the chat's calls on a message with no buttons)
        await context.presenter.drop_buttons(message.chat.id, message.message_id)
    table = context.services.tables.get(callback.table)
    if (callback.kind == "a" and out.ok and out.note is None and table is not None
            and user.id not in table.acting_users()):
        # his panel's buttons may stay until the round is complete (bot/telegram/rhythm.py):
        # the press says it was made
        out.done("made")
    return context.presenter.answer(out, tr, table.names if table is not None else [])


def _shows(message: MaybeInaccessibleMessage, data: str | None) -> bool:
    """The message has a button that sends ``data``."""
    markup = message.reply_markup if isinstance(message, Message) else None
    return markup is not None and any(button.callback_data == data
                                      for row in markup.inline_keyboard for button in row)


async def _answer(update: Update, context: Context, answer: Answer) -> None:
    query = update.callback_query
    assert query is not None
    await context.presenter.outbox.answer(query.id, answer)


# -- commands about the topic's table -----------------------------------------------------------

@dataclass(frozen=True)
class About:
    """A command about a game: the language to answer in; the group it is about (in private:
    the player's game's) and that topic's table; the chat and topic the command came from."""

    tr: Translate
    place: queries.Place
    table: Table | None
    chat_id: int
    thread_id: int


async def _about(update: Update, context: Context) -> About | None:
    """What a score command is about; None (and the sender told so) if it is about nothing."""
    tr = await chat_translator(update, context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return None
    user_id = user.id if user else None
    thread_id = thread_of(update.effective_message)
    place = await queries.game_place(context.services, chat.id, thread_id, user_id)
    if place is None:
        await refuse(update, context, "not_at_any_table", tr)
        return None
    table = await queries.topic_table(context.services, chat.id, thread_id, user_id)
    return About(tr, place, table, chat.id, thread_id)


async def on_score(update: Update, context: Context) -> None:
    about = await _about(update, context)
    if about is not None:
        found = await queries.score(context.services, about.place, about.table)
        links = {t.id: context.presenter.look(t).table_link for t in found.elsewhere}
        await reply(update, context, texts.score_text(found, about.tr, links))


async def on_history(update: Update, context: Context) -> None:
    about = await _about(update, context)
    if about is not None:
        deals = await queries.history(context.services, about.place)
        await reply(update, context, texts.history_text(deals, about.tr))


async def on_rules(update: Update, context: Context) -> None:
    about = await _about(update, context)
    if about is not None:
        every = [a.casefold() for a in context.args or ()] == ["all"]
        await reply(update, context, texts.rules_text(about.table, about.tr, every=every))


async def on_export(update: Update, context: Context) -> None:
    """The game record as a JSON document, sent where the command was."""
    about = await _about(update, context)
    if about is None:
        return
    table_id = await queries.last_played(context.services, about.place, about.table)
    if table_id is None:
        await refuse(update, context, "nothing_to_export", about.tr)
        return
    record = await context.services.store.log.record(table_id)
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    await context.presenter.send_document(
        about.chat_id, data, f"{record['game']}-{table_id}.json",
        texts.export_caption(about.tr), thread_id=about.thread_id)


async def on_sheet(update: Update, context: Context) -> None:
    """/sheet: the picture; /sheet on|off: whether it follows every deal's result."""
    about = await _about(update, context)
    user = update.effective_user
    if about is None or user is None:
        return
    tr, args = about.tr, args_of(context)
    if args:
        word = args[0].lower()
        if word not in ("on", "off"):
            await refuse(update, context, "sheet_how", tr)
            return
        out = await queries.set_sheet(context.services, about.table, user.id, word == "on")
        await say(update, context, out, tr)
        return
    found = await queries.sheet_match(context.services, about.place, about.table)
    if isinstance(found, Outcome):
        await say(update, context, found, tr)
        return
    context.presenter.send_picture(about.chat_id, found, tr, thread_id=about.thread_id)


async def on_leave_or_abort(update: Update, context: Context) -> None:
    cmd = await in_group(update, context)
    if cmd is not None:
        await say(update, context, await stopping.request(
            context.services, cmd.chat_id, cmd.thread_id, cmd.user, command_word(update)), cmd.tr)


async def on_pause_or_resume(update: Update, context: Context) -> None:
    cmd = await in_group(update, context)
    if cmd is not None:
        out = await pausing.request(context.services, cmd.chat_id, cmd.thread_id, cmd.user,
                                    command_word(update) == "pause")
        await say(update, context, out, cmd.tr, names=await _names(update, context))


async def on_replace(update: Update, context: Context) -> None:
    """/replace @new, /replace @old @new, or /replace in reply to the newcomer's message."""
    cmd = await in_group(update, context)
    message = update.effective_message
    if cmd is None or message is None:
        return
    named: list[Person | str] = [person(e.user) for e in message.entities
                                 if e.type == MessageEntity.TEXT_MENTION and e.user is not None]
    named += [arg for arg in args_of(context) if arg.startswith("@") and len(arg) > 1]
    newcomer = replied_person(message)
    if newcomer is not None:
        named.append(newcomer)
    out = await replacing.request(context.services, cmd.chat_id, cmd.thread_id, cmd.user, named)
    await say(update, context, out, cmd.tr)


async def on_timer(update: Update, context: Context) -> None:
    cmd = await in_group(update, context)
    if cmd is None:
        return
    table = await loading.topic_table(context.services, cmd.chat_id, cmd.thread_id)
    if table is None:
        await refuse(update, context, "no_table_open", cmd.tr)
        return
    await context.presenter.send(cmd.chat_id, timer_screen(table, cmd.tr),
                                 thread_id=table.thread_id)


async def on_quiet(update: Update, context: Context) -> None:
    cmd = await in_group(update, context)
    if cmd is None:
        return
    answer = await quiet.command(context.services, cmd.chat_id, args_of(context))
    if not answer.outcome.ok:
        await say(update, context, answer.outcome, cmd.tr)
        return
    text = quiet_text(answer.chat, cmd.tr)
    if answer.shown:
        text += "\n" + cmd.tr("Change: /quiet 23:00-08:00 Europe/Moscow, or /quiet off.")
    await reply(update, context, text)


async def _names(update: Update, context: Context) -> list[str]:
    chat, user = update.effective_chat, update.effective_user
    table = None if chat is None else await queries.topic_table(
        context.services, chat.id, thread_of(update.effective_message), user.id if user else None)
    return table.names if table is not None else []
