"""The state of the simulated Telegram and the rules both the API and the harness use."""

from __future__ import annotations

import asyncio
import io
import re
import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from tests.fakebot.errors import (
    CHAT_NOT_FOUND,
    NOT_MODIFIED,
    ApiError,
    bad_request,
    chat_migrated,
    forbidden,
)
from tests.fakebot.flood import FloodControl, FloodLimits
from tests.fakebot.formatting import FormattedText
from tests.fakebot.model import (
    ApiCall,
    CallbackAnswer,
    Chat,
    MemberStatus,
    Message,
    Revision,
    StoredFile,
    User,
    member_api,
)
from tests.fakebot.params import UploadedFile

DEFAULT_TOKEN = "123456789:AAF4ke-T0ken_for-the-fake-Bot-API-srv"
UPDATE_KINDS = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post", "inline_query",
        "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
        "poll", "poll_answer", "my_chat_member", "chat_member", "chat_join_request",
        "message_reaction", "message_reaction_count", "chat_boost", "removed_chat_boost",
    }
)  # fmt: skip
DEFAULT_UPDATES = UPDATE_KINDS - {"chat_member", "message_reaction", "message_reaction_count"}
DELETE_WINDOW = 48 * 3600
_COMMAND = re.compile(r"/[A-Za-z0-9_]+(?:@(\w+))?")
_START_LINK = re.compile(
    r"(?:https?://)?(?:t|telegram)\.me/(?P<bot>[A-Za-z0-9_]+)\?start=(?P<payload>[A-Za-z0-9_-]{1,64})"
)


class Signal:
    """Wakes every waiter when something changed (no lock needed to notify)."""

    def __init__(self) -> None:
        self._future: asyncio.Future[None] | None = None

    def notify(self) -> None:
        if self._future is not None and not self._future.done():
            self._future.set_result(None)
        self._future = None

    async def wait(self, timeout: float) -> None:
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
        await asyncio.wait({self._future}, timeout=timeout)


@dataclass
class PendingUpdate:
    update_id: int
    payload: dict[str, Any]

    def api(self) -> dict[str, Any]:
        return {"update_id": self.update_id, **self.payload}


@dataclass
class Webhook:
    url: str = ""
    secret_token: str | None = None
    max_connections: int = 40
    ip_address: str | None = None
    last_error_date: int | None = None
    last_error_message: str | None = None


@dataclass(eq=False)
class CallbackQuery:
    id: str
    user: User
    message: Message
    data: str
    created: float
    answer: asyncio.Future[CallbackAnswer] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class ForcedError:
    error: ApiError
    times: int
    method: str | None
    chat_id: int | None

    def matches(self, method: str, chat_id: object) -> bool:
        return (self.method is None or self.method.lower() == method.lower()) and (
            self.chat_id is None or self.chat_id == chat_id
        )


