"""What every handler needs: the sender as plain values, the chat's language, the topic."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType

from bot.service.outcome import Outcome
from bot.service.users import Person
from bot.telegram.context import Context
from bot.ui.i18n import Translate
from storage.rows import UserRow


def person(user: TgUser) -> Person:
    return Person(user.id, user.full_name, user.username, user.language_code)


def thread_of(message: Message | None) -> int:
    """The forum topic a message belongs to (0: none, or not a forum)."""
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


def replied(message: Message) -> Message | None:
    """The message this one answers: none for a forum topic's message that only belongs to
    its topic (Telegram makes it a reply to the topic's first message, a service message)."""
    answered = message.reply_to_message
    if answered is None or answered.forum_topic_created is not None or (
            message.is_topic_message and answered.message_id == message.message_thread_id):
        return None
    return answered


def replied_person(message: Message) -> Person | None:
    """The person whose message this one answers (not the bot, nor a topic's creator)."""
    answered = replied(message)
    author = None if answered is None else answered.from_user
    return None if author is None or author.is_bot else person(author)


def topic_name(message: Message | None) -> str | None:
    """The name of the forum topic a message is in, where Telegram tells it (the topic's
    first message, which the message answers)."""
    if message is None or not message.is_topic_message or message.reply_to_message is None:
        return None
    created = message.reply_to_message.forum_topic_created
    return None if created is None else created.name


async def sender(update: Update, context: Context) -> UserRow | None:
    user = update.effective_user
    return None if user is None else await context.services.users.seen(person(user))


async def chat_translator(update: Update, context: Context) -> Translate:
    """The language to answer in: the user's own in a private chat, else the group's (a new
    group's from whoever talks to the bot first)."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    users = context.services.users
    if chat.type == ChatType.PRIVATE:
        if user is not None:
            await users.seen(person(user), started=True)
        return context.presenter.translator(chat.id)
    stored = await users.seen(person(user)) if user is not None else None
    await users.chat_language(chat.id, stored.language if stored else None)
    return context.presenter.translator(chat.id)


def is_private(update: Update) -> bool:
    return update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE


async def reply(update: Update, context: Context, text: str | None) -> None:
    """Answer in the update's chat (its topic), through the outbox."""
    chat = update.effective_chat
    if text and chat is not None:
        await context.presenter.reply(chat.id, text, thread_id=thread_of(update.effective_message))


def args_of(context: Context) -> list[str]:
    return list(context.args or [])


def command_word(update: Update) -> str:
    """The command a message starts with, without ``/`` and ``@bot``."""
    message = update.effective_message
    text = message.text if message is not None and message.text else ""
    return text.split()[0][1:].split("@")[0].lower() if text else ""


def after_command(update: Update) -> str:
    """The message without its command (new lines kept: /settle reads them)."""
    message = update.effective_message
    parts = (message.text or "").split(maxsplit=1) if message is not None else []
    return parts[1] if len(parts) > 1 else ""


async def say(update: Update, context: Context, outcome: Outcome, tr: Translate,
              names: list[str] | None = None) -> None:
    """Show an outcome, and answer the command with its refusal or note."""
    context.services.publish(outcome)
    await reply(update, context, context.presenter.reply_text(outcome, tr, names or []))


async def refuse(update: Update, context: Context, code: str, tr: Translate,
                 **params: object) -> None:
    """Answer a command with a refusal that changes nothing."""
    await say(update, context, Outcome().refuse(code, **params), tr)


@dataclass(frozen=True)
class InGroup:
    """A command sent in a group: the language to answer in, its sender, its chat and topic."""

    tr: Translate
    user: UserRow
    chat_id: int
    thread_id: int


async def in_group(update: Update, context: Context) -> InGroup | None:
    """The command as sent in a group; None (and the sender told so) in a private chat."""
    tr = await chat_translator(update, context)
    chat = update.effective_chat
    if chat is None:
        return None
    if is_private(update):
        await refuse(update, context, "in_group", tr)
        return None
    user = await sender(update, context)
    return None if user is None else InGroup(tr, user, chat.id,
                                             thread_of(update.effective_message))
