"""Scorekeeper mode: deals played with real cards, entered by hand, scored by the engine.

Each game has an entry form (``engine.<game>.manual.Form``) that asks for a
deal's outcome step by step and checks every answer by the game's rules. This
module is what all games share: the ``Step``, the loop that fills a form from
given answers, the forms by game name, scoring an entry on a ``Match``, and
rebuilding a match from its entries (undo, edit), since scoresheets only grow.

Record shape (records.md's document; an entered deal replaces hands and
actions by the entry, and a record may mix played and entered deals)::

    {"dealer": 0, "entry": {...}}                 Preferans, Seep
    {"dealer": 0, "cards": 9, "entry": {...}}     Joker (cards as the schedule says)

The entry's fields are the game form's ``to_dict``. ``python -m engine
replay`` scores entered deals exactly as the bot did.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import ActionError, Event, IllegalAction, RecordError
from engine.match import Match


@dataclass(frozen=True, slots=True)
class Step:
    """One question of an entry: what is asked (``name``), about whom, every valid answer.

    ``seat`` is the player the question is about (Seep's team steps: the team
    index). An ``optional`` step is informational: the entry is complete
    without it, and optional steps come last.
    """

    name: str
    seat: int | None
    choices: tuple[Any, ...]
    optional: bool = False

    @property
    def forced(self) -> bool:
        """One answer only: the buttons can skip it, the text form may leave it out."""
        return len(self.choices) == 1 and not self.optional


class EntryForm(ABC):
    """A game's entry of one deal, in the context its scoresheet gives (dealer and more).

    Each game's ``Form`` implements the steps (``next_step``, ``choose``), the
    result the sheet scores and the record form; the rest is shared here.
    """

    def __init__(self, rules: Any, players: Sequence[str], context: Any) -> None:
        self.rules = rules
        self.players = list(players)
        self.context = context
        self.dealer: int = context.dealer

    @abstractmethod
    def empty(self) -> Any: ...

    @abstractmethod
    def next_step(self, entry: Any) -> Step | None:
        """The next question and its valid answers; None once everything is entered."""

    @abstractmethod
    def choose(self, entry: Any, value: Any) -> Any:
        """The entry with the next step answered; IllegalAction says why an answer is wrong."""

    @abstractmethod
    def missing(self, step: Step) -> str:
        """The question to ask when a text or record leaves ``step`` unanswered."""

    @abstractmethod
    def result(self, entry: Any) -> Any:
        """The game's deal result for its scoresheet; IllegalAction if the entry is not whole."""

    @abstractmethod
    def to_dict(self, entry: Any) -> dict[str, Any]: ...

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> Any:
        """An entry from its record form, checked by the same steps."""

    def record_fields(self) -> dict[str, Any]:
        """A deal record's fields beside ``dealer`` and ``entry`` (Joker: ``cards``)."""
        return {}

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def pending(self, entry: Any) -> Step:
        """The step ``choose`` answers now; IllegalAction once everything is entered."""
        step = self.next_step(entry)
        if step is None:
            raise IllegalAction("entry_complete", "the deal is entered completely")
        return step

    def check(self, entry: Any) -> None:
        """Refuse an entry that is unfinished, or that its own steps would not give."""
        step = self.next_step(entry)
        if step is not None and not step.optional:
            raise IllegalAction("entry_incomplete", "the deal is not entered completely: "
                                f"{self.missing(step)}", step=step.name, seat=step.seat)
        if self.from_dict(self.to_dict(entry)) != entry:
            raise IllegalAction("entry_inconsistent", "the entry does not follow its steps")


def accepts(step: Step, value: Any) -> bool:
    """Whether ``value`` is one of the step's choices (``True`` is no trick count)."""
    return any(value == c and type(value) is type(c) for c in step.choices)


