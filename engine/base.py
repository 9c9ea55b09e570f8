"""The engine contract shared by every game (DESIGN.md, "Engine contract").

A game package provides a ``Rules`` (a ``RulesBase`` dataclass), a deal
``State`` and a ``Scoresheet`` with the shapes described by the protocols
below; ``engine.games`` registers it and ``engine.match`` drives it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self


class ActionError(Exception):
    """An action the engine refuses. The state is unchanged.

    ``code`` is a stable identifier (the bot translates it), ``params`` the
    values its message needs; ``str(error)`` is the English message.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class NotYourTurn(ActionError):
    """The seat may not act now."""


class WrongPhase(ActionError):
    """The kind of action does not belong to the current phase."""


class MalformedAction(ActionError):
    """The action text cannot be read."""


class IllegalAction(ActionError):
    """A well-formed action the rules forbid here (a revoke, a low bid...)."""


class RulesError(ValueError):
    """Invalid rules: an unknown option, a bad value or a bad combination."""


class RecordError(ValueError):
    """A malformed or illegal game record; the message names deal and action."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the bot to announce (``kind`` is stable)."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


def option(
    default: Any, choices: tuple[Any, ...] | None = None, *, kind: type | None = None,
    offered: tuple[Any, ...] | None = None,
) -> Any:
    """A Rules field: its default, and the values allowed (``choices``) or its type.

    ``offered``: for an option whose values are not a short list (a pool target),
    the values a table is usually offered to choose from.
    """
    return field(default=default, metadata={"choices": choices, "kind": kind,
                                            "offered": offered})


def offered_values(rules: type[RulesBase], name: str) -> tuple[Any, ...]:
    """The values of a Rules option a table chooses from: its choices, else its offered
    values (empty when the option has neither)."""
    f = next(f for f in dataclasses.fields(rules) if f.name == name)
    return tuple(f.metadata.get("choices") or f.metadata.get("offered") or ())


@dataclass(frozen=True)
class RulesBase:
    """Validated, immutable game options; JSON field names as in the spec.

    Subclasses declare fields with ``option`` and may override
    ``variant_defaults`` (defaults that depend on another field, such as the
    Preferans variant) and ``check`` (cross-field validation).
    """

    ALIASES: ClassVar[Mapping[str, Mapping[Any, Any]]] = {}  # option -> {alias: value}

    @classmethod
    def variant_defaults(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None = None) -> Self:
        data = dict(data or {})
        names = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(unknown)}")
        for key, aliases in cls.ALIASES.items():
            if key in data and data[key] in aliases:
                data[key] = aliases[data[key]]
        values = {**cls.variant_defaults(data), **data}
        for name, value in values.items():
            _check_value(name, value, names[name])
        rules = cls(**values)
        rules.check()
        return rules

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> Self:
        return type(self).from_dict({**self.to_dict(), **changes})

    def check(self) -> None:
        """Cross-field validation; raise RulesError."""


def _check_value(name: str, value: Any, f: dataclasses.Field[Any]) -> None:
    choices = f.metadata.get("choices")
    kind = f.metadata.get("kind")
    if choices is not None:
        # bool is an int: compare types as well so that True never passes for 1.
        if not any(value == c and type(value) is type(c) for c in choices):
            allowed = ", ".join(_json(c) for c in choices)
            raise RulesError(f"rules option {name}: {_json(value)} is not one of {allowed}")
    elif kind is int:
        if type(value) is not int:
            raise RulesError(f"rules option {name}: {_json(value)} is not a whole number")
    elif kind is not None and not isinstance(value, kind):
        raise RulesError(f"rules option {name}: {_json(value)} has the wrong type")


def _json(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def refusal(validate: Callable[[int, str], object], seat: int, action: str) -> ActionError | None:
    """The ActionError ``validate`` raises for the action, or None: a State's ``check``."""
    try:
        validate(seat, action)
    except ActionError as error:
        return error
    return None


def acting_actions(state: DealState, seat: int | None) -> dict[int, list[str]]:
    """A view's ``actions``: the legal actions of every seat to act that ``seat`` plays."""
    if seat is None:
        return {}
    return {s: state.legal_actions(s) for s in state.to_act if state.controller(s) == seat}


