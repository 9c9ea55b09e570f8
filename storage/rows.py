"""What the storage API takes and returns: plain, immutable values (no SQL, no engine)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Protocol

from storage.sql import Row

Status = Literal["lobby", "playing", "paused", "finished", "aborted"]
OPEN_STATUSES: tuple[Status, ...] = ("lobby", "playing", "paused")
ACTIVE_STATUSES: tuple[Status, ...] = ("playing", "paused")


class Unset(Enum):
    """The default of optional update arguments: leave the column as it is."""

    UNSET = 0


UNSET = Unset.UNSET


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry: a deal start or an action, in records.md form.

    ``payload`` of a deal is the record's deal object with its ``actions``
    emptied (a deal entered by hand in scorekeeper mode has none, and keeps
    none); of an action, the record's action object (``{"seat": 1, "bid": "6S"}``).
    ``user_id`` is the user who chose the action (in open play, the whister
    who plays the passer's cards), with ``robot`` set when a robot chose for them.
    """

    kind: Literal["deal", "action"]
    payload: Mapping[str, Any]
    user_id: int | None = None
    robot: bool = False

    @classmethod
    def deal(cls, deal: Mapping[str, Any]) -> Entry:
        return cls("deal", {**deal, "actions": []} if "actions" in deal else dict(deal))

    @classmethod
    def action(
        cls, action: Mapping[str, Any], *, user_id: int | None = None, robot: bool = False
    ) -> Entry:
        return cls("action", dict(action), user_id, robot)

    @property
    def seat(self) -> int | None:
        return self.payload.get("seat") if self.kind == "action" else None


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    language: str | None
    time_zone: str | None
    quiet_hours: str | None
    table_defaults: dict[str, Any]
    title: str | None = None  # a group's title, as Telegram last showed it
    username: str | None = None  # a public group's username (None: a private group)

    @classmethod
    def of(cls, row: Row) -> ChatRow:
        return cls(row["id"], row["language"], row["time_zone"], row["quiet_hours"],
                   json.loads(row["table_defaults"]), row["title"], row["username"])


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    display_name: str
    username: str | None
    language: str | None
    has_started_bot: bool

    @classmethod
    def of(cls, row: Row) -> UserRow:
        return cls(row["id"], row["display_name"], row["username"], row["language"],
                   bool(row["has_started_bot"]))


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat's user, or for a player without Telegram (scorekeeper mode) a typed name."""

    seat: int
    user_id: int | None
    panel_message_id: int | None
    guest_name: str | None = None
    robot: bool = False  # a substitute robot plays the seat until its player returns
    picks: frozenset[str] = frozenset()  # the player's picks before he confirms (UI steps)
    shown_digest: str | None = None  # the digest of what the panel shows (last sent)

    @classmethod
    def of(cls, row: Row) -> SeatRow:
        return cls(row["seat"], row["user_id"], row["panel_message_id"], row["guest_name"],
                   bool(row["robot"]), frozenset(json.loads(row["picks"] or "[]")),
                   row["shown_digest"])


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table from lobby to end. ``players`` (names) and final ``rules`` are fixed at start."""

    id: int
    chat_id: int
    game: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    seat_count: int
    players: list[str] | None
    status: Status
    needs_attention: bool
    attention_reason: str | None
    table_message_id: int | None
    timer_deadline: float | None
    timer_version: int
    creator_id: int | None
    last_seq: int
    deal_count: int
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None
    seats: tuple[SeatRow, ...] = ()
    timer_nudged: bool = False  # the half-time nudge of the current timer was sent
    thread_id: int = 0  # the forum topic the table lives in (0: none)
    shown_at: float | None = None  # ``updated_at`` when its messages last all showed it
    pinned_message_id: int | None = None  # the group message the bot pinned, until unpinned
    # scorekeeper mode: the deal being entered as stored when the row was read (JSON data)
    draft: dict[str, Any] | None = None
    shown_digest: str | None = None  # the digest of what the table message shows (last sent)

    @property
    def shown(self) -> bool:
        """Its messages showed the table as it is stored (when they were last all sent)."""
        return self.shown_at is not None and self.shown_at >= self.updated_at

    @classmethod
    def of(cls, row: Row, seats: tuple[SeatRow, ...]) -> TableRow:
        return cls(
            id=row["id"], chat_id=row["chat_id"], game=row["game"],
            rules=json.loads(row["rules"]), settings=json.loads(row["settings"]),
            seat_count=row["seat_count"],
            players=None if row["players"] is None else json.loads(row["players"]),
            status=row["status"], needs_attention=bool(row["needs_attention"]),
            attention_reason=row["attention_reason"], table_message_id=row["table_message_id"],
            timer_deadline=row["timer_deadline"], timer_version=row["timer_version"],
            creator_id=row["creator_id"], last_seq=row["last_seq"], deal_count=row["deal_count"],
            created_at=row["created_at"], updated_at=row["updated_at"],
            started_at=row["started_at"], finished_at=row["finished_at"], seats=seats,
            timer_nudged=bool(row["timer_nudged"]), thread_id=row["thread_id"],
            shown_at=row["shown_at"], pinned_message_id=row["pinned_message_id"],
            draft=None if row["draft"] is None else json.loads(row["draft"]),
            shown_digest=row["shown_digest"],
        )

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def robot_seats(self) -> frozenset[int]:
        """The seats a substitute robot plays now."""
        return frozenset(s.seat for s in self.seats if s.robot)

    def header(self) -> dict[str, Any]:
        """The record's game, rules and players (records.md), without deals."""
        return {"game": self.game, "rules": self.rules, "players": list(self.players or [])}