def fill(form: EntryForm, answer: Callable[[Step, Any], Any]) -> Any:
    """Answer a form's steps in order: ``answer(step, entry)`` or None (not given).

    A forced step left unanswered takes its one choice; an optional one ends
    the entry; any other raises IllegalAction with the question to ask.
    """
    entry = form.empty()
    while (step := form.next_step(entry)) is not None:
        value = answer(step, entry)
        if value is None:
            if step.optional:
                break
            if not step.forced:
                raise IllegalAction("entry_missing", form.missing(step), step=step.name,
                                    seat=step.seat)
            value = step.choices[0]
        entry = form.choose(entry, value)
    return entry


def is_complete(form: EntryForm, entry: Any) -> bool:
    step = form.next_step(entry)
    return step is None or step.optional


def form_for(match: Match) -> EntryForm:
    """The entry form of the match's next deal."""
    if match.over:
        raise IllegalAction("game_over", "the game is over")
    form: EntryForm = match.spec.entry_form(match.rules, match.players,
                                            match.sheet.next_context())
    return form


def add_entry(match: Match, entry: Any) -> list[Event]:
    """Score an entered deal as the match's next deal; IllegalAction (why) changes nothing."""
    form = form_for(match)
    result = form.result(entry)
    record = {"dealer": form.dealer, **form.record_fields(), "entry": form.to_dict(entry)}
    return match.add_entered(record, result)


def add_record_deal(match: Match, deal: Mapping[str, Any]) -> list[Event]:
    """Score a record's entered deal (``{"dealer": d, "entry": {...}}``) on the match."""
    form = form_for(match)
    expected = {"dealer": form.dealer, **form.record_fields()}
    unknown = sorted(set(deal) - {*expected, "entry"})
    if unknown:
        raise RecordError(f"unknown field(s) of an entered deal: {', '.join(unknown)}")
    for key, value in expected.items():
        if key in deal and deal[key] != value:
            raise RecordError(f"{key} must be {value}, not {deal[key]!r}")
    if "dealer" not in deal:
        raise RecordError("an entered deal needs its dealer")
    entry = deal.get("entry")
    if not isinstance(entry, Mapping):
        raise RecordError("entry must be an object")
    return add_entry(match, form.from_dict(entry))


def rebuild(match: Match, entries: Sequence[Mapping[str, Any]]) -> Match:
    """A new match (same rules, players, first dealer) scoring ``entries`` (record form).

    Each deal's dealer comes from the sheet, as when it was entered (a Seep
    correction can change who deals later). The match given is not changed.
    IllegalAction names the first deal (from 1) that the rules now refuse, for
    example after an edit changed a raspasy state.
    """
    fresh = Match(match.spec, match.rules, match.players, match.first_dealer)
    for number, data in enumerate(entries, 1):
        try:
            add_entry(fresh, form_for(fresh).from_dict(data))
        except ActionError as exc:
            raise IllegalAction(exc.code, f"deal {number}: {exc}", deal=number) from None
    return fresh


def entries(match: Match) -> list[Mapping[str, Any]]:
    """Every deal's entry in record form; IllegalAction if a deal was played with the bot."""
    for number, deal in enumerate(match.deals, 1):
        if "entry" not in deal:
            raise IllegalAction("played_deal", f"deal {number} was played with the bot: only "
                                "entered deals can be undone or corrected", deal=number)
    return [deal["entry"] for deal in match.deals]


def undo(match: Match) -> Match:
    """The match without its last deal."""
    if not match.deals:
        raise IllegalAction("nothing_to_undo", "no deal has been entered yet")
    return rebuild(match, entries(match)[:-1])


def form_at(match: Match, number: int) -> EntryForm:
    """The entry form of deal ``number`` (from 1) as it stood, to enter a correction."""
    if not 1 <= number <= len(match.deals):
        raise IllegalAction("no_such_deal", f"there is no deal {number}: deals are 1 to "
                            f"{len(match.deals)}", deal=number)
    return form_for(rebuild(match, entries(match)[:number - 1]))


def edit(match: Match, number: int, entry: Any) -> Match:
    """The match with deal ``number`` (from 1) replaced by ``entry``, later deals rescored."""
    form = form_at(match, number)
    form.result(entry)  # refuse a wrong correction before rescoring anything
    given = entries(match)
    return rebuild(match, [*given[:number - 1], form.to_dict(entry), *given[number:]])
