"""What a screen reads besides the table and the language: names, links, the chat's clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape

from bot.games import PLUGINS
from bot.games.base import GamePlugin
from bot.service.tables import Table, gives_hints
from bot.ui.callbacks import pack
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Button
from storage.rows import ChatRow, UserRow


@dataclass(frozen=True)
class AppLinks:
    """Where the Mini App (``url``) opens a table: from a private panel's ``web_app`` button,
    or from the group through the bot's Main Mini App (``web_app`` buttons work only in
    private chats); the table id travels as ``start_param``."""

    url: str
    username: str

    def panel(self, table_id: int) -> str:
        return f"{self.url}{'&' if '?' in self.url else '?'}table={table_id}"

    def group(self, table_id: int) -> str:
        return f"https://t.me/{self.username}?startapp={table_id}"


@dataclass(frozen=True)
class Look:
    """``users``: the known users (display names); ``link``: the bot's deep link for a
    payload (``t.me/<bot>?start=...``); ``chat``: the table's chat (its time zone, a
    group's title); ``now``: the moment drawn (Unix seconds); ``app``: the Mini App's links
    (None: off); ``table_link``: a link that opens the group's table message (None: the
    group's messages cannot be linked)."""

    users: Mapping[int, UserRow]
    link: Callable[[str], str]
    chat: ChatRow | None = None
    now: float = 0.0
    app: AppLinks | None = None
    table_link: str | None = None

    def user_name(self, user_id: int | None) -> str:
        """A user's name for HTML ("?" when unknown)."""
        user = self.users.get(user_id or 0)
        return escape(user.display_name) if user else "?"


def way_to_group(tr: Translate, look: Look) -> list[str]:
    """Where a private message's reader finds the group's table message: a link where the
    group's messages have links, else the group's name."""
    if look.table_link is not None:
        return [tr('↩ <a href="{link}">Back to the table</a>', link=look.table_link)]
    title = look.chat.title if look.chat is not None else None
    return [tr("↩ The table is in the group «{group}».", group=escape(title))] if title else []


def plugin_of(table: Table) -> GamePlugin:
    return PLUGINS[table.game]


def title(game: str, tr: Translate) -> str:
    """A game kind's name in the reader's language."""
    plugin = PLUGINS.get(game)
    return tr(plugin.title) if plugin is not None else game.capitalize()


def context(table: Table, tr: Translate, seat: int | None = None) -> RenderContext:
    """What a game's screens need beside the view: names, rules, language, the version
    buttons carry, the seat's picks."""
    match = table.match
    selection = table.selection.get(seat, frozenset()) if seat is not None else frozenset()
    version = match.version if match else 0
    asked = table.hints.get(seat) if seat is not None else None
    return RenderContext(table.id, table.names, table.rules, match.deal_count if match else 0,
                         tr, version, selection,
                         tuple(table.user_of(s) for s in range(len(table.names))),
                         hints=gives_hints(table.row.settings),
                         hint=asked[1] if asked and asked[0] == version else None)


def who(table: Table, seat: int) -> str:
    """A seat's player for HTML."""
    return escape(table.names[seat]) if table.names else str(seat)


def analysis_buttons(table: Table, number: int, output: Mapping[str, object], tr: Translate,
                     *parts: str) -> tuple[tuple[Button, ...], ...]:
    """"🔍 Analysis" under deal ``number``'s result (``parts``: ``p`` on a player's panel),
    where the game has one and the deal was played with cards."""
    tricks = output.get("tricks")
    if plugin_of(table).analysis is None or not (isinstance(tricks, list) and any(tricks)):
        return ()
    return ((Button(tr("🔍 Analysis"), pack("y", table.id, number, *parts)),),)
