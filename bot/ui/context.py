"""What a renderer needs besides the view: the table's names, rules and language."""

from __future__ import annotations

from dataclasses import dataclass, field
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
