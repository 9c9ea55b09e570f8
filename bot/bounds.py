"""The bounds of what strangers type, tap and send, checked at the edge before anything
reaches storage: ids and numbers fit a signed 64-bit integer (what both backends hold)."""

from __future__ import annotations

MAX_ID = 2**63 - 1  # the largest id (table, vote, user) storage holds


def number(text: str, *, limit: int = MAX_ID) -> int | None:
    """``text`` as a whole number in 0..``limit`` if it is one (ASCII digits only: "²" and
    "٣" are digits to ``str.isdigit`` but no number to us); else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(limit)):
        return None
    value = int(text)
    return value if value <= limit else None


def ident(text: str) -> int | None:
    """An id as the bot writes it (a positive number that storage holds); else None."""
    value = number(text)
    return value if value else None
