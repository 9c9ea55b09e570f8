"""Tables at run time: each one's stored row, its match, its lock and the players' picks.

``Tables`` is the registry of the open tables this process has loaded (they are
loaded when first touched: ``loading.table``), found by id or by the chat topic
they live in. Everything that changes a table does it under its lock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.service.drafts import Keeper
from engine.base import GameSpec
from engine.games import get_game
from engine.match import Match
from storage.rows import OPEN_STATUSES, TableRow

SCOREKEEPER = "scorekeeper"  # the ``mode`` setting of a table that keeps a real game's sheet
TOPIC = "topic"  # the setting of a table in a named forum topic: the topic's name
REMATCH = "rematch"  # the setting of a lobby that plays a game again: {"of": id, "ready": [...]}


def keeps_score(settings: Mapping[str, Any]) -> bool:
    """Scorekeeper mode: deals are played with real cards and entered by hand."""
    return settings.get("mode") == SCOREKEEPER


HINTS = "hints"  # the setting of a table for learners: 💡 on the panels, the game not rated


def gives_hints(settings: Mapping[str, Any]) -> bool:
    return bool(settings.get(HINTS))


# The setting of a table anyone with its link may watch in the Mini App (the public view,
# the score, the rules); without it only the members of its group may.
PUBLIC = "public"


def is_public(settings: Mapping[str, Any]) -> bool:
    return bool(settings.get(PUBLIC))


@dataclass(frozen=True)
class DealEnd:
    """The deal that just ended (its number from 1, its output, its last public view): the
    table shows it until the next deal's first action."""

    number: int
    output: dict[str, Any]
    final_view: dict[str, Any]


@dataclass(eq=False)
class Table:
    row: TableRow
    match: Match | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    selection: dict[int, frozenset[str]] = field(default_factory=dict)  # seat -> UI picks
    active_at: dict[int, float] = field(default_factory=dict)  # user -> last press or ping
    page: str = "main"  # lobby page: main or conventions
    keeper: Keeper | None = None  # scorekeeper mode: the deal being entered
    ended: DealEnd | None = None  # the end of the last deal, shown until the next action
    forced: dict[int, str] = field(default_factory=dict)  # seat -> its one choice, made for it
    # seat -> (the match's version, the hint asked for then): a learner's 💡 (issue 34)
    hints: dict[int, tuple[int, Any]] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def chat_id(self) -> int:
        return self.row.chat_id

    @property
    def thread_id(self) -> int:
        return self.row.thread_id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def spec(self) -> GameSpec:
        return get_game(self.row.game)

    @property
    def keeps_score(self) -> bool:
        return keeps_score(self.row.settings)

    @property
    def topic(self) -> str | None:
        """The name of the forum topic the table lives in (None: none, or not known)."""
        name = self.row.settings.get(TOPIC)
        return name if isinstance(name, str) and self.thread_id else None

    @property
    def rematch_of(self) -> int | None:
        """The table whose game this lobby plays again with the same players (None: not a
        rematch)."""
        rematch = self.row.settings.get(REMATCH)
        return rematch["of"] if rematch else None

    @property
    def ready(self) -> frozenset[int]:
        """The users who confirmed a rematch lobby."""
        return frozenset(self.row.settings.get(REMATCH, {}).get("ready", ()))

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def rules(self) -> dict[str, Any]:
        """The rules in force: the match's once it started, else the lobby's choices."""
        return self.match.rules.to_dict() if self.match else dict(self.row.rules)

    @property
    def may_show_deal_end(self) -> bool:
        """The deal in play has no action yet after an earlier deal: its messages may show
        that deal's end (``ended``, which only the process that played it knows)."""
        match = self.match
        return (match is not None and bool(match.outputs) and bool(match.deals)
                and not match.deals[-1].get("actions"))

    def user_of(self, seat: int) -> int | None:
        return self.row.user_of(seat)

    def seat_of(self, user_id: int) -> int | None:
        return self.row.seat_of(user_id)

    @property
    def names(self) -> list[str]:
        return list(self.row.players or [])

    def touch(self, user_id: int) -> None:
        self.active_at[user_id] = time.monotonic()

    def is_watching(self, user_id: int, window: float) -> bool:
        """The user pressed a button (or was notified) within ``window`` seconds: he is
        looking at his panel, or Telegram has just told him to."""
        seen = self.active_at.get(user_id)
        return seen is not None and time.monotonic() - seen < window

    def present_users(self, *, besides: frozenset[int] = frozenset()) -> frozenset[int]:
        """The users seated at the table whom no robot stands in for, except ``besides``."""
        return frozenset(s.user_id for s in self.row.seats
                         if s.user_id is not None and not s.robot and s.user_id not in besides)

    def acting_users(self) -> set[int]:
        """The users who must act now (for the seats they play)."""
        state = self.match.state if self.match is not None else None
        if state is None or state.finished:
            return set()
        return {u for s in state.to_act if (u := self.user_of(state.controller(s))) is not None}


class Tables:
    """The open tables of this process."""

    def __init__(self) -> None:
        self.by_id: dict[int, Table] = {}

    def get(self, table_id: int) -> Table | None:
        return self.by_id.get(table_id)

    def values(self) -> list[Table]:
        return list(self.by_id.values())

    def in_topic(self, chat_id: int, thread_id: int | None = 0) -> Table | None:
        """The open table of a chat's topic (``thread_id`` None: of any topic of the chat)."""
        return next((t for t in self.by_id.values()
                     if t.chat_id == chat_id and t.status in OPEN_STATUSES
                     and (thread_id is None or t.thread_id == thread_id)), None)

    def adopt(self, row: TableRow) -> Table:
        """Track a stored table (a new lobby, or one loaded, with its players' picks)."""
        table = Table(row, selection={s.seat: s.picks for s in row.seats if s.picks})
        self.by_id[row.id] = table
        return table

    def forget(self, table: Table) -> None:
        self.by_id.pop(table.id, None)