@dataclass(frozen=True, slots=True)
class Waking:
    """An open table as start-up sees it (no seats, no log): whether it has work to do at
    once."""

    id: int
    status: Status
    last_seq: int
    snapshot_seq: int | None  # the entry after which its last snapshot was taken
    shown: bool
    robot: bool  # a substitute robot plays a seat
    attention_reason: str | None

    @property
    def between_deals(self) -> bool:
        """Playing, and the log ends where a deal does (or before the first one): the next
        deal is to be dealt."""
        return self.status == "playing" and self.last_seq in (0, self.snapshot_seq)

    @classmethod
    def of(cls, row: Row) -> Waking:
        return cls(row["id"], row["status"], row["last_seq"], row["snapshot_seq"],
                   row["shown_at"] is not None and row["shown_at"] >= row["updated_at"],
                   bool(row["robot"]), row["attention_reason"])


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A table's next turn-timer event: the half-time ``nudge`` or the ``deadline`` of the
    turn at match ``version``, due at ``due_at`` (Unix seconds); ``deadline``: the turn's."""

    table_id: int
    kind: str  # "nudge" or "deadline"
    due_at: float
    version: int
    deadline: float

    @classmethod
    def of(cls, row: Row) -> TimerRow:
        return cls(row["table_id"], row["kind"], row["due_at"], row["version"], row["deadline"])


@dataclass(frozen=True, slots=True)
class DealRow:
    """A finished deal of a chat's history: its replay output object, and the seats
    for which a robot chose at least one action."""

    table_id: int
    game: str
    deal_no: int
    result: dict[str, Any]
    finished_at: float
    players: list[str]
    robot_seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: int
    user_id: int | None
    name: str
    balance: float
    place: int

    @classmethod
    def of(cls, row: Row, names: list[str]) -> PlayerResult:
        """A game_results row, with the seat's name from the table's players."""
        return cls(row["seat"], row["user_id"], names[row["seat"]], row["balance"], row["place"])


@dataclass(frozen=True, slots=True)
class GameRow:
    """A finished or aborted game of a chat's history (results only when finished)."""

    table_id: int
    game: str
    status: Status
    started_at: float | None
    finished_at: float | None
    deals: int
    results: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class ContractStats:
    declared: int
    made: int
    failed: int


@dataclass(frozen=True, slots=True)
class UserStats:
    """One user's record in one game kind. ``won``/``lost`` are in the game's
    per-deal unit (storage/deal_stats.py); ``balance`` sums finished games' settlements."""

    game: str
    games: int
    first_places: int
    balance: float
    deals: int
    robot_deals: int
    contracts: dict[int, ContractStats] = field(default_factory=dict)
    misers: ContractStats = ContractStats(0, 0, 0)
    won: float = 0
    lost: float = 0


Scope = Literal["group", "all"]  # a rating in the game's chat, or across all groups


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as stored: the skill estimate and its uncertainty (the model's own units)."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game's result as the ratings read it: where and what was played, and each
    seat's user (None for a typed name) and place."""

    table_id: int
    chat_id: int
    game: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    results: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating before and after a game, in one scope."""

    table_id: int
    seat: int
    scope: Scope
    user_id: int
    before: Skill
    after: Skill


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's current rating in a scope and game kind, after ``games`` rated games."""

    user_id: int
    name: str
    skill: Skill
    games: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one game (the history /stats draws)."""

    game: str
    table_id: int
    finished_at: float
    skill: Skill


class StatLine(Protocol):
    """One seat's statistics of a finished deal (computed by ``GameSpec.seat_stats``)."""

    seat: int
    kind: str
    role: str
    contract: str | None
    level: int | None
    made: bool | None
    tricks: int | None
    won: float
    lost: float


VoteStatus = Literal["open", "passed", "refused", "void"]


@dataclass(frozen=True, slots=True)
class VoteRow:
    """A question put to a table's players: what passes (``kind`` and ``params``), who must
    agree (``voters``), who has (``agreed``), and the message that asks it (its id, and
    its question as posted: HTML)."""

    id: int
    table_id: int
    kind: str
    initiator: int
    voters: frozenset[int]
    agreed: frozenset[int]
    params: dict[str, Any]
    status: VoteStatus
    message_id: int | None
    question: str | None = None

    @classmethod
    def of(cls, row: Row) -> VoteRow:
        return cls(row["id"], row["table_id"], row["kind"], row["initiator"],
                   frozenset(json.loads(row["voters"])), frozenset(json.loads(row["agreed"])),
                   json.loads(row["params"]), row["status"], row["message_id"],
                   row["question"])

    @property
    def passed(self) -> bool:
        return self.voters <= self.agreed
