"""Numbers as pictures show them: a true minus sign, and a plus on balances."""

from __future__ import annotations

MINUS = "−"


def number(value: int | float) -> str:
    """``-200`` as ``−200``; a float keeps its (at most two) decimals."""
    return f"{MINUS if value < 0 else ''}{abs(value)}"


def signed(value: int | float) -> str:
    """A balance: ``+35``, ``−124.33``, ``0``."""
    return number(value) if value <= 0 else f"+{value}"


def parse(text: str) -> float:
    """The value of a drawn number (for tests and callers that read items back)."""
    return float(text.replace(MINUS, "-"))
