"""Users, chats and messages of the simulated Telegram, and their Bot API shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tests.fakebot.formatting import FormattedText
from tests.fakebot.keyboards import inline_buttons

ChatType = Literal["private", "group", "supergroup"]
MemberStatus = Literal["creator", "administrator", "member", "left", "kicked"]
PRESENT: frozenset[str] = frozenset({"creator", "administrator", "member"})
_ADMIN_RIGHTS = (
    "can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
    "can_manage_video_chats", "can_restrict_members", "can_promote_members", "can_change_info",
    "can_invite_users", "can_post_stories", "can_edit_stories", "can_delete_stories",
)  # fmt: skip


@dataclass(eq=False)
class User:
    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    def __repr__(self) -> str:
        return f"User({self.id}, {self.first_name!r})"


def member_api(user: User, status: MemberStatus) -> dict[str, Any]:
    """A ChatMember object of the given status."""
    out: dict[str, Any] = {"status": status, "user": user.api()}
    if status == "creator":
        out["is_anonymous"] = False
    elif status == "administrator":
        out.update(
            dict.fromkeys(_ADMIN_RIGHTS, False),
            can_manage_chat=True,
            can_delete_messages=True,
            can_invite_users=True,
        )
    elif status == "kicked":
        out["until_date"] = 0
    return out


@dataclass(eq=False)
class Chat:
    """A chat as the bot sees it. For a private chat `user` is the person.

    `bot_status` is the bot's membership: in a private chat "left" until the user
    presses Start, "member" after, "kicked" while the user blocks the bot.
    """

    id: int
    type: ChatType
    title: str | None = None
    user: User | None = None
    members: dict[User, MemberStatus] = field(default_factory=dict)
    bot_status: MemberStatus = "member"
    migrated_to: Chat | None = None
    is_forum: bool = False
    topics: dict[int, str] = field(default_factory=dict)  # forum topics: thread id -> name
    pinned: list[int] = field(default_factory=list)  # pinned message ids, latest last
    username: str | None = None  # a public supergroup's username

    @property
    def is_group(self) -> bool:
        return self.type != "private"

    def api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.user is not None:
            out.update(
                {
                    k: v
                    for k, v in self.user.api().items()
                    if k in ("first_name", "last_name", "username")
                }
            )
        else:
            out["title"] = self.title
            if self.username is not None:
                out["username"] = self.username
        if self.is_forum:
            out["is_forum"] = True
        return out

    def full_api(self) -> dict[str, Any]:
        """The ChatFullInfo answer of getChat."""
        gift_flags = (
            "unlimited_gifts",
            "limited_gifts",
            "unique_gifts",
            "premium_subscription",
            "gifts_from_channels",
        )
        return {
            **self.api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(gift_flags, False),
        }

    def present(self, user: User) -> bool:
        """Whether the user can read this chat now."""
        return self.user is user if self.user else self.members.get(user) in PRESENT

    def __repr__(self) -> str:
        return f"Chat({self.id}, {self.type}, {self.title or self.user!r})"


@dataclass(frozen=True)
class StoredFile:
    """A file the bot uploaded, with its bytes."""

    file_id: str
    file_unique_id: str
    kind: str  # "document" | "photo"
    file_name: str
    mime_type: str
    data: bytes
    file_path: str
    width: int = 0
    height: int = 0

    def api(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
        }
        if self.kind == "photo":
            return {**out, "width": self.width, "height": self.height}
        return {**out, "file_name": self.file_name, "mime_type": self.mime_type}


@dataclass(frozen=True)
class Revision:
    """One state of a message: text (or caption) and inline keyboard, from `date` on."""

    content: FormattedText
    reply_markup: dict[str, Any] | None
    date: int


@dataclass(eq=False)
class Message:
    chat: Chat
    message_id: int
    sender: User
    date: int
    revisions: list[Revision]
    file: StoredFile | None = None
    service: dict[str, Any] = field(default_factory=dict)
    reply_to: Message | None = None
    deleted: bool = False
    thread_id: int = 0  # the forum topic (0: none)

    @property
    def current(self) -> Revision:
        return self.revisions[-1]

    @property
    def text(self) -> str:
        """The current text, or caption for a file."""
        return self.current.content.text

    @property
    def reply_markup(self) -> dict[str, Any] | None:
        return self.current.reply_markup

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """The buttons of the current inline keyboard, row by row."""
        return inline_buttons(self.reply_markup)

    @property
    def button_texts(self) -> list[str]:
        return [button["text"] for button in self.buttons]

    @property
    def edited(self) -> bool:
        return len(self.revisions) > 1

    def button(self, *, text: str | None = None, data: str | None = None) -> dict[str, Any]:
        """The one current button with this label or callback data."""
        found = [
            b
            for b in self.buttons
            if (text is None or b["text"] == text)
            and (data is None or b.get("callback_data") == data)
        ]
        if len(found) != 1:
            wanted = f"text={text!r}" if text is not None else f"data={data!r}"
            raise LookupError(
                f"{len(found)} buttons with {wanted} on message {self.message_id} in {self.chat}; "
                f"buttons: {[(b['text'], b.get('callback_data')) for b in self.buttons]}"
            )
        return found[0]

    def api(self, *, with_reply: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.api(),
            "from": self.sender.api(),
        }
        if self.thread_id:
            out["message_thread_id"] = self.thread_id
            out["is_topic_message"] = True
        if self.edited:
            out["edit_date"] = self.current.date
        if self.file is not None:
            if self.file.kind == "photo":
                out["photo"] = [self.file.api()]
            else:
                out["document"] = self.file.api()
            if self.text:
                out.update(self.current.content.api("caption", "caption_entities"))
        elif self.text:
            out.update(self.current.content.api())
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            out["reply_markup"] = self.reply_markup
        if with_reply and self.reply_to is not None and not self.reply_to.deleted:
            out["reply_to_message"] = self.reply_to.api(with_reply=False)
        out.update(self.service)
        return out

    def __repr__(self) -> str:
        return f"Message({self.message_id} in {self.chat.id}, {self.text[:40]!r})"


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a button press (answerCallbackQuery)."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(eq=False)
class ApiCall:
    """One request the bot made: method, decoded parameters, and the outcome."""

    method: str
    params: dict[str, Any]
    chat_id: int | str | None
    time: float
    status: int = 0  # 0 while in flight, then the HTTP status
    description: str | None = None
