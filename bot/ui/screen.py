"""A message as text plus inline keyboard, independent of telegram types."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

MAX_TEXT = 4096
ROW_WIDTH = 8


@dataclass(frozen=True)
class Button:
    text: str
    data: str | None = None  # callback data
    url: str | None = None
    web_app: str | None = None  # a Mini App's URL (private chats only)


@dataclass(frozen=True)
class Screen:
    """HTML text and rows of buttons."""

    text: str
    rows: tuple[tuple[Button, ...], ...] = field(default_factory=tuple)

    def digest(self) -> str:
        """A short fingerprint: an edit is skipped when nothing changed."""
        rows = [[(b.text, b.data, b.url, b.web_app) for b in r] for r in self.rows]
        payload = json.dumps([self.text, rows], ensure_ascii=False)
        return hashlib.sha1(payload.encode()).hexdigest()[:16]


def rows_of(buttons: list[Button], width: int) -> list[tuple[Button, ...]]:
    """Buttons in rows of at most ``width`` (and never more than Telegram's 8)."""
    width = min(width, ROW_WIDTH)
    return [tuple(buttons[i:i + width]) for i in range(0, len(buttons), width)]
