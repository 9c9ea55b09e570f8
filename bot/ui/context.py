"""What a renderer needs besides the view: the table's names, rules and language."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from bot.ui.i18n import Translate


@dataclass(frozen=True)
class RenderContext:
    table_id: int
    names: list[str]
    rules: dict[str, Any]
    deal_no: int
    tr: Translate
    version: int = 0  # the match's version: buttons carry it
    selection: frozenset[str] = field(default_factory=frozenset)  # UI picks (discard)
    users: tuple[int | None, ...] = ()  # each seat's Telegram user (None: a typed name)
    hints: bool = False  # the table gives hints (💡): never in a rated game
    hint: Any = None  # the hint this seat asked for at this version (``GameSpec.hint``'s)

    def mention(self, seat: int) -> str:
        """A seat's player as a mention that links to them (HTML), or the name alone."""
        name = escape(self.names[seat])
        user = self.users[seat] if seat < len(self.users) else None
        return f'<a href="tg://user?id={user}">{name}</a>' if user else name
