"""Preferans deals entered by hand (scorekeeper mode): the entry, its steps, its result.

A table playing with real cards enters each deal's outcome. ``Form`` asks for
it step by step (``next_step`` / ``choose``: the valid choices at each step,
for buttons), checks every answer by the rules the engine plays by (the
whisting protocol of ``Whisting``, the contract ladder and the deal's opening
bid, the walk-away option) and turns the finished ``Entry`` into the
``DealResult`` that ``Scoresheet.add`` scores.

Steps, in order, each only where it applies:

- ``kind``: ``game``, ``miser``, ``raspasy``, ``walkaway`` (with the option).
- ``declarer``: an active seat (never the 4-player dealer).
- ``contract``: a trick contract from the deal's opening bid (raspasy states);
  for a walk-away the winning bid; for misère ``miser``.
- ``call``: the defenders' whist calls one by one (spec 6.3), the returned
  whist included; none for misère and a checked ten.
- ``talon``: the talon's quick tricks, 0-3 (10.9), with ``talon_premium`` on
  trick contracts.
- ``tricks``: only the counts scoring needs: two whisters, each whister's
  (the declarer's are the rest); one whister, a checked ten or misère, the
  declarer's; raspasy, every participant's (the 4-player dealer's talon
  tricks under ``lead_two``); none for an unplayed contract or a walk-away.
- ``open``: the lone whister's open or closed play (optional, informational).

``Draft`` is a looser description of the same deal, as the text form and
records give it (any trick counts, "made", "down 2", each defender's calls);
``Form.complete`` drives it through the same steps into the same ``Entry``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import IllegalAction, MalformedAction
from engine.manual import EntryForm, Step, accepts, fill
from engine.preferans.bids import MISER, TRICK_BIDS, bid_rank, display, level, normalize
from engine.preferans.manual_text import GAME, MISERE, RASPASY, WALKAWAY, Draft, parse_draft
from engine.preferans.result import DealContext, DealResult
from engine.preferans.rules import Rules
from engine.preferans.whisting import Whisting

KINDS = (GAME, MISERE, RASPASY, WALKAWAY)
TRICKS = 10
TALON_TRICKS = 2  # the 4-player dealer's talon cards win at most two tricks (spec 9)
QUICK_TRICKS = (0, 1, 2, 3)
# A talon with q quick tricks (10.9): the DealResult carries cards, the entry only q.
TALON_OF_UNITS = {0: ("7S", "8C"), 1: ("AS", "7C"), 2: ("AS", "KS"), 3: ("AS", "AC")}


@dataclass(frozen=True)
class Entry:
    """One deal as entered; every field is set by its step (None or empty: not yet).

    ``calls`` are the whist calls in order; ``tricks`` the (seat, count)
    pairs scoring needs, in step order; ``talon`` the talon's quick tricks.
    """

    kind: str | None = None
    declarer: int | None = None
    contract: str | None = None
    calls: tuple[tuple[int, str], ...] = ()
    talon: int | None = None
    tricks: tuple[tuple[int, int], ...] = ()
    open: bool | None = None


class Form(EntryForm):
    """The entry of one deal, in the context the scoresheet gives it (dealer, raspasy state)."""

    rules: Rules
    context: DealContext

    def __init__(self, rules: Rules, players: Sequence[str], context: DealContext) -> None:
        super().__init__(rules, players, context)
        self.n = rules.players
        self.active = tuple((self.dealer + i) % self.n for i in range(1, 4))

    # -- steps ------------------------------------------------------------------------

    def empty(self) -> Entry:
        return Entry()

    def next_step(self, entry: Entry) -> Step | None:
        """The next question and its valid answers; None when everything is entered."""
        if entry.kind is None:
            kinds = KINDS if self.rules.walkaway else KINDS[:-1]
            return Step("kind", None, kinds)
        if entry.kind != RASPASY:
            if entry.declarer is None:
                return Step("declarer", None, self.active)
            if entry.contract is None:
                return Step("contract", entry.declarer, self._contracts(entry.kind))
            whisting = self._whisting(entry)
            if whisting is not None and whisting.turn is not None:
                return Step("call", whisting.turn, tuple(whisting.legal(whisting.turn)))
            if self._pays_talon(entry) and entry.talon is None:
                return Step("talon", entry.declarer, QUICK_TRICKS)
        done = dict(entry.tricks)
        seats = self._trick_seats(entry)
        for i, (seat, cap) in enumerate(seats):
            if seat not in done:
                return Step("tricks", seat, self._trick_choices(entry, seats[i:], cap))
        lone = self._lone_whister(entry)
        if lone is not None and entry.open is None:
            return Step("open", lone, (True, False), optional=True)
        return None

    def choose(self, entry: Entry, value: Any) -> Entry:
        """The entry with the next step answered; IllegalAction (why) if the answer is not valid."""
        step = self.pending(entry)
        value = _canonical(step.name, value)
        if not accepts(step, value):
            raise self._refusal(entry, step, value)
        if step.name == "call":
            return replace(entry, calls=(*entry.calls, (step.seat, value)))
        if step.name == "tricks":
            return replace(entry, tricks=(*entry.tricks, (step.seat, value)))
        return replace(entry, **{step.name: value})

    # -- drafts and records -----------------------------------------------------------

    def complete(self, draft: Draft) -> Entry:
        """Drive a draft through the steps: the same Entry the buttons give, or why not."""
        calls = {seat: list(said) for seat, said in draft.calls.items()}
        tricks: dict[int, int] = {}

        def answer(step: Step, entry: Entry) -> Any:
            if step.name == "call":
                said = calls.get(step.seat if step.seat is not None else -1)
                return said.pop(0) if said else None
            if step.name == "tricks":
                if not tricks:
                    tricks.update(self._resolve_tricks(entry, draft))
                return tricks[step.seat if step.seat is not None else -1]
            if step.name == "talon":
                return 0 if draft.talon is None else draft.talon  # not given: no quick trick
            return getattr(draft, step.name)

        entry = fill(self, answer)
        self._check_unused(entry, draft, calls)
        return entry

    def to_dict(self, entry: Entry) -> dict[str, Any]:
        """The record form: ``calls`` as whist actions, ``tricks`` per seat (null: not needed)."""
        out: dict[str, Any] = {"kind": entry.kind}
        if entry.declarer is not None:
            out["declarer"] = entry.declarer
        if entry.contract is not None:
            out["contract"] = entry.contract
        if entry.calls:
            out["calls"] = [{"seat": s, "whist": c} for s, c in entry.calls]
        if entry.talon is not None:
            out["talon"] = entry.talon
        if entry.tricks:
            counts = dict(entry.tricks)
            out["tricks"] = [counts.get(s) for s in range(self.n)]
        if entry.open is not None:
            out["open"] = entry.open
        return out

    def from_dict(self, data: Mapping[str, Any]) -> Entry:
        """An entry from its record form, checked like any entry."""
        return self.complete(_draft_from_dict(data, self.n))


    def parse(self, text: str) -> Entry:
        """An entry from the one-line text form (``engine.preferans.manual_text``)."""
        return self.complete(parse_draft(text, self.players))

    def to_text(self, entry: Entry) -> str:
        """The entry in the text form (for history lines and to correct a deal by hand)."""
        counts = dict(entry.tricks)
        if entry.kind == RASPASY:
            return " ".join(["raspasy", *(f"{self.name(s)} {t}" for s, t in entry.tricks)])
        assert entry.declarer is not None and entry.contract is not None
        head = f"{entry.contract} {self.name(entry.declarer)}"
        if entry.kind == WALKAWAY:
            return f"walkaway {head}"
        if entry.kind == MISERE:
            head = f"miser {self.name(entry.declarer)}"
        if entry.declarer in counts:
            head += f" {counts[entry.declarer]}"
        parts = [head]
        said: dict[int, list[str]] = {}
        for seat, call in entry.calls:
            said.setdefault(seat, []).append(call)
        for seat in self._defenders(entry.declarer) if said else ():
            # one word per defender, as the text form reads it (a returned whist is "whist")
            word = next(w for w in ("halfwhist", "whist", "pass") if w in said[seat])
            parts.append(" ".join([self.name(seat), word, *([str(counts[seat])]
                                                             if seat in counts else [])]))
        if entry.talon:
            parts.append(f"talon {entry.talon}")
        if entry.open is not None:
            parts.append("open" if entry.open else "closed")
        return "; ".join(parts)

    # -- the result -------------------------------------------------------------------

    def result(self, entry: Entry) -> DealResult:
        """What scoring needs of the deal; IllegalAction if the entry is wrong or unfinished."""
        self.check(entry)
        whisting = self._whisting(entry)
        counts = dict(entry.tricks)
        tricks = [0] * self.n
        first = second = None
        d = entry.declarer
        if d is not None:
            first, second = self._defenders(d)
        if entry.kind == RASPASY:
            for seat, t in counts.items():
                tricks[seat] = t
        elif counts and d is not None and first is not None and second is not None:
            if d in counts:  # the side's remainder is shown on the whister (or first defender)
                rest_to = self._lone_whister(entry)
                tricks[d] = counts[d]
                tricks[first if rest_to is None else rest_to] = TRICKS - counts[d]
            else:
                tricks[first], tricks[second] = counts[first], counts[second]
                tricks[d] = TRICKS - counts[first] - counts[second]
        whisters = whisting.whisters if whisting is not None else ()
        played = entry.kind in (RASPASY, MISERE) or (
            entry.kind == GAME and (self._checked(entry) or bool(whisters)))
        return DealResult(
            kind=entry.kind or "",
            players=self.n,
            dealer=self.dealer,
            active=self.active,
            tricks=tuple(tricks),
            talon=TALON_OF_UNITS[entry.talon or 0],
            raspasy_state=self.context.raspasy_state,
            declarer=d,
            bid=entry.contract,
            contract=entry.contract,
            checked=self._checked(entry),
            first_defender=first,
            second_defender=second,
            calls=entry.calls,
            whisters=whisters,
            halfwhister=whisting.halfwhister if whisting is not None else None,
            returned=whisting.returned if whisting is not None else False,
            open=entry.open,
            played=played,
        )

    # -- what the rules allow ---------------------------------------------------------

    def _defenders(self, declarer: int) -> tuple[int, int]:
        i = self.active.index(declarer)
        return self.active[(i + 1) % 3], self.active[(i + 2) % 3]

    def _contracts(self, kind: str) -> tuple[str, ...]:
        if kind == MISERE:
            return (MISER,)
        low = bid_rank(self.context.min_bid)
        return tuple(b for b in TRICK_BIDS if bid_rank(b) >= low)

    def _checked(self, entry: Entry) -> bool:
        return (entry.kind == GAME and entry.contract is not None
                and level(entry.contract) == 10 and self.rules.ten_mode == "checked")

    def _whisting(self, entry: Entry) -> Whisting | None:
        """The whisting of a trick contract with the entry's calls so far, each checked."""
        if entry.kind != GAME or entry.contract is None or entry.declarer is None:
            return None
        if self._checked(entry):
            return None
        first, second = self._defenders(entry.declarer)
        forced = self.rules.stalingrad and entry.contract == "6S"
        whisting = Whisting(first, second, level(entry.contract), forced)
        for seat, call in entry.calls:
            if seat != whisting.turn:
                raise IllegalAction("call_order", f"it is not {self.name(seat)}'s call")
            whisting.apply(seat, whisting.check(seat, call))
        return whisting

    def _lone_whister(self, entry: Entry) -> int | None:
        whisting = self._whisting(entry)
        if whisting is None or whisting.turn is not None or len(whisting.whisters) != 1:
            return None
        return whisting.whisters[0]

    def _pays_talon(self, entry: Entry) -> bool:
        return self.rules.talon_premium and entry.kind == GAME

    def _participants(self) -> list[tuple[int, int]]:
        """Raspasy's trick takers with the most each can take: the 4-player dealer's talon."""
        seats = [(s, TRICKS) for s in self.active]
        if self.n == 4 and self.rules.raspasy_talon == "lead_two":
            seats.append((self.dealer, TALON_TRICKS))
        return seats

    def _trick_seats(self, entry: Entry) -> list[tuple[int, int]]:
        """The seats whose counts scoring needs, in step order, with their most tricks."""
        if entry.kind == RASPASY:
            return self._participants()
        d = entry.declarer
        if d is None or entry.contract is None:
            return []
        if entry.kind == MISERE or self._checked(entry):
            return [(d, TRICKS)]
        whisting = self._whisting(entry)
        if entry.kind != GAME or whisting is None or whisting.turn is not None:
            return []
        if len(whisting.whisters) == 2:
            return [(s, TRICKS) for s in self._defenders(d)]
        return [(d, TRICKS)] if whisting.whisters else []

    def _trick_choices(self, entry: Entry, todo: list[tuple[int, int]], cap: int,
                       ) -> tuple[int, ...]:
        """Counts for the first of ``todo``: raspasy's must leave a sum of exactly 10 possible."""
        left = TRICKS - sum(t for _, t in entry.tricks)
        later = sum(c for _, c in todo[1:]) if entry.kind == RASPASY else TRICKS
        return tuple(t for t in range(min(cap, left) + 1) if left - t <= later)

    # -- messages ---------------------------------------------------------------------

    def _refusal(self, entry: Entry, step: Step, value: Any) -> IllegalAction:
        """Why ``value`` does not answer ``step``."""
        if step.name == "call":
            whisting = self._whisting(entry)
            assert whisting is not None and step.seat is not None
            try:
                whisting.check(step.seat, str(value))
            except (IllegalAction, MalformedAction) as exc:
                return IllegalAction(exc.code, f"{self.name(step.seat)}: {exc.message}",
                                     seat=step.seat, **exc.params)
        elif step.name == "kind":
            if value == WALKAWAY:
                return IllegalAction("no_walkaway",
                                     "walking away is not allowed at this table (walkaway off)")
            return IllegalAction("bad_kind", f"'{value}' is not a kind of deal: "
                                 f"{', '.join(step.choices)}")
        elif step.name == "declarer":
            if value == self.dealer:
                return IllegalAction("dealer_sits_out", f"{self.name(self.dealer)} deals and "
                                     "sits out this deal: he cannot declare", seat=value)
            return IllegalAction("bad_seat", f"{value!r} is not a player of this deal")
        elif step.name == "contract":
            return self._bad_contract(entry, str(value))
        elif step.name == "talon":
            return IllegalAction("bad_talon", "the talon holds 0 to 3 quick tricks: an ace or "
                                 "a king-queen 1, ace-king 2, two aces 3")
        elif step.name == "tricks":
            assert step.seat is not None
            low, high = min(step.choices), max(step.choices)
            why = ("every trick is someone's: the counts add up to 10"
                   if entry.kind == RASPASY else "a deal has 10 tricks")
            return IllegalAction("bad_tricks", f"{self.name(step.seat)} cannot have taken "
                                 f"{value!r} tricks here: {low}-{high} ({why})",
                                 seat=step.seat, low=low, high=high)
        choices = ", ".join(str(c) for c in step.choices)
        return IllegalAction("bad_answer", f"{value!r} does not answer {step.name}: {choices}")

    def _bad_contract(self, entry: Entry, value: str) -> IllegalAction:
        if entry.kind == MISERE:
            return IllegalAction("bad_contract", "a misère deal's contract is miser")
        if value == MISER:
            reason = ("you cannot walk away from misère" if entry.kind == WALKAWAY
                      else "misère is a kind of deal of its own")
            return IllegalAction("bad_contract", reason)
        try:
            bid_rank(value)
        except ValueError:
            return IllegalAction("bad_contract", f"'{value}' is not a contract: 6S … 10NT")
        low = self.context.min_bid
        return IllegalAction(
            "contract_too_low", f"the contract cannot be below {display(low)} in raspasy "
            f"state {self.context.raspasy_state}", min_bid=low)

    def missing(self, step: Step) -> str:
        if step.name == "kind":
            return "what was played? a contract (like 7H), miser, raspasy or walkaway"
        if step.name == "declarer":
            return "who declared?"
        if step.name == "contract":
            return "which contract?"
        if step.name == "talon":
            return "how many quick tricks were in the talon? 0 to 3"
        assert step.seat is not None
        if step.name == "tricks":
            return f"how many tricks did {self.name(step.seat)} take?"
        return f"{self.name(step.seat)}'s call is missing: {' or '.join(step.choices)}"

    # -- driving a draft --------------------------------------------------------------

    def _check_unused(self, entry: Entry, draft: Draft, calls: dict[int, list[str]]) -> None:
        """Whatever the draft says that no step asked for is an error, not silently dropped."""
        if entry.kind == RASPASY and (draft.declarer is not None or draft.contract is not None):
            raise IllegalAction("unused", "raspasy has no declarer and no contract")
        for seat, said in calls.items():
            if said and self._checked(entry):
                raise IllegalAction("unused_call", "the ten is checked at this table "
                                    "(ten_mode checked): nobody calls whist or pass")
            if said:
                if entry.kind != GAME or seat == entry.declarer or seat not in self.active:
                    who = self.name(seat)
                    raise IllegalAction("unused_call", f"{who} cannot call whist or pass here: "
                                        "only the defenders of a trick contract do", seat=seat)
                raise IllegalAction("unused_call", f"{self.name(seat)}'s call "
                                    f"{' '.join(said)} does not fit the calls before it",
                                    seat=seat)
        if not self._trick_seats(entry) and (draft.tricks or draft.down is not None or (
                draft.made and entry.kind == WALKAWAY)):
            raise IllegalAction("no_tricks", "no cards were played in this deal "
                                "(walk-away, both passed or a half-whist stood): no trick counts")
        if draft.talon is not None and entry.talon is None:
            why = ("the talon premium is not played at this table (talon_premium off)"
                   if not self.rules.talon_premium else "the talon premium is only paid on "
                   "trick contracts")
            raise IllegalAction("unused_talon", why)
        if draft.open is not None and entry.open is None:
            raise IllegalAction("unused_open", "open or closed play is the lone whister's "
                                "choice: this deal has none")

    def _resolve_tricks(self, entry: Entry, draft: Draft) -> dict[int, int]:
        """The counts scoring needs, from whatever counts the draft gives (checked)."""
        seats = self._trick_seats(entry)
        caps = dict(self._participants()) if entry.kind == RASPASY else dict.fromkeys(
            self.active, TRICKS)
        known = dict(draft.tricks)
        for seat, t in known.items():
            if seat not in caps:
                raise IllegalAction("sits_out", f"{self.name(seat)} sits out this deal and "
                                    "takes no tricks", seat=seat)
            if not 0 <= t <= caps[seat]:
                raise IllegalAction("bad_tricks", f"{self.name(seat)} cannot have taken {t} "
                                    f"tricks (0-{caps[seat]})", seat=seat)
        self._declarer_outcome(entry, draft, known)
        total = sum(known.values())
        missing = [s for s in caps if s not in known]
        if total > TRICKS:
            raise IllegalAction("tricks_sum", f"the tricks add up to {total}, more than 10")
        if len(missing) == 1:
            if TRICKS - total > caps[missing[0]]:
                raise IllegalAction("tricks_sum", f"the tricks add up to {total}: "
                                    f"{self.name(missing[0])} cannot have taken the other "
                                    f"{TRICKS - total}")
            known[missing[0]] = TRICKS - total
        elif not missing and total != TRICKS:
            raise IllegalAction("tricks_sum", f"the tricks add up to {total}, not 10")
        lone = self._lone_whister(entry)
        d = entry.declarer
        if lone is not None and d is not None and d not in known and lone in known:
            known[d] = TRICKS - known[lone]  # the lone whister's count stands for his side
        lacking = [s for s, _ in seats if s not in known]
        if lacking:
            names = " and ".join(self.name(s) for s in lacking)
            raise IllegalAction("tricks_missing", f"how many tricks did {names} take?")
        if draft.made and entry.kind == GAME and d is not None and entry.contract is not None:
            need = level(entry.contract)
            if known[d] < need:
                tricks = "trick" if known[d] == 1 else "tricks"
                raise IllegalAction("not_made", f"{self.name(d)} took {known[d]} {tricks}: "
                                    f"{display(entry.contract)} is down {need - known[d]}, not "
                                    "made")
        return {s: known[s] for s, _ in seats}

    def _declarer_outcome(self, entry: Entry, draft: Draft, known: dict[int, int]) -> None:
        """Turn "made" and "down n" into the declarer's count where they fix it."""
        d, contract = entry.declarer, entry.contract
        if entry.kind == RASPASY:
            if draft.made or draft.down is not None:
                raise IllegalAction("no_declarer", "raspasy has no declarer: give each "
                                    "player's tricks")
            return
        assert d is not None and contract is not None
        taken: int | None = None
        if draft.down is not None:
            # "misère down two" is two tricks taken
            taken = draft.down if entry.kind == MISERE else level(contract) - draft.down
            if draft.down < 1 or taken < 0:
                raise IllegalAction("bad_down", f"down {draft.down} is impossible at "
                                    f"{display(contract)}")
        elif draft.made and entry.kind == MISERE:
            taken = 0
        elif draft.made and level(contract) == TRICKS:
            taken = TRICKS
        if taken is None:
            return
        if known.get(d, taken) != taken:
            raise IllegalAction("tricks_conflict", f"{self.name(d)}'s tricks: {known[d]} does "
                                f"not agree with {'made' if draft.made else 'down'}")
        known[d] = taken


