"""Signed figures and the balances of a settlement, best first (every game's last word)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def signed(value: float) -> str:
    """``+12``, ``-3.5``, ``0``."""
    return f"{value:+g}" if value else "0"


def ranking(title: str, balances: Sequence[float], names: Sequence[str]) -> str:
    """The title, then one line per player: place, name and balance, best first."""
    order = sorted(range(len(balances)), key=lambda s: -balances[s])
    return "\n".join([title, *(f"{i + 1}. {escape(names[s])}: <b>{signed(balances[s])}</b>"
                               for i, s in enumerate(order))])
