"""A deal being entered by buttons (scorekeeper mode): the presses so far, the entry they give,
what comes next; a table's ``Keeper`` holds it (``Table.keeper``).

Each press answers one or more of the form's steps at once (a *path*): the
game's ``merge`` rule decides which steps share a screen, for example both
defenders' whist calls in one button ("whist · pass"). Steps with one answer
only are answered by themselves and never shown. A step with many numeric
answers (Seep's card points) is typed on a keypad instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Protocol

from engine.base import ActionError
from engine.manual import EntryForm, Step, form_at, form_for, is_complete
from engine.match import Match

log = logging.getLogger(__name__)

KEYPAD_FROM = 30  # a step with more answers than this is typed on a keypad

# merge(step, value, next_step): does the button that answers ``step`` with ``value``
# also answer ``next_step``?
Merge = Callable[[Step, Any, Step], bool]


@dataclass
class Draft:
    """The presses of one deal's entry. ``dealer`` answers "who dealt?" before deal 1;
    ``number`` is the deal being corrected (``/edit``), None for a new deal; ``keeper``: the
    user who enters it, in his private chat (None: nobody opened the entry yet). ``revision``
    grows with every change: the buttons carry it, so that a press on a message that shows
    an earlier draft is refused. Stored (``to_data``) with each change, so that a restart,
    or another worker, goes on from it."""

    taps: list[tuple[Any, ...]] = field(default_factory=list)
    digits: str = ""
    dealer: int | None = None
    number: int | None = None
    revision: int = 0
    keeper: int | None = None

    def changed(self) -> None:
        self.revision += 1

    def copy(self) -> Draft:
        """A copy to change (the draft held stays as it is until the copy is stored)."""
        return replace(self, taps=list(self.taps))

    def restarted(self, number: int | None = None) -> Draft:
        """A new, empty draft after this one (for deal ``number`` when correcting one), entered
        by the same keeper."""
        return Draft(revision=self.revision + 1, number=number, keeper=self.keeper)

    def to_data(self) -> dict[str, Any]:
        """As JSON data (the answers are strings, numbers and flags)."""
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Draft:
        return cls(**{**data, "taps": [tuple(tap) for tap in data["taps"]]})


@dataclass(frozen=True)
class Plan:
    """What the presses give: the entry, every step answered (forced ones included), the
    step asked now (None: nothing left) with one path per button: the (step, answer) pairs
    the button gives."""

    entry: Any
    answered: tuple[tuple[Step, Any], ...]
    step: Step | None
    paths: tuple[tuple[tuple[Step, Any], ...], ...]
    complete: bool

    @property
    def keypad(self) -> bool:
        step = self.step
        return (step is not None and len(step.choices) > KEYPAD_FROM
                and all(type(c) is int for c in step.choices))


def plan(form: EntryForm, taps: list[tuple[Any, ...]], merge: Merge) -> Plan:
    """Replay the presses on the form; IllegalAction if one no longer fits (the draft is stale)."""
    answered: list[tuple[Step, Any]] = []

    def answer(entry: Any, value: Any) -> Any:
        answered.append((form.pending(entry), value))
        return form.choose(entry, value)

    def forced(entry: Any) -> Any:
        while (step := form.next_step(entry)) is not None and step.forced:
            entry = answer(entry, step.choices[0])
        return entry

    entry = forced(form.empty())
    for tap in taps:
        for value in tap:
            entry = answer(entry, value)
        entry = forced(entry)
    step = form.next_step(entry)
    paths = () if step is None else tuple(_paths(form, entry, step, merge))
    return Plan(entry, tuple(answered), step, paths, is_complete(form, entry))


def _paths(form: EntryForm, entry: Any, step: Step,
           merge: Merge) -> Iterator[tuple[tuple[Step, Any], ...]]:
    if len(step.choices) > KEYPAD_FROM:
        return
    for value in step.choices:
        after = form.choose(entry, value)
        following = form.next_step(after)
        if following is not None and merge(step, value, following):
            for rest in _paths(form, after, following, merge):
                yield ((step, value), *rest)
        else:
            yield ((step, value),)


def taps_of(form: EntryForm, target: Any) -> list[tuple[Any, ...]]:
    """The presses (one answer each) that enter ``target``, an entry of ``form``: to show
    a deal being corrected pre-filled, ready to step back from.

    An answer is the one whose entry agrees with ``target`` so far: every field
    equal, or not set yet (None, or a tuple that is a start of the target's).
    """
    entry = form.empty()
    taps: list[tuple[Any, ...]] = []
    while (step := form.next_step(entry)) is not None:
        value = next((v for v in step.choices
                      if _agrees(form.choose(entry, v), target)), None)
        if value is None:
            break  # an optional step the target leaves out
        entry = form.choose(entry, value)
        if not step.forced:
            taps.append((value,))
    return taps


def _agrees(entry: Any, target: Any) -> bool:
    for f in fields(entry):
        mine, theirs = getattr(entry, f.name), getattr(target, f.name)
        if isinstance(mine, tuple):
            if mine != theirs[:len(mine)]:
                return False
        elif mine is not None and mine != theirs:
            return False
    return True


class EntryRules(Protocol):
    """What the use cases need of a game's entry words: which steps one button answers
    together (``merge``), and the one-line text form (``parse``: ActionError says why not)."""

    def merge(self, step: Step, value: Any, following: Step) -> bool: ...

    def parse(self, form: EntryForm, text: str) -> Any: ...


@dataclass
class Keeper:
    """A scorekept table's state beside its match: the deal being entered, who entered
    each deal."""

    draft: Draft = field(default_factory=Draft)
    enterers: list[int | None] = field(default_factory=list)  # per deal; None: not known


def stored_keeper(table_id: int, data: dict[str, Any] | None, match: Match) -> Keeper:
    """A loaded table's keeper: the draft as its row stored it (``data``), a new one if its
    presses no longer fit the sheet (the game's entry steps changed since it was stored);
    who entered the earlier deals is not known."""
    draft = Draft() if data is None else Draft.from_data(data)
    try:
        form = form_of(match, draft)
        if form is not None:
            plan(form, draft.taps, lambda *_: False)  # only whether the presses fit
    except ActionError as exc:
        log.warning("table %s: the stored draft no longer fits (%s): it is dropped", table_id,
                    exc)
        draft = draft.restarted()
    return Keeper(draft, [None] * len(match.deals))


def next_match(match: Match, draft: Draft) -> Match | None:
    """The match the draft's new deal is added to (not to be changed: copy it first);
    None while deal 1's dealer is unknown."""
    if match.deals:
        return match
    if draft.dealer is None:
        return None
    return Match(match.spec, match.rules, match.players, draft.dealer)


def form_of(match: Match, draft: Draft) -> EntryForm | None:
    """The form the draft fills; None while deal 1's dealer is unknown."""
    if draft.number is not None:
        return form_at(match, draft.number)
    following = next_match(match, draft)
    return None if following is None else form_for(following)
