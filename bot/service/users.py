"""Who talks to the bot: users as Telegram shows them, and each chat's language and clock.

The bot writes to a group in the group's language and to a player in his own.
A group's language starts as the Telegram language of whoever first talks to
the bot there. Rows are cached: a user is stored again only when Telegram
shows a change. In worker mode (``shared``) other processes change them too: a worker
reads those a unit of work uses anew at its start (``reread``), and a table's users when
it loads the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.names import clean
from storage.rows import ChatRow, UserRow
from storage.store import Storage

DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class Person:
    """A Telegram user as an update shows him (plain values, no telegram types)."""

    id: int
    name: str
    username: str | None = None
    language_code: str | None = None


class Users:
    def __init__(self, store: Storage, languages: tuple[str, ...]) -> None:
        self.store = store
        self.languages = languages  # the languages the bot writes in; the first is the default
        self.users: dict[int, UserRow] = {}
        self.chat_languages: dict[int, str] = {}
        self.chats: dict[int, ChatRow | None] = {}  # time zone and quiet hours, by chat
        self._warned: set[tuple[int, int]] = set()  # (table, user) told to open the bot
        self.shared = False  # other processes change the rows too (worker mode)
        self._fresh: set[int] = set()  # users read anew in this unit of work (``reread``)

    def normalize(self, code: str | None) -> str:
        """A Telegram language_code ("ru", "en-US", "pt-br") -> a language the bot writes."""
        language = (code or self.languages[0]).split("-")[0].lower()
        return language if language in self.languages else self.languages[0]

    async def seen(self, person: Person, *, started: bool | None = None) -> UserRow:
        """The stored user, created or updated when Telegram shows a change (his language
        is Telegram's only when he is new)."""
        known = await self.load(person.id)
        name = clean(person.name) or person.username or str(person.id)
        changes: dict[str, Any] = {}
        if known is None or known.display_name != name:
            changes["display_name"] = name
        if known is None or known.username != person.username:
            changes["username"] = person.username
        if known is None:
            changes["language"] = self.normalize(person.language_code)
        if started is not None and (known is None or known.has_started_bot != started):
            changes["has_started_bot"] = started
        if changes:
            known = await self.store.chats.save_user(person.id, **changes)
            self.users[person.id] = known
        assert known is not None
        return known

    async def load(self, user_id: int) -> UserRow | None:
        """A stored user into the cache (read anew when ``shared``, once a unit of work)."""
        if user_id not in self.users or (self.shared and user_id not in self._fresh):
            await self._read(user_id)
        return self.users.get(user_id)

    async def _read(self, user_id: int) -> None:
        user = await self.store.chats.get_user(user_id)
        if user is not None:
            self.users[user_id] = user

    async def reread(self, user_ids: Iterable[int], chat_ids: Iterable[int],
                     read: tuple[Mapping[int, UserRow], Mapping[int, ChatRow]] | None = None
                     ) -> None:
        """Read anew the rows of these users and chats that are cached (another process may
        have changed them), all in one read; they are not read again in this unit of work.
        ``read``: the rows read already in the unit's transaction (with the claim of its
        update): taken instead, and only those users are not read again."""
        cached = set(chat_ids) & (self.chats.keys() | self.chat_languages.keys())
        if read is None:
            self._fresh = set(user_ids)
            read = await self.store.chats.get_many(self._fresh & self.users.keys(), cached)
        else:
            self._fresh = set(read[0])
        users, chats = read
        self.users.update(users)
        for chat_id in cached:
            row = self.chats[chat_id] = chats.get(chat_id)
            if row is not None and row.language is not None:
                self.chat_languages[chat_id] = row.language

    async def set_started(self, user_id: int, started: bool) -> None:
        user = self.users.get(user_id)
        if user is not None and user.has_started_bot != started:
            self.users[user_id] = await self.store.chats.save_user(
                user_id, has_started_bot=started)

    def warn(self, table_id: int, user_id: int) -> bool:
        """Whether the group of ``table_id`` is still to be told that ``user_id`` must open
        the bot (once, until he does)."""
        if (table_id, user_id) in self._warned:
            return False
        self._warned.add((table_id, user_id))
        return True

    def unwarn(self, user_id: int) -> None:
        self._warned = {(t, u) for t, u in self._warned if u != user_id}

    def name(self, user_id: int | None) -> str | None:
        user = self.users.get(user_id or 0)
        return user.display_name if user else None

    # -- languages ------------------------------------------------------------------------

    async def chat_language(self, chat_id: int, default: str | None = None) -> str:
        """A group's language (stored, or from now on ``default``'s)."""
        if chat_id not in self.chat_languages:
            row = await self.store.chats.get_chat(chat_id)
            if row is None or row.language is None:
                language = self.normalize(default)
                await self.store.chats.save_chat(chat_id, language=language)
            else:
                language = row.language
            self.chat_languages[chat_id] = language
        return self.chat_languages[chat_id]

    def language_of(self, chat_id: int) -> str:
        """The language of a chat: a group's, or in a private chat the user's."""
        if chat_id > 0:
            user = self.users.get(chat_id)
            return self.normalize(user.language if user else None)
        return self.chat_languages.get(chat_id, self.languages[0])

    async def set_language(self, chat_id: int, language: str) -> None:
        if chat_id < 0:
            await self.store.chats.save_chat(chat_id, language=language)
            self.chat_languages[chat_id] = language
        else:
            self.users[chat_id] = await self.store.chats.save_user(chat_id, language=language)

    # -- chats: time zone and quiet hours ---------------------------------------------------

    async def chat(self, chat_id: int) -> ChatRow | None:
        if chat_id not in self.chats:
            self.chats[chat_id] = await self.store.chats.get_chat(chat_id)
        return self.chats[chat_id]

    async def group_seen(self, chat_id: int, title: str | None, username: str | None) -> None:
        """A group as an update shows it: its title and public username are stored when they
        change (a player's panel links back to the group, or names it)."""
        known = await self.chat(chat_id)
        if known is None or (known.title, known.username) != (title, username):
            self.chats[chat_id] = await self.store.chats.save_chat(chat_id, title=title,
                                                                   username=username)

    def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        if old_chat_id in self.chat_languages:
            self.chat_languages[new_chat_id] = self.chat_languages.pop(old_chat_id)
        self.chats.pop(old_chat_id, None)
        self.chats.pop(new_chat_id, None)