class DealState(Protocol):
    """One deal of a game, as a state machine (see DESIGN.md)."""

    phase: str
    version: int

    @property
    def to_act(self) -> tuple[int, ...]: ...

    @property
    def finished(self) -> bool: ...

    def legal_actions(self, seat: int) -> list[str]: ...

    def check(self, seat: int, action: str) -> ActionError | None:
        """Why ``apply`` would refuse the action (None if it is legal), without applying it."""
        ...

    def apply(self, seat: int, action: str) -> list[Event]: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def result(self) -> Any: ...

    def deal_record(self) -> dict[str, Any]: ...

    def progress(self) -> dict[str, Any]: ...

    def controller(self, seat: int) -> int:
        """The seat whose player chooses for ``seat`` (itself, except in open play)."""
        ...

    def describe(self, action: str) -> str:
        """A short English label for a legal action, for buttons and history."""
        ...


class Scoresheet(Protocol):
    """Deal results in, entries and settlement out."""

    @property
    def complete(self) -> bool: ...

    def next_context(self) -> Any: ...

    def add(self, result: Any) -> dict[str, Any]: ...

    def report(self) -> dict[str, Any]: ...

    def to_data(self) -> dict[str, Any]:
        """The sheet as JSON data; the class's ``from_data(rules, data)`` rebuilds it."""
        ...


class SheetState:
    """A scoresheet whose whole state is the attributes named in ``STATE`` (JSON values),
    so that a match can be snapshotted between deals and resumed without its history."""

    STATE: ClassVar[tuple[str, ...]] = ()
    rules: Any

    def to_data(self) -> dict[str, Any]:
        return {name: copy.deepcopy(getattr(self, name)) for name in self.STATE}

    @classmethod
    def from_data(cls, rules: Any, data: Mapping[str, Any]) -> Self:
        """The sheet of ``rules`` as ``to_data`` saw it; KeyError if a field is missing."""
        sheet = cls.__new__(cls)
        sheet.rules = rules
        for name in cls.STATE:
            setattr(sheet, name, copy.deepcopy(data[name]))
        sheet.restored()
        return sheet

    def restored(self) -> None:
        """Set what ``STATE`` does not hold (what the rules alone decide)."""


class DealFactory(Protocol):
    def __call__(
        self,
        rules: Any,
        players: list[str],
        context: Any,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> DealState: ...


class RandomPolicy(Protocol):
    """Picks an action for ``seat`` (weighted so that every kind of deal occurs)."""

    def __call__(self, state: Any, seat: int, rng: Any) -> str: ...


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's statistics of a finished deal, read from the deal's output object.

    ``kind``: the deal's kind; ``role``: what the seat did (declarer, defender,
    bidder, player...); ``contract``/``level``: what it undertook; ``made``:
    whether it was fulfilled (None where the game has no such notion);
    ``won``/``lost``: the deal's gains and losses in the game's own unit.
    """

    seat: int
    kind: str
    role: str
    contract: str | None = None
    level: int | None = None
    made: bool | None = None
    tricks: int | None = None
    won: float = 0
    lost: float = 0


class Robot(Protocol):
    """A game's substitute robot: both read only the deciding seat's view."""

    def choose(self, view: Mapping[str, Any], rules: Any, rng: Any) -> str: ...

    def auto_action(self, view: Mapping[str, Any], rules: Any) -> str: ...


def no_teams(rules: Any) -> list[list[int]]:
    """Everyone plays alone."""
    return []


def every_deal(output: Mapping[str, Any]) -> bool:
    """Every scored deal was played (a pass-out too: it is scored as one)."""
    return True


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows of a game: everything records, bench and bot need."""

    name: str
    rules: type[RulesBase]
    new_sheet: Any  # (rules, first_dealer) -> Scoresheet
    new_deal: DealFactory
    encode_action: Any  # (seat, action) -> record dict
    decode_action: Any  # (record dict) -> (seat, action); raises MalformedAction
    random_action: RandomPolicy
    first_dealer: Any  # (rules, opener_seat, rng) -> seat
    robot: Robot  # the substitute robot and the timeout move
    entry_form: Any  # the EntryForm class of a deal entered by hand (engine.manual)
    seat_stats: Any  # (seats, deal output) -> list[SeatStats]: a finished deal's statistics
    teams: Any = no_teams  # (rules) -> the partnerships as lists of seats; [] if none
    # (deal output) -> whether a scored deal was played: only a game with one is rated
    played: Any = every_deal
    settle: Any = None  # (sheet document) -> balances, for `python -m engine settle`
    sheet_text: Any = None  # (match) -> a readable scoresheet, for `python -m engine sheet`
    analyse: Any = None  # (rules, players, context, deal record) -> a finished deal's analysis
    hint: Any = None  # (view, rules, rng) -> a learner's hint: .action, .why, .figures

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        """The registry's own: a copied match shares it (it holds modules and classes)."""
        return self
