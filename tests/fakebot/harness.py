"""FakeTelegram: the fake Bot API server plus the people who use the bot.

Tests set up users and chats, make them act (messages, commands, button
presses, blocking the bot, group changes), then inspect what the bot did:
every message with its edit history, every API call. Actions that create
updates are plain methods returning what they created; what waits is async.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from tests.fakebot.errors import ApiError, too_many_requests
from tests.fakebot.flood import EDITS, SENDS, FloodLimits
from tests.fakebot.formatting import FormattedText, user_text
from tests.fakebot.methods.commands import command_menu, scope_key
from tests.fakebot.model import (
    ApiCall,
    CallbackAnswer,
    Chat,
    MemberStatus,
    Message,
    User,
)
from tests.fakebot.server import ApiServer
from tests.fakebot.world import DEFAULT_TOKEN, CallbackQuery, ForcedError, World

ChatLike = Chat | User  # a User stands for their private chat with the bot


class FakeTelegram:
    """A Bot API server on a loopback port, with simulated users, chats and time."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "cardtable_test_bot",
        bot_name: str = "Card Table",
        flood: FloodLimits | None = None,
        privacy_mode: bool = True,
        callback_timeout: float = 15.0,
        webhook_retry_delay: float = 0.2,
    ) -> None:
        self.world = World(
            token=token,
            bot_username=bot_username,
            bot_name=bot_name,
            flood=flood or FloodLimits(),
            privacy_mode=privacy_mode,
            callback_timeout=callback_timeout,
        )
        self.server = ApiServer(self.world, webhook_retry_delay=webhook_retry_delay)
        self._busy_checks: list[Callable[[], bool]] = []
        self._holders: list[Callable[[int | None], bool]] = []

    # lifecycle

    async def start(self) -> FakeTelegram:
        await self.server.start()
        return self

    async def stop(self) -> None:
        await self.server.stop()
        self._raise_crash()

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def window_speed(self) -> float:
        """How many times faster the chats' flood windows pass than Telegram's (1: as fast)."""
        return self.world.flood.limits.speed

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def base_url(self) -> str:
        """For ApplicationBuilder.base_url (the token is appended by PTB)."""
        return f"{self.server.root}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.server.root}/file/bot"

    # set-up

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
    ) -> User:
        """A person, with a private chat with the bot that they have not started yet."""
        user_id = user_id or self.world.next_id("user", start=100_000_001)
        if user_id in self.world.users or user_id == self.bot.id:
            raise ValueError(f"user id {user_id} is taken")
        user = User(user_id, first_name, username, last_name, language_code)
        self.world.users[user.id] = user
        self.world.chats[user.id] = Chat(user.id, "private", user=user, bot_status="left")
        return user

    def add_group(
        self,
        title: str,
        members: list[User],
        *,
        supergroup: bool = False,
        bot_status: MemberStatus = "member",
        forum: bool = False,
        username: str | None = None,
    ) -> Chat:
        """A group whose first member created it; the bot is already in it (no updates).
        ``forum``: a supergroup with topics (``add_topic``); ``username``: a public
        supergroup's."""
        supergroup = supergroup or forum or username is not None
        if supergroup:
            chat_id = -(10**12 + self.world.next_id("supergroup", start=2_000_000_001))
        else:
            chat_id = -self.world.next_id("group", start=4_000_000_001)
        roles: dict[User, MemberStatus] = dict.fromkeys(members, "member")
        if members:
            roles[members[0]] = "creator"
        chat = Chat(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            members=roles,
            bot_status=bot_status,
            is_forum=forum,
            username=username,
        )
        self.world.chats[chat.id] = chat
        return chat

    def open_link(self, user: User, url: str) -> Message:
        """The message a t.me message link opens for ``user``, as Telegram reads it:
        ``t.me/<group username>/<id>`` or ``t.me/c/<supergroup id without -100>/<id>``, in a
        forum topic ``.../<thread>/<id>``. Fails where Telegram would show nothing (no such
        message, deleted, another topic, a chat the user cannot read)."""
        found = re.fullmatch(r"https://t\.me/(?:c/(\d+)|([A-Za-z]\w+))(?:/(\d+))?/(\d+)", url)
        if found is None:
            raise ValueError(f"{url!r} is not a message link")
        number, name, thread, message_id = found.groups()
        chat = next((c for c in self.world.chats.values() if c.type == "supergroup" and (
            c.id == -(10**12 + int(number)) if number else c.username == name)), None)
        if chat is None or not chat.present(user):
            raise LookupError(f"{url!r}: no supergroup that {user} can read")
        message = self.world.message(chat, int(message_id))
        if message is None or message.deleted:
            raise LookupError(f"{url!r}: no such message")
        if message.thread_id != int(thread or 0):
            raise LookupError(f"{url!r}: message {message_id} is in topic {message.thread_id}")
        return message

    def add_topic(self, forum: Chat, name: str) -> int:
        """A new topic of a forum supergroup, made by its creator; returns its thread id
        (the id of the topic's service message, as in Telegram)."""
        if not forum.is_forum:
            raise ValueError(f"{forum} is not a forum")
        creator = next(user for user, status in forum.members.items() if status == "creator")
        created = self.world.post(forum, creator, FormattedText(""),
                                  service={"forum_topic_created": {"name": name,
                                                                   "icon_color": 7322096}})
        created.thread_id = created.message_id
        forum.topics[created.message_id] = name
        return created.message_id

    def topic_messages(self, forum: Chat, thread_id: int) -> list[Message]:
        """The messages of one topic (0: those outside any topic, the General topic)."""
        return [m for m in self.messages(forum) if m.thread_id == thread_id]

    def private_chat(self, user: User) -> Chat:
        return self.world.chats[user.id]

    def _chat(self, chat: ChatLike) -> Chat:
        return self.private_chat(chat) if isinstance(chat, User) else chat

    def _chat_id(self, chat: ChatLike | int | None) -> int | None:
        return chat if isinstance(chat, int) or chat is None else self._chat(chat).id

    # actions that create updates

    def send(
        self,
        user: User,
        chat: ChatLike,
        text: str,
        *,
        reply_to: Message | None = None,
        topic: int = 0,
    ) -> Message:
        """The user writes in a chat (``topic``: in that forum topic); commands get
        bot_command entities. In a private chat "/start ..." also starts the bot (as the
        Start button does)."""
        chat = self._chat(chat)
        if chat.migrated_to is not None:
            raise ValueError(f"{chat} became the supergroup {chat.migrated_to.id}")
        if not chat.present(user):
            raise ValueError(f"{user} is not in {chat}")
        if not chat.is_group:
            if chat.bot_status == "kicked":
                raise ValueError(f"{user} blocked the bot: use unblock() or press_start()")
            if chat.bot_status == "left":
                if not text.startswith("/start"):
                    raise ValueError(f"{user} has not started the bot: use press_start()")
                chat.bot_status = "member"
        if topic and topic not in chat.topics:
            raise ValueError(f"{chat} has no topic {topic}")
        message = self.world.post(chat, user, user_text(text), reply_to=reply_to,
                                  thread_id=topic or (reply_to.thread_id if reply_to else 0))
        self._deliver(message)
        return message

    def press_start(self, user: User, payload: str | None = None) -> Message:
        """The Start (or Restart, after a block) button of the bot's private chat."""
        if self.private_chat(user).bot_status == "kicked":
            self.unblock(user)
        return self.send(user, user, f"/start {payload}" if payload else "/start")

    def follow(self, user: User, url: str) -> Message:
        """The user opens a t.me/<bot>?start=PAYLOAD link (a URL button or a callback answer)."""
        payload = self.world.start_payload(url)
        if payload is None:
            raise ValueError(f"{url!r} is not a start link of @{self.bot.username}")
        return self.press_start(user, payload)

    def press_nowait(
        self,
        user: User,
        message: Message,
        *,
        text: str | None = None,
        data: str | None = None,
        forge: bool = False,
    ) -> CallbackQuery:
        """The user presses an inline button, found by label or callback data. `forge`
        sends `data` whatever the keyboard holds (a stale or forged press)."""
        if message.deleted:
            raise ValueError(f"{message} was deleted")
        if not message.chat.present(user):
            raise ValueError(f"{user} cannot see {message}")
        if forge:
            if data is None:
                raise ValueError("a forged press needs data")
        else:
            button = message.button(text=text, data=data)
            if "callback_data" not in button:
                raise ValueError(f"{button} is not a callback button (follow() opens URLs)")
            data = button["callback_data"]
        chat = message.chat
        query = CallbackQuery(
            str(self.world.next_id("callback", start=4_200_000_000_000_000_001)),
            user,
            message,
            data,
            self.world.now(),
        )
        self.world.callback_queries[query.id] = query
        self.world.enqueue(
            "callback_query",
            {
                "id": query.id,
                "from": user.api(),
                "message": message.api(),
                "chat_instance": str(chat.id * 7_919 % 10**18),
                "data": data,
            },
        )
        return query

    async def press(
        self,
        user: User,
        message: Message,
        *,
        text: str | None = None,
        data: str | None = None,
        forge: bool = False,
        timeout: float = 5.0,
    ) -> CallbackAnswer:
        """Press a button and return the bot's answerCallbackQuery."""
        query = self.press_nowait(user, message, text=text, data=data, forge=forge)
        return await self.answer_to(query, timeout=timeout)

    async def answer_to(self, query: CallbackQuery, *, timeout: float = 5.0) -> CallbackAnswer:
        await asyncio.wait({query.answer}, timeout=timeout)
        if not query.answer.done():
            self._raise_crash()
            raise AssertionError(
                f"the bot did not answer {query.user}'s press {query.data!r} within {timeout} s"
            )
        return query.answer.result()

    def block(self, user: User) -> None:
        """The user blocks the bot (my_chat_member: kicked)."""
        self.world.my_chat_member(self.private_chat(user), user, "kicked")

    def unblock(self, user: User) -> None:
        self.world.my_chat_member(self.private_chat(user), user, "member")

    def add_bot(self, group: Chat, by: User) -> Message:
        """A member adds the bot to a group: my_chat_member, then the service message."""
        self.world.my_chat_member(group, by, "member")
        bot = self.bot.api()
        return self._service(group, by, {"new_chat_members": [bot]})

    def remove_bot(self, group: Chat, by: User) -> None:
        """A member removes the bot from a group (my_chat_member: kicked)."""
        self.world.my_chat_member(group, by, "kicked")

    def join(self, group: Chat, user: User) -> Message:
        """A user joins a group (the new_chat_members service message)."""
        group.members[user] = "member"
        return self._service(group, user, {"new_chat_members": [user.api()]})

    def leave(self, group: Chat, user: User) -> Message:
        """A user leaves a group (the left_chat_member service message)."""
        group.members[user] = "left"
        return self._service(group, user, {"left_chat_member": user.api()})

    def migrate(self, group: Chat) -> Chat:
        """The group becomes a supergroup with a new id; the old id answers migrate_to_chat_id."""
        if group.type != "group" or group.migrated_to is not None:
            raise ValueError(f"{group} is not a basic group")
        supergroup = self.add_group(
            group.title or "", [], supergroup=True, bot_status=group.bot_status
        )
        supergroup.members = dict(group.members)
        creator = next(user for user, status in group.members.items() if status == "creator")
        group.migrated_to = supergroup
        self._service(supergroup, creator, {"migrate_from_chat_id": group.id})
        self._service(group, creator, {"migrate_to_chat_id": supergroup.id})
        return supergroup

    def _service(self, chat: Chat, actor: User, fields: dict[str, Any]) -> Message:
        message = self.world.post(chat, actor, FormattedText(""), service=fields)
        self._deliver(message)
        return message

    def _deliver(self, message: Message) -> None:
        if self.world.bot_sees(message):
            self.world.enqueue("message", message.api())

    # time and faults

    def advance(self, seconds: float) -> None:
        """Move the server's clock on: callback queries expire, messages age, windows pass."""
        self.world.clock_offset += seconds

    def force_error(
        self,
        error: ApiError,
        *,
        times: int = 1,
        method: str | None = None,
        chat: ChatLike | int | None = None,
    ) -> None:
        """Answer the next `times` matching calls with this error."""
        self.world.forced.append(ForcedError(error, times, method, self._chat_id(chat)))

    def force_retry_after(
        self,
        seconds: int,
        *,
        times: int = 1,
        method: str | None = None,
        chat: ChatLike | int | None = None,
    ) -> None:
        """Answer the next matching calls with 429 Too Many Requests: retry after N."""
        self.force_error(too_many_requests(seconds), times=times, method=method, chat=chat)

    # inspection

    @property
    def calls(self) -> list[ApiCall]:
        """Every request received, in order (getUpdates included)."""
        return self.world.calls

    def calls_for(
        self, method: str | None = None, chat: ChatLike | int | None = None
    ) -> list[ApiCall]:
        chat_id = self._chat_id(chat)
        return [
            call
            for call in self.world.calls
            if (method is None or call.method.lower() == method.lower())
            and (chat_id is None or call.chat_id == chat_id)
        ]

    def peak_rate(
        self, chat: ChatLike, *, period: float = 60.0, methods: frozenset[str] = SENDS | EDITS
    ) -> int:
        """The most successful calls of `methods` to a chat within any `period` seconds,
        e.g. a group's peak messages plus edits a minute."""
        times = [
            c.time for c in self.calls_for(chat=chat) if c.method in methods and c.status == 200
        ]
        peak = first = 0
        for last, moment in enumerate(times):
            while moment - times[first] >= period:
                first += 1
            peak = max(peak, last - first + 1)
        return peak

    def messages(self, chat: ChatLike, *, include_deleted: bool = False) -> list[Message]:
        found = self.world.chat_messages.get(self._chat(chat).id, [])
        return [m for m in found if include_deleted or not m.deleted]

    def last_message(self, chat: ChatLike, *, sender: User | None = None) -> Message:
        """The latest message of `sender` (default: the bot) in a chat."""
        sender = sender or self.bot
        for message in reversed(self.messages(chat)):
            if message.sender is sender:
                return message
        raise LookupError(f"no message from {sender} in {self._chat(chat)}")

    def texts(self, chat: ChatLike) -> list[str]:
        """Every text, caption and button label ever shown in a chat, edits and
        deleted messages included."""
        return [
            shown
            for message in self.messages(chat, include_deleted=True)
            for revision in message.revisions
            for shown in [revision.content.text, *_labels(revision.reply_markup)]
            if shown
        ]

    def seen_by(self, user: User) -> list[str]:
        """Everything shown to a user: the texts of the chats they are in, and the
        bot's answers to their presses."""
        chats = [chat for chat in self.world.chats.values() if chat.present(user)]
        answers = [a.text for who, a in self.world.answers if who is user and a.text]
        return [text for chat in chats for text in self.texts(chat)] + answers

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        """What setMyCommands stored for exactly this scope and language."""
        return self.world.commands.get((scope_key(self.world, scope), language_code), [])

    def command_menu(self, user: User, chat: ChatLike) -> list[dict[str, str]]:
        """The command menu the user's client shows in that chat."""
        return command_menu(self.world, user, self._chat(chat))

    # waiting

    def watch(self, busy: Callable[[], bool]) -> Callable[[], None]:
        """Make idle() also wait while `busy()` is true; returns the undo."""
        self._busy_checks.append(busy)
        return lambda: self._busy_checks.remove(busy)

    def watch_chats(self, holds: Callable[[int | None], bool]) -> Callable[[], None]:
        """Make settled() also wait while ``holds(chat_id)`` is true (the bot holds something
        back for that chat, e.g. a group's paced edits; None: for any chat); returns the
        undo."""
        self._holders.append(holds)
        return lambda: self._holders.remove(holds)

    async def settled(self, chat: ChatLike | None = None, *, timeout: float = 70.0) -> None:
        """Idle, and nothing held back for this chat (None: for any chat) any more: what it
        shows is the latest, including a change let wait because its reader need not see it
        at once (a group's paced edit may take its share of the minute: the timeout is long)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        chat_id = None if chat is None else self._chat(chat).id
        while True:
            await self.idle(timeout=timeout)
            if not any(holds(chat_id) for holds in self._holders):
                return
            if loop.time() >= deadline:
                where = "the bot" if chat is None else self._chat(chat)
                raise AssertionError(f"{where} is still waiting after {timeout} s")
            await asyncio.sleep(0.02)

    async def idle(self, *, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Wait until every update was fetched (or delivered), no request is in
        flight, watched work is done and the bot made no call for `quiet` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (reason := self._busy(loop.time(), quiet)) is not None:
            if loop.time() >= deadline:
                raise AssertionError(f"the bot is not idle after {timeout} s: {reason}")
            await asyncio.sleep(0.01)

    def _busy(self, now: float, quiet: float) -> str | None:
        self._raise_crash()
        server = self.server
        if self.world.pending:
            kinds = [next(iter(u.payload)) for u in self.world.pending]
            return f"{len(kinds)} updates not taken by the bot: {kinds}"
        if server.in_flight or server.delivering:
            return f"{server.in_flight} requests in flight"
        if any(busy() for busy in self._busy_checks):
            return "watched work is still busy"
        if now - server.last_activity < quiet:
            return "the bot made a call moments ago"
        return None

    def _raise_crash(self) -> None:
        if self.server.crashes:
            raise RuntimeError("the fake Bot API crashed") from self.server.crashes[0]


def _labels(markup: dict[str, Any] | None) -> list[str]:
    rows = (markup or {}).get("inline_keyboard") or (markup or {}).get("keyboard") or []
    return [b["text"] if isinstance(b, dict) else str(b) for row in rows for b in row]
