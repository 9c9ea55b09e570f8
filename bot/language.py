"""/language: the language the bot writes in, per chat.

In a group it is the group's language (the table message, the group's
messages, the answers to commands there); in a private chat it is the user's
own (his panels and alerts). A group's language starts as the Telegram
language of whoever first talks to the bot there (``Hub.chat_language``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import i18n
from bot.render.screen import Button, Screen, rows_of

if TYPE_CHECKING:
    from bot.hub import Hub

PREFIX = "lang:"  # callback data of the language buttons: "lang:ru"
PATTERN = rf"^{PREFIX}"
NATIVE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська", "ka": "ქართული"}


def native_name(language: str) -> str:
    return NATIVE_NAMES.get(language, language)


def current(hub: Hub, chat_id: int) -> str:
    """The language of a chat: the group's, or in a private chat the user's."""
    if chat_id > 0:
        user = hub.users.get(chat_id)
        return i18n.normalize(user.language if user else None)
    return hub.languages.get(chat_id, i18n.DEFAULT_LANGUAGE)


def picker(hub: Hub, chat_id: int) -> Screen:
    """The question with one button per language, the current one ticked."""
    tr = i18n.translator(current(hub, chat_id))
    question = (tr("Which language shall I write in here?") if chat_id < 0
                else tr("Which language shall I write to you in?"))
    chosen = current(hub, chat_id)
    buttons = [Button(("✅ " if code == chosen else "") + native_name(code), PREFIX + code)
               for code in i18n.languages()]
    return Screen(question, tuple(rows_of(buttons, 3)))


async def command(hub: Hub, chat_id: int, args: list[str]) -> Screen:
    """``/language`` shows the buttons; ``/language ru`` switches at once."""
    if not args:
        return picker(hub, chat_id)
    wanted = args[0].lower()
    if wanted not in i18n.languages():
        tr = i18n.translator(current(hub, chat_id))
        return Screen(tr("I can write in: {languages}. For example: /language ru",
                         languages=", ".join(f"{code} ({native_name(code)})"
                                             for code in i18n.languages())))
    return Screen(await switch(hub, chat_id, wanted))


async def switch(hub: Hub, chat_id: int, language: str) -> str:
    """Store the chat's new language and redraw what the bot shows there; the confirmation
    in the new language."""
    if chat_id < 0:
        await hub.storage.save_chat(chat_id, language=language)
        hub.languages[chat_id] = language
        tables = [t for t in (hub.table_in(chat_id),) if t is not None]
    else:
        hub.users[chat_id] = await hub.storage.save_user(chat_id, language=language)
        tables = hub.tables_of(chat_id)
    for table in tables:
        async with table.lock:
            hub.redraw(table)
    tr = i18n.translator(language)
    return (tr("From now on I write in English in this chat.") if chat_id < 0
            else tr("From now on I write to you in English."))


async def press(hub: Hub, chat_id: int, message_id: int | None, data: str) -> str:
    """A language button: switch, and turn the question into the confirmation. The alert
    text to answer with."""
    language = data.removeprefix(PREFIX)
    if language not in i18n.languages():
        tr = i18n.translator(current(hub, chat_id))
        return tr("I do not write in that language any more.")
    done = await switch(hub, chat_id, language)
    if message_id is not None:  # a refused edit (the question was deleted) is only logged
        await hub.outbox.call(chat_id, lambda: hub.bot.edit_message_text(
            done, chat_id=chat_id, message_id=message_id))
    return done