class World:
    """Everything the server knows. Methods here raise the real API's errors."""

    def __init__(
        self,
        *,
        token: str,
        bot_username: str,
        bot_name: str,
        flood: FloodLimits,
        privacy_mode: bool,
        callback_timeout: float,
    ) -> None:
        self.token = token
        self.bot = User(int(token.split(":")[0]), bot_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.callback_timeout = callback_timeout
        self.clock_offset = 0.0
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.chat_messages: dict[int, list[Message]] = {}
        self._messages: dict[tuple[int, int], Message] = {}
        self._counters: dict[str, int] = {}
        self.pending: list[PendingUpdate] = []
        self.allowed_updates: frozenset[str] = DEFAULT_UPDATES
        self.updates_signal = Signal()
        self.webhook = Webhook()
        self.commands: dict[tuple[tuple[Any, ...], str], list[dict[str, str]]] = {}
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.answers: list[tuple[User, CallbackAnswer]] = []
        self.files: dict[str, StoredFile] = {}
        self.calls: list[ApiCall] = []
        self.flood = FloodControl(flood)
        self.forced: list[ForcedError] = []
        self.poller: object | None = None
        self.closed = False

    def now(self) -> float:
        return time.time() + self.clock_offset

    def flood_now(self) -> float:
        """The flood windows' clock: monotonic (a test that freezes the wall clock with
        time-machine does not freeze Telegram's limits), moved on by ``advance`` too."""
        return time.monotonic() + self.clock_offset

    def next_id(self, counter: str, start: int = 1) -> int:
        self._counters[counter] = self._counters.get(counter, start - 1) + 1
        return self._counters[counter]

    # chats and messages

    def chat(self, chat_id: object, *, write: bool) -> Chat:
        """The chat the bot addresses, or the error the server answers.

        `write`: the bot sends or edits there (private chats need Start, no block).
        """
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise bad_request(CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise chat_migrated(chat.migrated_to.id)
        if chat.is_group:
            if chat.bot_status == "kicked":
                raise forbidden(f"bot was kicked from the {chat.type} chat")
            if chat.bot_status == "left":
                raise forbidden(f"bot is not a member of the {chat.type} chat")
        elif write and chat.bot_status == "kicked":
            raise forbidden("bot was blocked by the user")
        elif write and chat.bot_status == "left":
            raise forbidden("bot can't initiate conversation with a user")
        return chat

    def message(self, chat: Chat, message_id: int | None) -> Message | None:
        message = self._messages.get((chat.id, message_id or 0))
        return None if message is None or message.deleted else message

    def post(
        self,
        chat: Chat,
        sender: User,
        content: FormattedText,
        reply_markup: dict[str, Any] | None = None,
        *,
        file: StoredFile | None = None,
        service: dict[str, Any] | None = None,
        reply_to: Message | None = None,
        thread_id: int = 0,
    ) -> Message:
        # a supergroup numbers its own messages; private chats and groups share one box
        message_id = self.next_id(f"messages of {chat.id}" if chat.type == "supergroup" else "box")
        date = int(self.now())
        if thread_id and reply_to is None:  # as Telegram: a topic's message replies to its root
            reply_to = self._messages.get((chat.id, thread_id))
        message = Message(
            chat,
            message_id,
            sender,
            date,
            [Revision(content, reply_markup, date)],
            file=file,
            service=service or {},
            reply_to=reply_to,
            thread_id=thread_id,
        )
        self.chat_messages.setdefault(chat.id, []).append(message)
        self._messages[(chat.id, message_id)] = message
        return message

    def topic(self, chat: Chat, thread_id: object) -> int:
        """The forum topic a bot's message goes to (0: none), or the server's refusal."""
        if not thread_id:
            return 0
        if not isinstance(thread_id, int) or not chat.is_forum or thread_id not in chat.topics:
            raise bad_request("message thread not found")
        return thread_id

    def edit(
        self, message: Message, content: FormattedText, reply_markup: dict[str, Any] | None
    ) -> None:
        current = message.current
        if content == current.content and reply_markup == current.reply_markup:
            raise bad_request(NOT_MODIFIED)
        message.revisions.append(Revision(content, reply_markup, int(self.now())))

    def resolve_mentions(self, content: FormattedText) -> FormattedText:
        """Fill text_mention entities with the full user, as the server returns them."""
        for entity in content.entities:
            if entity["type"] == "text_mention":
                mentioned = entity.get("user")
                user_id = mentioned.get("id") if isinstance(mentioned, dict) else None
                user = self.users.get(user_id) if isinstance(user_id, int) else None
                if user is None:
                    raise bad_request("can't parse entities: user not found")
                entity["user"] = user.api()
        return content

    def store_file(self, upload: UploadedFile, kind: str) -> StoredFile:
        n = self.next_id("file")
        width = height = 0
        if kind == "photo":
            try:
                width, height = Image.open(io.BytesIO(upload.data)).size
            except UnidentifiedImageError:
                raise bad_request("IMAGE_PROCESS_FAILED") from None
        folder = "photos" if kind == "photo" else "documents"
        suffix = upload.filename.rpartition(".")[2] if "." in upload.filename else "dat"
        stored = StoredFile(
            file_id=f"FAKE{kind.upper()}{n:06d}",
            file_unique_id=f"U{n:06d}",
            kind=kind,
            file_name=upload.filename,
            mime_type=upload.content_type,
            data=upload.data,
            file_path=f"{folder}/file_{n}.{suffix}",
            width=width,
            height=height,
        )
        self.files[stored.file_id] = stored
        return stored

    # updates

    def enqueue(self, kind: str, payload: dict[str, Any]) -> None:
        """Queue an update for the bot, unless its allowed_updates exclude the kind."""
        if kind in self.allowed_updates:
            self.pending.append(PendingUpdate(self.next_id("update"), {kind: payload}))
            self.updates_signal.notify()

    def confirm(self, offset: int) -> None:
        """getUpdates' offset: forget confirmed updates (negative: keep the last -offset)."""
        if offset < 0:
            del self.pending[: max(len(self.pending) + offset, 0)]
        elif offset:
            self.pending = [u for u in self.pending if u.update_id >= offset]

    def bot_sees(self, message: Message) -> bool:
        """Whether a user's message reaches the bot (privacy mode in groups)."""
        chat = message.chat
        if not chat.is_group:
            return chat.bot_status == "member"
        if chat.bot_status not in ("member", "administrator"):
            return False
        if message.service or not self.privacy_mode or chat.bot_status == "administrator":
            return True
        command = _COMMAND.match(message.text)  # "/cmd" or "/cmd@this_bot", any case
        if command and (command.group(1) or "").lower() in ("", str(self.bot.username).lower()):
            return True
        return message.reply_to is not None and message.reply_to.sender is self.bot

    def my_chat_member(self, chat: Chat, actor: User, new_status: MemberStatus) -> None:
        """Change the bot's membership in a chat and tell the bot."""
        old = member_api(self.bot, chat.bot_status)
        chat.bot_status = new_status
        self.enqueue(
            "my_chat_member",
            {
                "chat": chat.api(),
                "from": actor.api(),
                "date": int(self.now()),
                "old_chat_member": old,
                "new_chat_member": member_api(self.bot, chat.bot_status),
            },
        )

    def start_payload(self, url: str) -> str | None:
        """The payload of a t.me/<this bot>?start=... deep link, None for any other URL."""
        match = _START_LINK.fullmatch(url)
        if match is None or match.group("bot").lower() != (self.bot.username or "").lower():
            return None
        return match.group("payload")