def _canonical(step: str, value: Any) -> Any:
    """Answers as the steps list them: contracts upper-case (``miser``), words lower-case."""
    if not isinstance(value, str):
        return value
    if step == "contract":
        return normalize(value)  # upper case, MISER for miser/misere
    if step in ("kind", "call"):
        return value.strip().lower()
    return value


def _draft_from_dict(data: Mapping[str, Any], n: int) -> Draft:
    """A record entry's fields, type-checked (the steps check the rest)."""
    if not isinstance(data, Mapping):
        raise MalformedAction("bad_entry", "an entry must be an object")
    unknown = sorted(set(data) - {"kind", "declarer", "contract", "calls", "talon", "tricks",
                                  "open"})
    if unknown:
        raise MalformedAction("bad_entry", f"unknown entry field(s): {', '.join(unknown)}")
    draft = Draft(
        kind=_typed(data, "kind", str), declarer=_typed(data, "declarer", int),
        contract=_typed(data, "contract", str), talon=_typed(data, "talon", int),
        open=_typed(data, "open", bool))
    for item in data.get("calls", []):
        if (not isinstance(item, Mapping) or set(item) != {"seat", "whist"}
                or type(item["seat"]) is not int or not isinstance(item["whist"], str)):
            raise MalformedAction("bad_entry", 'calls must be objects {"seat": s, "whist": call}')
        draft.calls.setdefault(item["seat"], []).append(item["whist"])
    tricks = data.get("tricks", [None] * n)
    if not isinstance(tricks, list) or len(tricks) != n or not all(
            t is None or type(t) is int for t in tricks):
        raise MalformedAction("bad_entry", f"tricks must list {n} counts (null: not needed)")
    draft.tricks = {s: t for s, t in enumerate(tricks) if t is not None}
    return draft


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if value is not None and type(value) is not kind:
        raise MalformedAction("bad_entry", f"entry field {key} has the wrong type")
    return value
