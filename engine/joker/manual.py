"""Joker deals entered by hand (scorekeeper mode): trump, bids and tricks per seat.

Steps (``engine.manual.Step``), in order:

- ``trump``: ``S``, ``C``, ``D``, ``H`` or ``NT`` (informational; ``NT`` only
  in 9-card deals under ``nine_card_trump = no_trump``); the seat is the
  chooser in chosen-trump deals.
- ``bid``: each seat in bidding order, from the dealer's left to the dealer,
  with the bids a deal's ``State`` allows: the dealer's forbidden bid
  (``dealer_restriction``) and ``pass_limit`` are refused by the same code.
- ``tricks``: each seat in the same order, 0 to the deal's cards; the counts
  add up to the cards per player (the last one is forced).

The result is the ``DealResult`` that Joker's ``Scoresheet`` scores; the
sheet computes pulka premiums itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import ActionError, IllegalAction, MalformedAction
from engine.joker.actions import SUITS, trump_text
from engine.joker.result import DealContext, DealResult
from engine.joker.rules import Rules
from engine.joker.state import State
from engine.manual import EntryForm, Step, accepts, fill

TRUMPS = (*(trump_text(s) for s in SUITS), trump_text(None))


@dataclass(frozen=True)
class Entry:
    """One deal as entered: (seat, bid) and (seat, tricks) pairs in bidding order."""

    trump: str | None = None
    bids: tuple[tuple[int, int], ...] = ()
    tricks: tuple[tuple[int, int], ...] = ()


class Form(EntryForm):
    """The entry of one Joker deal in the context the sheet gives (number, cards, dealer)."""

    rules: Rules
    context: DealContext

    def __init__(self, rules: Rules, players: Sequence[str], context: DealContext) -> None:
        super().__init__(rules, players, context)
        self.cards = context.cards
        n = rules.players
        self.order = tuple((self.dealer + i) % n for i in range(1, n + 1))  # the dealer last

    def empty(self) -> Entry:
        return Entry()

    def next_step(self, entry: Entry) -> Step | None:
        if entry.trump is None:
            chooser = self.order[0] if self.context.trump_mode == "chooser" else None
            trumps = ("NT",) if self.context.trump_mode == "no_trump" else TRUMPS
            return Step("trump", chooser, trumps)
        if len(entry.bids) < len(self.order):
            seat = self.order[len(entry.bids)]
            return Step("bid", seat, tuple(self._bidding(entry).legal_bids(seat)))
        if len(entry.tricks) < len(self.order):
            seat = self.order[len(entry.tricks)]
            left = self.cards - sum(t for _, t in entry.tricks)
            last = len(entry.tricks) == len(self.order) - 1
            return Step("tricks", seat, (left,) if last else tuple(range(left + 1)))
        return None

    def choose(self, entry: Entry, value: Any) -> Entry:
        """The entry with the next step answered; IllegalAction (why) if it is not valid."""
        step = self.pending(entry)
        if isinstance(value, str):
            value = value.strip().upper()
        if not accepts(step, value):
            raise self._refusal(entry, step, value)
        if step.name == "trump":
            return replace(entry, trump=value)
        pair = ((step.seat, value),)
        if step.name == "bid":
            return replace(entry, bids=entry.bids + pair)
        return replace(entry, tricks=entry.tricks + pair)

    def missing(self, step: Step) -> str:
        if step.name == "trump":
            return "which trump? S, C, D, H or NT"
        assert step.seat is not None
        return f"{self.name(step.seat)}'s {'bid' if step.name == 'bid' else 'tricks'}?"

    def result(self, entry: Entry) -> DealResult:
        """What the sheet scores; IllegalAction if the entry is unfinished or wrong."""
        self.check(entry)
        bids, tricks = dict(entry.bids), dict(entry.tricks)
        assert entry.trump is not None
        seats = range(len(self.order))
        return DealResult(self.context.number, self.context.pulka, self.cards, self.dealer,
                          entry.trump, tuple(bids[s] for s in seats),
                          tuple(tricks[s] for s in seats))

    def to_dict(self, entry: Entry) -> dict[str, Any]:
        """The record form: ``trump``, and ``bids`` and ``tricks`` one per seat."""
        out: dict[str, Any] = {"trump": entry.trump}
        for key, pairs in (("bids", entry.bids), ("tricks", entry.tricks)):
            given = dict(pairs)
            out[key] = [given.get(s) for s in range(len(self.order))]
        return out

    def from_dict(self, data: Mapping[str, Any]) -> Entry:
        """An entry from its record form, checked step by step (a missing last count is forced)."""
        if not isinstance(data, Mapping) or set(data) - {"trump", "bids", "tricks"}:
            raise MalformedAction("bad_entry", "a Joker entry has trump, bids and tricks")
        n = len(self.order)
        lists = {key: data.get(key, [None] * n) for key in ("bids", "tricks")}
        for key, values in lists.items():
            if not isinstance(values, list) or len(values) != n or not all(
                    v is None or type(v) is int for v in values):
                raise MalformedAction("bad_entry", f"{key} must list {n} whole numbers")
        trump = data.get("trump")
        if trump is not None and not isinstance(trump, str):
            raise MalformedAction("bad_entry", "trump must be S, C, D, H or NT")

        def answer(step: Step, entry: Entry) -> Any:
            if step.name == "trump":
                return trump
            values = lists["bids" if step.name == "bid" else "tricks"]
            return values[step.seat if step.seat is not None else 0]

        return fill(self, answer)

    def record_fields(self) -> dict[str, Any]:
        return {"cards": self.cards}

    # -- checks ---------------------------------------------------------------------

    def _bidding(self, entry: Entry) -> State:
        """The deal's own bidding rules, fed the bids so far (no cards are needed to bid)."""
        state = State(self.rules, self.players, self.context,
                      [[] for _ in self.order], None)
        if state.phase == "trump":
            state.apply(self.order[0], f"trump:{entry.trump}")
        for seat, bid in entry.bids:
            state.apply(seat, f"bid:{bid}")
        return state

    def _refusal(self, entry: Entry, step: Step, value: Any) -> ActionError:
        name = self.name(step.seat) if step.seat is not None else ""
        if step.name == "trump":
            return IllegalAction("bad_trump", f"the trump is one of {', '.join(step.choices)}, "
                                 f"not {value!r}")
        if step.name == "bid":
            assert step.seat is not None
            if type(value) is not int or value < 0:
                return IllegalAction("bad_bid", f"{name}'s bid is a number of tricks, 0 to "
                                     f"{self.cards}")
            try:
                self._bidding(entry).apply(step.seat, f"bid:{value}")
            except ActionError as exc:
                return IllegalAction(exc.code, f"{name}: {exc.message}", seat=step.seat,
                                     **exc.params)
        low, high = min(step.choices), max(step.choices)
        return IllegalAction("bad_tricks", f"{name} cannot have taken {value!r} tricks here: "
                             f"{low}-{high} (the tricks add up to {self.cards})",
                             seat=step.seat, low=low, high=high)
