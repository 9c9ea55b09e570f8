"""What happened, for the presenter to tell: each event names its table and what it needs.

An event holds the ``Table`` itself (not only its id), so that it can still be
told after the table closed (a game's end).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.outcome import Refusal
from bot.service.tables import Table
from engine.manual import EntryForm
from engine.match import Match
from storage.rows import RatingChange, TableRow, VoteRow


@dataclass(frozen=True)
class GameBegins:
    table: Table


@dataclass(frozen=True)
class DealScored:
    """A deal's result: ``final_view`` is the deal's last public view; ``number`` counts
    from 1. ``picture``: the match as the deal left it, when the sheet's picture follows
    the result; ``entered``: the form and entry of a deal entered by hand (which has no
    view: its summary reads the entry)."""

    table: Table
    output: dict[str, Any]
    final_view: dict[str, Any]
    number: int
    match: Match
    picture: Match | None = None
    entered: tuple[EntryForm, Any] | None = None


@dataclass(frozen=True)
class GameOver:
    """``how``: ``played`` to the end, ``stopped`` by agreement (settled), ``abandoned``;
    ``ratings``: each rated seat's change in the group (none if the game does not count)."""

    table: Table
    how: str
    match: Match | None
    ratings: tuple[RatingChange, ...] = ()


@dataclass(frozen=True)
class VoteAsked:
    table: Table
    vote: VoteRow
    initiator_name: str


@dataclass(frozen=True)
class VoteEnded:
    """A vote's message loses its buttons; ``by`` refused it (None: it passed or lapsed);
    ``void``: why it lapsed (``game_over``, ``sheet_changed``: it can do nothing now)."""

    table: Table
    vote: VoteRow
    by: str | None = None
    void: str | None = None


@dataclass(frozen=True)
class Paused:
    """``why``: ``asked`` (the players agreed), ``resumed``, ``everyone_away``."""

    table: Table
    why: str


@dataclass(frozen=True)
class PlayerBack:
    table: Table
    seat: int


@dataclass(frozen=True)
class TimeUp:
    """``then``: what the table does now: ``wait``, ``robot`` (a robot plays the seat) or
    ``auto`` (one move made for the player)."""

    table: Table
    seat: int
    then: str
    silent: bool = False


@dataclass(frozen=True)
class Reminder:
    """Half of a turn's time is gone: each user to act is reminded privately."""

    table: Table
    users: tuple[int, ...]
    deadline: float
    silent: bool = False


@dataclass(frozen=True)
class TimeSettingsChanged:
    table: Table
    settings: dict[str, Any]


@dataclass(frozen=True)
class Replaced:
    table: Table
    seat: int
    new_name: str
    old_user: int | None


@dataclass(frozen=True)
class CannotWrite:
    """The player cannot be written to privately: the group is told how to fix it."""

    table: Table
    seat: int


@dataclass(frozen=True)
class DealRemoved:
    """Deal ``number`` was removed from ``match`` (the match as it was, to name the deal)."""

    table: Table
    number: int
    match: Match


@dataclass(frozen=True)
class DealCorrected:
    table: Table
    number: int
    later: bool  # deals after it were scored again
    output: dict[str, Any]
    entered: tuple[EntryForm, Any]


@dataclass(frozen=True)
class Refused:
    """A refusal told in the group after the fact (a passed vote that could not be done)."""

    table: Table
    refusal: Refusal


@dataclass(frozen=True)
class Welcome:
    """The bot was added to a group."""

    chat_id: int


@dataclass(frozen=True)
class DealAnalysed:
    """A finished deal's analysis (``GameSpec.analyse``) for the group of the table
    ``row``, or ``to`` a user's private chat; ``number`` counts from 1."""

    row: TableRow
    number: int
    analysis: dict[str, Any]
    to: int | None = None
