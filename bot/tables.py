"""A table at run time: its stored row, its match, its lock and its messages."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.games.base import GameUI
from bot.outbox import Slot
from engine.match import Match
from storage.rows import TableRow

if TYPE_CHECKING:
    from bot.scorekeeper.keeper import Keeper

ACTIVE_WINDOW = 90.0  # a player who pressed within this many seconds is watching his panel


@dataclass(eq=False)
class Table:
    row: TableRow
    ui: GameUI
    match: Match | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    slot: Slot | None = None  # the group's table message
    panels: dict[int, Slot] = field(default_factory=dict)  # seat -> the player's panel
    selection: dict[int, frozenset[str]] = field(default_factory=dict)  # seat -> UI picks
    active_at: dict[int, float] = field(default_factory=dict)  # user -> last press
    page: str = "main"  # lobby page: main or conventions
    keeper: Keeper | None = None  # scorekeeper mode: the deal being entered (bot.scorekeeper)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def chat_id(self) -> int:
        return self.row.chat_id

    @property
    def keeps_score(self) -> bool:
        """Scorekeeper mode: deals are played with real cards and entered by hand."""
        return self.row.settings.get("mode") == "scorekeeper"

    @property
    def status(self) -> str:
        return self.row.status

    def user_of(self, seat: int) -> int | None:
        return self.row.user_of(seat)

    def seat_of(self, user_id: int) -> int | None:
        return self.row.seat_of(user_id)

    @property
    def names(self) -> list[str]:
        return list(self.row.players or [])

    def touch(self, user_id: int) -> None:
        self.active_at[user_id] = time.monotonic()

    def is_watching(self, user_id: int) -> bool:
        seen = self.active_at.get(user_id)
        return seen is not None and time.monotonic() - seen < ACTIVE_WINDOW
