"""Driving scorekept tables through the real bot: lobby, entry buttons, commands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.tables import Table
from bot.telegram.context import BotData as Hub
from engine.records import replay
from tests.fakebot import FakeTelegram, Message, User
from tests.fakebot.keyboards import inline_buttons
from tests.fakebot.model import Chat


def table_message(tg: FakeTelegram, group: Chat) -> Message:
    """A scorekept table's group message: the bot's latest with lobby or scorekeeper buttons,
    or the link that opens the entry."""
    for message in reversed(tg.messages(group)):
        if message.sender is tg.bot and _is_table_message(message):
            return message
    raise LookupError("no table message")


def entry_message(tg: FakeTelegram, user: User, table_id: int = 0) -> Message | None:
    """The entry message of a scorekept table (0: any) in ``user``'s private chat: the bot's
    latest that showed the entry's buttons or its link (None: none yet)."""
    for message in reversed(tg.messages(tg.private_chat(user))):
        if message.sender is tg.bot and any(
                _entry_buttons(inline_buttons(revision.reply_markup), table_id)
                for revision in message.revisions):
            return message
    return None


@dataclass
class Keeping:
    """A group keeping score at one table, and who presses."""

    tg: FakeTelegram
    hub: Hub
    group: Chat
    user: User  # presses the entry buttons and sends the commands
    table_id: int = 0  # known once started: the table may then leave the hub (game over)

    @property
    def table(self) -> Table:
        return next(t for t in self.hub.services.tables.values() if t.chat_id == self.group.id)

    def message(self) -> Message:
        """The message the keeper presses: the lobby in the group, once the game started his
        entry message in private (opened with the group message's link if it is not yet)."""
        if not self.table_id:
            return self.group_message()
        entry = entry_message(self.tg, self.user, self.table_id)
        assert entry is not None, "the entry is not open: await keeping.open()"
        return entry

    async def settled(self) -> None:
        """The group and the keeper's private chat show what the bot has to show."""
        await self.tg.settled(self.group)
        await self.tg.settled(self.user)

    def group_message(self) -> Message:
        return table_message(self.tg, self.group)

    async def open(self, user: User | None = None) -> Message:
        """Follow the group message's "✏️ Enter deal N" link: the entry in private."""
        user = user or self.user
        link = next(b["url"] for b in self.group_message().buttons
                    if "?start=k" in b.get("url", ""))
        self.tg.follow(user, link)
        await self.settled()
        await self.tg.settled(user)
        entry = entry_message(self.tg, user, self.table_id)
        assert entry is not None
        return entry

    def labels(self) -> list[str]:
        return [b["text"] for b in self.message().buttons]

    async def press(self, label: str, user: User | None = None) -> str:
        """Press the button with this label; the bot's answer (an alert's text, or "")."""
        answer = await self.tg.press(user or self.user, self.message(), text=label)
        await self.settled()
        return answer.text or ""

    async def tap(self, *labels: str) -> None:
        """Press each label in turn; fails if the bot refuses one."""
        for label in labels:
            message = self.message()
            assert label in [b["text"] for b in message.buttons], (label, message.button_texts)
            answer = await self.tg.press(self.user, message, text=label)
            assert not answer.show_alert, (label, answer.text)
            await self.settled()

    async def send(self, text: str, user: User | None = None) -> str:
        """Send a message in the group; the texts of the bot's messages after it ("": none),
        its replies before the table's renewed message (a paced group may post them in
        either order)."""
        sent = self.tg.send(user or self.user, self.group, text)
        await self.settled()
        after = [m for m in self.tg.messages(self.group)
                 if m.sender is self.tg.bot and m.message_id > sent.message_id]
        return "\n\n".join(m.text for m in sorted(after, key=_is_table_message))

    async def stored(self) -> Any:
        """The table's match as its stored record replays."""
        return replay(await self.hub.services.store.log.record(self.table_id))


def _is_table_message(message: Message) -> bool:
    return any(b.get("callback_data", "")[:2] in ("k:", "l:") for b in message.buttons) \
        or _entry_buttons(message.buttons)


def _entry_buttons(buttons: list[dict[str, Any]], table_id: int = 0) -> bool:
    """The entry's buttons, or the link that opens it (of table ``table_id``; 0: any)."""
    data, link = (f"k:{table_id}:", f"?start=k{table_id}") if table_id else ("k:", "?start=k")
    return any(b.get("callback_data", "").startswith(data) or link in b.get("url", "")
               for b in buttons)


async def keeping_lobby(tg: FakeTelegram, hub: Hub, group: Chat, creator: User, *,
                        command: str = "/pref") -> Keeping:
    """A lobby opened by ``creator`` and switched to keeping score."""
    tg.send(creator, group, command)
    await tg.settled(group)
    keeping = Keeping(tg, hub, group, creator)
    await keeping.tap("📝 Keep score only (real cards)")
    return keeping


async def open_keeping(tg: FakeTelegram, hub: Hub, group: Chat, creator: User, *,
                       command: str = "/pref", joiners: tuple[User, ...] = (),
                       guests: tuple[str, ...] = (), options: tuple[str, ...] = (),
                       conventions: tuple[str, ...] = (), private: bool = True) -> Keeping:
    """Open a lobby, switch it to keeping score, press each option button (by the start of
    its label, once per mention), seat the Telegram users then the guests, and start; then
    (``private``) open the entry in the creator's private chat."""
    keeping = await keeping_lobby(tg, hub, group, creator, command=command)
    for prefix in options:
        await keeping.tap(next(t for t in keeping.labels() if t.startswith(prefix)))
    if conventions:
        await keeping.tap("⚙ Conventions")
        for prefix in conventions:
            await keeping.tap(next(t for t in keeping.labels() if t.startswith(prefix)))
        await keeping.tap("« Back")
    for user in joiners:
        answer = await tg.press(user, keeping.message(), text="✋ Join")
        assert not answer.show_alert, answer.text
        await tg.settled(group)
    if guests:
        await keeping.send("/add " + ", ".join(guests))
    await keeping.tap("▶ Start")
    keeping.table_id = keeping.table.id
    if private:
        await keeping.open()
    return keeping
