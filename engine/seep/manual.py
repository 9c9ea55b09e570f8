"""Seep deals entered by hand (scorekeeper mode): each team's card points and sweeps.

Teams are NS (seats 0, 2) and EW (1, 3); with two players, seat 0 and seat 1.
Steps (``engine.manual.Step``; team steps carry the team index as ``seat``):

- ``bid``: the bidder's bid, 9-13 (the bidder is ``next(dealer)``).
- ``points``: each team's card points; they add up to the pack's 100 (96 with
  ``ten_of_diamonds_points = 2``), so the second is forced.
- ``cards``: each team's captured cards, only with a ``majority_bonus``; they
  add up to 52, and a team with card points has at least one.
- ``first_sweep``: 1 if the bidder swept on play 1, else 0.
- ``last_sweep``: 1 if the dealer swept on play 48 (worth 0), else 0.
- ``sweeps``: each team's other sweeps (plays 2-47).

Sweeps as the spec allows (sections 7, 16.4.3): only the bidder plays #1
and only the dealer plays #48; after a sweep the floor is empty and the next
player can only throw, so no two plays in a row sweep: the bidder's team
sweeps on odd plays, the other team on even plays, at most 24 in a deal;
with ``sweep_cancel`` a team holds at most 2 counted sweeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import IllegalAction, MalformedAction
from engine.manual import EntryForm, Step, accepts, fill
from engine.seep.pack import seep_deck
from engine.seep.result import DealContext, DealResult
from engine.seep.rules import Rules
from engine.seep.values import points

BIDS = (9, 10, 11, 12, 13)
PACK = 52
PLAYS = 48
CANCEL_LIMIT = 2  # sweep_cancel: counted sweeps a team may hold
# the record form's key of each step's answer; team steps take a list [NS, EW]
RECORD_KEYS = {"bid": "bid", "points": "card_points", "cards": "card_counts",
               "first_sweep": "first_sweep", "last_sweep": "last_sweep", "sweeps": "sweeps"}
TEAM_STEPS = ("points", "cards", "sweeps")


@dataclass(frozen=True)
class Entry:
    """One deal as entered; the per-team tuples fill NS (or seat 0) first."""

    bid: int | None = None
    points: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    first_sweep: int | None = None
    last_sweep: int | None = None
    sweeps: tuple[int, ...] = ()


class Form(EntryForm):
    """The entry of one Seep deal in the context the ledger gives (dealer, lead)."""

    rules: Rules
    context: DealContext

    def __init__(self, rules: Rules, players: Sequence[str], context: DealContext) -> None:
        super().__init__(rules, players, context)
        self.bidder = rules.next_seat(self.dealer)
        self.bidder_team = rules.team(self.bidder)
        self.total = sum(points(c, rules.ten_of_diamonds_points) for c in seep_deck())

    def empty(self) -> Entry:
        return Entry()

    def next_step(self, entry: Entry) -> Step | None:
        if entry.bid is None:
            return Step("bid", self.bidder, BIDS)
        if len(entry.points) < 2:
            return self._split("points", entry.points, self.total)
        if self.rules.majority_bonus and len(entry.cards) < 2:
            # a team with card points captured a card at least
            low, high = int(entry.points[0] > 0), PACK - int(entry.points[1] > 0)
            return self._split("cards", entry.cards, PACK, range(low, high + 1))
        if entry.first_sweep is None:
            return Step("first_sweep", self.bidder, (0, 1))
        if entry.last_sweep is None:
            return Step("last_sweep", self.dealer, (0, 1))
        if len(entry.sweeps) < 2:
            team = len(entry.sweeps)
            most = min(self._team_cap(entry, team), self._deal_cap(entry) - sum(entry.sweeps))
            return Step("sweeps", team, tuple(range(most + 1)))
        return None

    def choose(self, entry: Entry, value: Any) -> Entry:
        """The entry with the next step answered; IllegalAction (why) if it is not valid."""
        step = self.pending(entry)
        if not accepts(step, value):
            raise IllegalAction(f"bad_{step.name}", self._why(step, value), step=step.name,
                                seat=step.seat)
        if step.name in ("points", "cards", "sweeps"):
            return replace(entry, **{step.name: (*getattr(entry, step.name), value)})
        return replace(entry, **{step.name: value})

    def missing(self, step: Step) -> str:
        if step.name == "bid":
            return "what did the bidder bid? 9 to 13"
        team = self._team_name(step.seat if step.seat is not None else 0)
        return {"points": f"{team}'s card points?", "cards": f"{team}'s captured cards?",
                "sweeps": f"{team}'s sweeps?"}.get(step.name, f"{step.name}?")

    def result(self, entry: Entry) -> DealResult:
        """What the ledger scores; IllegalAction if the entry is unfinished or wrong."""
        self.check(entry)
        sweeps = self._sweeps(entry)
        cards = entry.cards or (0, 0)
        return DealResult(self.dealer, self.bidder, entry.bid, (entry.points[0], entry.points[1]),
                          (cards[0], cards[1]), (sweeps[0], sweeps[1]))

    def to_dict(self, entry: Entry) -> dict[str, Any]:
        """The record form: the steps' answers; per-team lists NS (seat 0) first."""
        out: dict[str, Any] = {}
        for step, key in RECORD_KEYS.items():
            value = getattr(entry, step)
            if value not in (None, ()):
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    def from_dict(self, data: Mapping[str, Any]) -> Entry:
        """An entry from its record form, checked step by step."""
        if not isinstance(data, Mapping) or set(data) - set(RECORD_KEYS.values()):
            raise MalformedAction("bad_entry", "a Seep entry has "
                                  f"{', '.join(RECORD_KEYS.values())}")
        for step in TEAM_STEPS:
            value = data.get(RECORD_KEYS[step], [None, None])
            if not isinstance(value, list) or len(value) != 2 or not all(
                    v is None or type(v) is int for v in value):
                raise MalformedAction("bad_entry", f"{RECORD_KEYS[step]} must be two whole "
                                      "numbers (NS, EW)")

        def answer(step: Step, entry: Entry) -> Any:
            value = data.get(RECORD_KEYS[step.name])
            if step.name in TEAM_STEPS and value is not None:
                return value[step.seat or 0]
            return value

        return fill(self, answer)


    # -- what the spec allows -----------------------------------------------------------

    def _split(self, name: str, given: tuple[int, ...], total: int,
               first: range | None = None) -> Step:
        """A per-team count adding up to ``total``: the second team's is forced."""
        if not given:
            return Step(name, 0, tuple(first or range(total + 1)))
        return Step(name, 1, (total - given[0],))

    def _team_cap(self, entry: Entry, team: int) -> int:
        """Plays 2-47 a team can sweep: odd ones for the bidder's team, even ones otherwise."""
        assert entry.first_sweep is not None and entry.last_sweep is not None
        if team == self.bidder_team:
            cap = (PLAYS - 2) // 2 - entry.last_sweep  # plays 3, 5 … 47 (47 not after a 48)
            own = entry.first_sweep
        else:
            cap = (PLAYS - 2) // 2 - entry.first_sweep  # plays 2, 4 … 46 (2 not after a 1)
            own = entry.last_sweep
        return min(cap, CANCEL_LIMIT - own) if self.rules.sweep_cancel else cap

    def _deal_cap(self, entry: Entry) -> int:
        """Sweeps on plays 2-47 in all: no two plays in a row sweep."""
        assert entry.first_sweep is not None and entry.last_sweep is not None
        return (PLAYS - 2) // 2 - (entry.first_sweep and entry.last_sweep)

    def _sweeps(self, entry: Entry) -> list[tuple[int, int, int]]:
        out = []
        for team in (0, 1):
            first = entry.first_sweep if team == self.bidder_team else 0
            last = entry.last_sweep if team == self.rules.team(self.dealer) else 0
            out.append((entry.sweeps[team], first or 0, last or 0))
        return out

    def _team_name(self, team: int) -> str:
        if self.rules.players == 2:
            return self.name(team)
        return ("NS", "EW")[team]

    def _why(self, step: Step, value: Any) -> str:
        low, high = min(step.choices), max(step.choices)
        if step.name == "bid":
            return f"a bid is 9 to 13, not {value!r}"
        team = self._team_name(step.seat if step.seat is not None else 0)
        if step.name == "points":
            return (f"{team}'s card points: {value!r} is not possible, {low}-{high} (the card "
                    f"points of a deal add up to {self.total})")
        if step.name == "cards":
            return (f"{team}'s captured cards: {low}-{high} (the pack has 52, and a team with "
                    "card points captured some)")
        if step.name == "sweeps":
            cancel = "; a team holds 2 at most (sweep_cancel)" if self.rules.sweep_cancel else ""
            return (f"{team} cannot have {value!r} more sweeps: {low}-{high} (no two plays in "
                    f"a row sweep{cancel})")
        who = self.name(step.seat) if step.seat is not None else ""
        return f"{who}: {step.name.replace('_', ' ')} is 0 or 1, not {value!r}"
