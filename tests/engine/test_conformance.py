"""One conformance suite for every game of ``engine.games.GAMES`` (OpenSpiel's random
simulation test): seeded random deals over a spread of each game's Rules.

The spread (``CASES``) is built from the Rules classes themselves: every value of every
option at least once (options without a list of values take the samples in ``SAMPLES``),
over every player count (Preferans 3 and 4, Seep 4 and 2, Joker 4, 3 and 2), plus the
combinations that decide raspasy leaders and seeded random mixes of options. A new
option is covered without touching this file; an option without values or samples
fails ``test_every_option_value_is_covered``.

At every step of every deal:

- ``legal_actions(seat)`` is non-empty exactly for the seats in ``to_act``, and
  ``check`` accepts every listed action;
- a referee written here from the specs, sharing no rule code with the engine,
  predicts who acts, the legal plays (Preferans follow/trump, the checked ten, misère,
  raspasy, claims and their answers; Joker follow, trump and joker declarations; Seep
  captures, builds, cements, breaks, throws and the bid move) and every trick's winner
  or move's effect on the floor, and keeps its own trick counts, sweeps and card points;
- cards are conserved.

At sampled steps (``DEEP``), and at every step of a case's first deal:

- unlisted actions (malformed, wrong seat, wrong phase, cards not held, and any other
  action of the game's vocabulary) are refused by ``check`` and ``apply`` with the same
  typed ActionError, and the whole state (pickled) is unchanged, its version included;
- every listed action applies (on a copy);
- ``view(seat)`` lists the seat's legal actions, and shows no card the seat may not
  know; ``view(None)`` shows no hand and no concealed card.

After every deal the settlement sums to zero (Seep: the card points sum to the pack's
100, or 96); after every match, at the end of a case and once in the middle of a deal,
the record survives a JSON round trip and replays to the same report and record.

Size: 125 Rules cases (60 Preferans, 40 Joker, 25 Seep) and 3,550 deals (1,800, 1,600
and 150: ``DEALS`` per case), about 110,000 steps, among them some 350 raspasy deals and
200 checked tens; about 60-70 s of CPU in all, spread by pytest-xdist.
``test_suite_size`` keeps these numbers honest.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.base import (
    ActionError,
    Event,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RulesBase,
    RulesError,
    WrongPhase,
)
from engine.cards import parse_card
from engine.games import GAMES
from engine.match import Match
from engine.records import replay
from engine.seep.floor import House
from engine.seep.notation import parse_action as seep_parse
from engine.seep.notation import to_move
from tests.seep.oracle import oracle_moves

TYPED = (NotYourTurn, WrongPhase, MalformedAction, IllegalAction)
DEEP = {"preferans": 0.15, "joker": 0.12, "seep": 0.05}  # share of steps fully checked
DEALS = {"preferans": 30, "joker": 40, "seep": 6}  # per Rules case

# Free-valued options (no list of choices in the Rules class): the values tried.
SAMPLES: dict[str, dict[str, tuple[Any, ...]]] = {
    "preferans": {"pool": (1, 4), "rostov_raspasy_rate": (5, 3), "help_rate": (0, 25)},
    "joker": {"pass_limit": ("none", 1, 3)},
    "seep": {"bazzis": (1, 3)},
}
# What every case starts from (a small pool or match, so that whole games end), rotated.
BASES: dict[str, list[dict[str, Any]]] = {
    "preferans": [{"variant": v, "players": p, "pool": 4}
                  for p in (3, 4) for v in ("sochi", "leningrad", "rostov")],
    "joker": [{"players": p, "schedule": s}
              for s in ("short", "nines", "standard") for p in (4, 3, 2)],
    "seep": [{"players": p, "bazzi_target": 100} for p in (4, 2)],
}
# The combinations that decide raspasy leaders (spec 9, 17.3) and the checked ten (6.5).
EXTRA: dict[str, list[dict[str, Any]]] = {
    "preferans": [
        {"variant": v, "players": p, "pool": 4, "raspasy_talon": t, "raspasy_mode": m}
        for v in ("sochi", "leningrad", "rostov") for p in (3, 4)
        for t, m in (("lead_two", "mountain"), ("unused", "mountain"), ("unused", "whists"))
    ] + [{"variant": v, "players": p, "pool": 4, "ten_mode": "checked"}
         for v in ("sochi", "rostov") for p in (3, 4)],
    "joker": [], "seep": [],
}
MIXES = {"preferans": 8, "joker": 8, "seep": 6}  # random combinations of every option


def _values(game: str, f: dataclasses.Field[Any]) -> tuple[Any, ...]:
    choices = f.metadata.get("choices")
    return tuple(choices) if choices is not None else SAMPLES[game][f.name]


def _valid(rules_cls: type[RulesBase], data: dict[str, Any]) -> RulesBase | None:
    try:
        return rules_cls.from_dict(data)
    except RulesError:
        return None


def rules_spread(game: str) -> list[dict[str, Any]]:
    """Rules dicts covering every option value at least once (see the module docstring)."""
    rules_cls = GAMES[game].rules
    bases = BASES[game]
    wanted = [*bases, *EXTRA[game]]
    fields = dataclasses.fields(rules_cls)
    i = 0
    for f in fields:
        for value in _values(game, f):
            for k in range(len(bases)):  # the next base that allows this value
                data = {**bases[(i + k) % len(bases)], f.name: value}
                if _valid(rules_cls, data) is not None:
                    wanted.append(data)
                    i += 1
                    break
    rng = random.Random(f"mix/{game}")
    target = len(wanted) + MIXES[game]
    while len(wanted) < target:
        data = {**rng.choice(bases), **{f.name: rng.choice(_values(game, f)) for f in fields
                                        if f.name not in ("pool", "bazzis", "schedule")}}
        if _valid(rules_cls, data) is not None:
            wanted.append(data)
    cases, seen = [], set()
    for data in wanted:
        rules = rules_cls.from_dict(data)
        key = json.dumps(rules.to_dict(), sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append(data)
    return cases


CASES = [(game, n, data) for game in sorted(GAMES) for n, data in enumerate(rules_spread(game))]


def test_every_option_value_is_covered() -> None:
    for game, spec in GAMES.items():
        covered = [spec.rules.from_dict(d).to_dict() for g, _, d in CASES if g == game]
        for f in dataclasses.fields(spec.rules):
            for value in _values(game, f):
                assert any(c[f.name] == value for c in covered), (game, f.name, value)
        players = {c["players"] for c in covered}
        assert players == {"preferans": {3, 4}, "joker": {2, 3, 4}, "seep": {2, 4}}[game]


def test_suite_size() -> None:
    """The numbers the module docstring gives."""
    per_game = Counter(g for g, _, _ in CASES)
    deals = {g: per_game[g] * DEALS[g] for g in per_game}
    assert deals["preferans"] >= 1500 and deals["joker"] >= 1500 and deals["seep"] >= 140
    assert sum(deals.values()) <= 4000 and sum(per_game.values()) >= 120


# -- cards, written from the specs ------------------------------------------------------

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
ORDER = {r: i for i, r in enumerate(RANKS)}
CARD = re.compile(r"(10|[2-9JQKA])[SCDH]|JK")
PREFERANS_DECK = [r + s for s in "SCDH" for r in RANKS[5:]]  # 7 to A (spec 2)
JOKER_DECK = [r + s for s in "HD" for r in RANKS[4:]] + [r + s for s in "SC" for r in RANKS[5:]]
JOKER_DECK += ["JK", "JK"]  # the black sixes replaced by two jokers (joker spec 2)
SEEP_DECK = [r + s for s in "SCDH" for r in RANKS]


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return ORDER[card[:-1]]


def highest(cards: list[str]) -> str:
    return max(cards, key=rank)


# Keys whose strings are bids or contracts ("7S" is also a card), and actions naming no card.
NOT_CARDS = {"bids", "high_bid", "contract", "min_bid", "whists"}
NO_CARD_ACTIONS = ("bid:", "contract:", "whist:", "open:", "trump:")
CARD_IN_JSON = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SCDH](?![0-9A-Za-z])|JK")


def cards_in(view: dict[str, Any]) -> set[str]:
    """Every card named anywhere in a view."""
    doc = {k: v for k, v in view.items() if k not in NOT_CARDS}
    doc["actions"] = {s: [a for a in acts if not a.startswith(NO_CARD_ACTIONS)]
                      for s, acts in view.get("actions", {}).items()}
    return set(CARD_IN_JSON.findall(json.dumps(doc)))


def strs(cards: Any) -> list[str]:
    return [str(c) for c in cards]


# -- referees ----------------------------------------------------------------------------


class Referee:
    """What a game's spec says, tracked independently of the engine's rule code."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.n: int = rules.players

    def new_match(self, match: Match) -> None:
        """A new game starts."""

    def start(self, state: Any) -> None:
        """A new deal starts."""

    def before(self, state: Any, seat: int, legal: list[str]) -> None:
        """Check who acts and what is legal, before ``seat`` acts."""

    def after(self, state: Any, seat: int, action: str, events: list[Event]) -> None:
        """Follow the action; check its effect."""

    def end(self, state: Any, output: dict[str, Any]) -> None:
        """The deal is over and scored."""

    def hidden(self, state: Any, seat: int | None) -> set[str]:
        """The cards ``seat`` may not know now."""
        return set()

    def conserved(self, state: Any) -> None:
        """Every card is somewhere, once."""


STRAINS = ("S", "C", "D", "H", "NT")
LADDER = [f"{lv}{s}" for lv in (6, 7, 8) for s in STRAINS] + ["miser"] + [
    f"{lv}{s}" for lv in (9, 10) for s in STRAINS]  # spec 4.1
MISER = LADDER.index("miser")


class PreferansAuction:
    """Spec 4.2-4.4 and 17.1: whose call it is and which calls are legal."""

    def __init__(self, rules: Any, active: list[int], dealer: int, min_bid: str) -> None:
        self.rules, self.active, self.dealer = rules, active, dealer
        self.min = LADDER.index(min_bid)
        self.turn = active[0]
        self.passed: set[int] = set()
        self.spoke: set[int] = set()
        self.misers: set[int] = set()
        self.high: int | None = None
        self.holder: int | None = None

    def _left(self) -> list[int]:
        return [s for s in self.active if s not in self.passed]

    def _senior(self, seats: list[int]) -> int:
        return min(seats, key=self.active.index)

    def _behind_passer(self, seat: int) -> bool:
        right = (seat - 1) % self.rules.players
        return right in self.passed or (self.rules.players == 4 and right == self.dealer)

    def legal(self, seat: int) -> set[str]:
        rules, high, left = self.rules, self.high, self._left()
        against_trick_bid = high is not None and high != MISER and self.holder != seat
        restricted = False  # seed_literal: "here" or pass only
        if rules.here_rule == "seed_literal" and against_trick_bid and self._behind_passer(seat):
            deadlock = len(left) == 2 and all(self._behind_passer(s) for s in left)
            restricted = not deadlock or seat == self._senior(left)
        calls = {"pass"}
        if against_trick_bid and seat not in self.misers and (
                restricted if rules.here_rule == "seed_literal" else
                rules.here_rule == "senior_two_left" and len(left) == 2
                and self.holder in left and self._senior(left) == seat):
            calls.add("here")
        outbid = seat in self.misers and high is not None and high > MISER
        if not restricted and not (outbid and rules.miser_bidder_after_outbid == "pass_only"):
            if high is None:
                ranks = [self.min]  # 17.1: also with bid_jumps
            elif rules.bid_jumps:
                ranks = list(range(high + 1, len(LADDER)))
            else:
                ranks = [high + 1 + (high + 1 == MISER)]
            calls |= {LADDER[r] for r in ranks if r < len(LADDER) and r != MISER}
        if seat not in self.spoke and (high is None or high < MISER) and not restricted:
            calls.add("miser")
        return {f"bid:{c}" for c in calls}

    def apply(self, seat: int, call: str) -> None:
        self.spoke.add(seat)
        if call == "pass":
            self.passed.add(seat)
        else:
            self.holder = seat
            if call != "here":
                self.high = LADDER.index(call)
                if call == "miser":
                    self.misers.add(seat)
        left = self._left()
        if left and not (len(left) == 1 and self.holder == left[0]):
            i = self.active.index(seat)
            self.turn = next(s for k in (1, 2, 3) if (s := self.active[(i + k) % 3]) in left)

    @property
    def over(self) -> bool:
        left = self._left()
        return not left or (len(left) == 1 and self.holder == left[0])


def whist_calls(rules: Any, contract: str, calls: list[tuple[int, str]], first: int,
                second: int) -> tuple[int | None, set[str]]:
    """Spec 6.3: who calls next and what (None: the calls are over)."""
    said = {s: [c for t, c in calls if t == s] for s in (first, second)}
    level = int(contract[:-2] if contract.endswith("NT") else contract[:-1])
    if not said[first]:
        seat, options = first, {"whist", "pass"}
    elif not said[second]:
        seat, options = second, {"whist", "pass"} | (
            {"halfwhist"} if said[first] == ["pass"] and level in (6, 7) else set())
    elif said[first] == ["pass"] and said[second] == ["halfwhist"]:
        seat, options = first, {"whist", "pass"}  # return the whist, or let it stand
    elif said[first] == ["pass", "whist"] and said[second] == ["halfwhist"]:
        seat, options = second, {"pass"}
    else:
        return None, set()
    if rules.stalingrad and contract == "6S":
        options = {"whist"}
    return seat, {f"whist:{c}" for c in options}


class PreferansReferee(Referee):
    """Spec 2, 4-7 and 9: the auction, discard, contract and whist calls; who leads, follow
    suit, trump (the checked ten too), misère and raspasy without trumps, the raspasy
    talon, trick winners; exposure (6.4, 6.5, 7)."""

    def start(self, state: Any) -> None:
        v = state.view(None)
        self.dealer = v["dealer"]
        self.active = [(self.dealer + i) % self.n for i in (1, 2, 3)]
        assert v["active"] == self.active and state.to_act == (self.active[0],)
        self.talon = state.deal_record()["talon"]
        expected = "6S" if self.state == 1 else "8S" if (
            self.state == 3 and self.rules.peter_third_state == "hard") else "7S"
        assert (v["raspasy_state"], v["min_bid"]) == (self.state, expected)
        self.auction = PreferansAuction(self.rules, self.active, self.dealer, v["min_bid"])
        self.whists: list[tuple[int, str]] = []
        self.contract: str | None = None
        self.declarer: int | None = None
        self.raspasy = False
        self.open = False
        self.whister: int | None = None
        self.exposed = False
        self.tricks = [0] * self.n
        self.done = 0
        self.trick: list[tuple[int | None, str]] = []
        self.leader: int | None = None
        self.shown = 0  # talon cards turned up
        self.claimed: set[int] = set()  # tricks (from 1) in which a claim was made
        self.claim: tuple[int, int, list[int]] | None = None  # claimer, tricks, to answer

    @property
    def trump(self) -> str | None:
        c = self.contract
        return None if c is None or c == "miser" or c.endswith("NT") else c[-1]

    def _talon_trick(self) -> bool:
        return self.raspasy and self.rules.raspasy_talon == "lead_two" and self.done < 2

    def _begin_trick(self, winner: int | None) -> None:
        self.trick = []
        if self._talon_trick():
            owner = self.dealer if self.n == 4 else None
            self.trick.append((owner, self.talon[self.done]))
            self.shown = self.done + 1
            self.leader = self.active[0]
        elif self.done == 0 or (self.raspasy and self.rules.raspasy_talon == "lead_two"
                                and self.done == 2):
            self.leader = self.active[0]  # trick 1; lead_two's trick 3 (spec 9)
        else:
            self.leader = winner

    def _next_to_play(self) -> int:
        assert self.leader is not None
        played = sum(1 for s, _ in self.trick if s in self.active)
        return self.active[(self.active.index(self.leader) + played) % 3]

    def _defenders(self) -> list[int]:
        assert self.declarer is not None
        i = self.active.index(self.declarer)
        return [self.active[(i + 1) % 3], self.active[(i + 2) % 3]]

    def before(self, state: Any, seat: int, legal: list[str]) -> None:
        phase = state.phase
        if phase == "bidding":
            assert seat == self.auction.turn and set(legal) == self.auction.legal(seat)
        elif phase == "discard":
            hand = state.view(seat)["hand"]
            assert seat == self.declarer and len(hand) == 12 and len(legal) == 66
            assert {frozenset(a[8:].split(",")) for a in legal} == {
                frozenset((a, b)) for i, a in enumerate(hand) for b in hand[i + 1:]}
        elif phase == "contract":
            high = self.auction.high
            assert seat == self.declarer and high is not None
            contracts = ["miser"] if high == MISER else [
                b for b in LADDER[high:] if b != "miser"] + (["walkaway"] * bool(
                    self.rules.walkaway))
            assert sorted(legal) == sorted(f"contract:{c}" for c in contracts)
        elif phase == "whist":
            assert self.contract is not None
            turn, calls = whist_calls(self.rules, self.contract, self.whists,
                                      *self._defenders())
            assert (seat, set(legal)) == (turn, calls)
        elif phase == "open":
            assert seat == self.whister_of_calls() and set(legal) == {"open:true", "open:false"}
        elif phase == "claim":
            assert self.claim is not None and seat == self.claim[2][0]
            assert state.to_act == tuple(self.claim[2])
            assert set(legal) == {"answer:accept", "answer:refuse"}
        if phase == "play":
            self._before_play(state, seat, legal)

    def _whisters(self) -> list[int]:
        """The defenders whose last call is whist (6.3)."""
        return [s for s in self._defenders()
                if [c for t, c in self.whists if t == s][-1:] == ["whist"]]

    def whister_of_calls(self) -> int:
        whisters = self._whisters()
        assert len(whisters) == 1
        return whisters[0]

    def _before_play(self, state: Any, seat: int, legal: list[str]) -> None:
        assert (self.contract is not None) != self.raspasy
        assert state.view(None)["trick"] == [[s, c] for s, c in self.trick]
        assert seat == self._next_to_play(), (seat, self._next_to_play(), self.trick)
        hand = state.view(seat)["hand"]
        led = suit(self.trick[0][1]) if self.trick else None
        follow = [c for c in hand if suit(c) == led]
        trumps = [c for c in hand if suit(c) == self.trump]
        allowed = follow or (trumps if led is not None else []) or hand
        claims = [f"claim:{n}" for n in range(11 - self.done)] if self._may_claim(seat) else []
        assert sorted(legal) == sorted([*(f"play:{c}" for c in allowed), *claims]), (
            self.contract, self.trick)
        assert state.controller(seat) == self._controller(seat)

    def _controller(self, seat: int) -> int:
        return self.whister if self.open and self.exposed and seat != self.declarer else seat

    def _may_claim(self, seat: int) -> bool:
        """Claims (issue 34): in a trick contract, once a trick, by the declarer or the
        lone whister of open play, at his turn or his partner's he plays for."""
        if not self.rules.claims or self.contract in (None, "miser") or (
                self.done + 1 in self.claimed):
            return False
        who = self._controller(seat)
        return who == self.declarer or (self.open and who == self.whister)

    def _claimed(self, state: Any, seat: int, tricks: int) -> None:
        claimer = self._controller(seat)
        self.claimed.add(self.done + 1)
        if claimer == self.declarer:
            answer = sorted({self._controller(s) for s in self._defenders()})
        else:
            assert self.declarer is not None
            answer = [self.declarer]
        self.claim = (claimer, tricks, answer)
        if state.finished:  # proved by the solver: the referee cannot say, the rules may
            assert self.rules.auto_claims
            self._claim_stands()
        else:
            assert state.phase == "claim" and state.to_act == tuple(answer)

    def _answered(self, state: Any, seat: int, answer: str) -> None:
        assert self.claim is not None
        if answer == "refuse":
            self.claim = None
            assert state.phase == "play"
            return
        self.claim[2].remove(seat)
        if self.claim[2]:
            assert state.phase == "claim"
        else:
            self._claim_stands()
            assert state.finished

    def _claim_stands(self) -> None:
        """The claimer's side gets its tricks, the other side the rest; the defence's go to
        the whisters (the defenders if none whisted) in turn from the first."""
        assert self.claim is not None and self.declarer is not None
        claimer, tricks, _ = self.claim
        left = 10 - self.done
        own = tricks if claimer == self.declarer else left - tricks
        self.tricks[self.declarer] += own
        takers = self._whisters() or self._defenders()
        for k in range(left - own):
            self.tricks[takers[k % len(takers)]] += 1
        self.done = 10
        self.claim = None

    def after(self, state: Any, seat: int, action: str, events: list[Event]) -> None:
        key, _, value = action.partition(":")
        if key == "bid":
            self.auction.apply(seat, value)
            if self.auction.over:
                assert state.phase == ("play" if self.auction.high is None else "discard")
            else:
                assert state.phase == "bidding"
        if key == "whist":
            self.whists.append((seat, value))
            assert self.contract is not None
            if whist_calls(self.rules, self.contract, self.whists, *self._defenders())[0] is None:
                assert state.phase == ("done", "open", "play")[len(self._whisters())]
        if key == "contract":
            if value == "walkaway":
                assert state.finished
                return
            self.contract = value
            ten_checked = value[:2] == "10" and self.rules.ten_mode == "checked"
            if value == "miser" or ten_checked:  # no whist calls (6, 6.5)
                self._start_play(state)
        elif key == "bid" and state.phase == "play":
            self.raspasy = True
            self._start_play(state)
        elif key == "bid" and state.phase == "discard":
            self.declarer = self.auction.holder
            assert state.view(None)["declarer"] == self.declarer
        elif key == "whist" and state.phase == "play":
            self._start_play(state)
        elif key == "open":
            self.open, self.whister = value == "true", seat
            self._start_play(state)
        elif key == "play":
            self._played(state, seat, value, events)
        elif key == "claim":
            self._claimed(state, seat, int(value))
        elif key == "answer":
            self._answered(state, seat, value)
        if state.phase == "play":
            assert bool(state.view(None)["exposed"]) == self.exposed

    def _start_play(self, state: Any) -> None:
        assert state.phase == "play"
        reveal = self.rules.open_reveal == "before_declarer_lead"
        self.exposed = self.open and reveal and self.declarer == self.active[0]
        self._begin_trick(None)

    def _played(self, state: Any, seat: int, card: str, events: list[Event]) -> None:
        self.trick.append((seat, card))
        if self.contract is not None and (self.contract == "miser" or self.open or (
                self.contract[:2] == "10" and self.rules.ten_mode == "checked")):
            self.exposed = True  # after the first card of trick 1
        if len(self.trick) < (4 if self._talon_trick() else 3):
            return
        led = suit(self.trick[0][1])
        contenders = [(s, c) for s, c in self.trick if s is not None]  # 3p talon card: no
        trumps = [(s, c) for s, c in contenders if suit(c) == self.trump]
        pool = trumps or [(s, c) for s, c in contenders if suit(c) == led]
        winner = max(pool, key=lambda sc: rank(sc[1]))[0]
        assert winner is not None
        trick_events = [e for e in events if e.kind == "trick"]
        assert [(e.seat, e.data["cards"]) for e in trick_events] == [
            (winner, [[s, c] for s, c in self.trick])], (self.contract, self.trick)
        self.tricks[winner] += 1
        self.done += 1
        assert state.view(None)["tricks"] == self.tricks
        if self.done < 10:
            self._begin_trick(winner)

    def end(self, state: Any, output: dict[str, Any]) -> None:
        if output["kind"] in ("game", "miser", "raspasy") and self.done:
            assert output["tricks"] == self.tricks and self.done == 10
        self._next_state(output)

    def new_match(self, match: Match) -> None:
        self.state = 1

    def _next_state(self, output: dict[str, Any]) -> None:
        """Spec 10.11 and 17.4: the raspasy state of the next deal."""
        rules = self.rules
        if not (rules.variant == "leningrad" or rules.sochi_progression):
            return
        contract, kind = output["contract"], output["kind"]
        if kind == "raspasy":
            self.state = min(self.state + 1, 3) if (
                self.state < 3 or rules.variant == "leningrad") else 1
            return
        if kind != "game" or contract[:2] == "10":
            return
        whisted = bool(self._whisters()) or any(c == "halfwhist" for _, c in self.whists)
        declarer_tricks = output["tricks"][output["declarer"]]
        made = not self.done or declarer_tricks >= int(contract[0])  # unplayed: made
        if made and (whisted or not rules.exit_needs_whist):
            self.state = 1

    def hidden(self, state: Any, seat: int | None) -> set[str]:
        public = set(self.talon) if self.declarer is not None else set(self.talon[:self.shown])
        if self.exposed:
            public |= {c for s in self.active if s != self.declarer for c in strs(state.hands[s])}
        if self.claim is not None:  # the claimer's hand is shown while the claim is answered
            public |= set(strs(state.hands[self.claim[0]]))
        concealed = {c for s in range(self.n) if s != seat for c in strs(state.hands[s])}
        if seat != self.declarer:
            concealed |= set(strs(state.discarded))
        return (concealed | set(self.talon)) - public

    def conserved(self, state: Any) -> None:
        v = state.view(None)
        talon = self.talon if self.declarer is None else []
        places = [*(c for h in state.hands for c in strs(h)), *strs(state.discarded),
                  *v["played"], *(c for _, c in v["trick"]), *talon[self.shown:]]
        assert sorted(places) == sorted(PREFERANS_DECK)


JOKER_SCHEDULES = {"standard": [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9],
                   "nines": [9] * 16, "short": [9] * 8}  # cards per deal (joker spec 4)


class JokerReferee(Referee):
    """Joker spec 4-9: the schedule and dealers, the trump, bids (the dealer's restriction,
    the pass limit), leading, following (8.2-8.6) and who wins a trick (9, 18.7.2)."""

    def new_match(self, match: Match) -> None:
        self.first_dealer = match.first_dealer
        self.number = 0
        self.passes = [0] * self.n

    def start(self, state: Any) -> None:
        v = state.view(None)
        self.dealer = (self.first_dealer + self.number) % self.n
        self.cards = JOKER_SCHEDULES[self.rules.schedule][self.number]
        self.number += 1
        assert (v["dealer"], v["cards"]) == (self.dealer, self.cards)
        self.first = (self.dealer + 1) % self.n
        mode = "turn_up" if self.cards < 9 else self.rules.nine_card_trump  # 6.2-6.4
        assert v["phase"] == ("trump" if mode == "chooser" else "bid")
        if mode == "no_trump":
            assert v["trump"] == "NT" and v["trump_card"] is None
        elif mode == "turn_up":
            card = v["trump_card"]
            assert v["trump"] == ("NT" if card == "JK" else suit(card))
        self.bids: list[int | None] = [None] * self.n
        self.trick: list[dict[str, Any]] = []
        self.leader = self.first
        self.tricks = [0] * self.n
        self.taken: list[str] = []
        self.sixes: set[str] = set()

    def before(self, state: Any, seat: int, legal: list[str]) -> None:
        v = state.view(None)
        if v["phase"] == "trump":
            assert seat == self.first
            assert sorted(legal) == sorted(f"trump:{t}" for t in ("S", "H", "D", "C", "NT"))
            assert all(len(state.view(s)["hand"]) == 3 for s in range(self.n))
        elif v["phase"] == "bid":
            assert seat == (self.first + sum(b is not None for b in self.bids)) % self.n
            assert sorted(legal) == sorted(f"bid:{b}" for b in self._bids(seat))
        else:
            assert seat == (self.leader + len(self.trick)) % self.n
            hand = state.view(seat)["hand"]
            trump = v["trump"] if v["trump"] != "NT" else None
            assert sorted(legal) == sorted(self._plays(hand, trump)), (hand, self.trick)

    def _bids(self, seat: int) -> list[int]:
        allowed = list(range(self.cards + 1))
        if seat == self.dealer and self.rules.dealer_restriction:
            forbidden = self.cards - sum(b for b in self.bids if b is not None)
            allowed = [b for b in allowed if b != forbidden]
        limit = self.rules.pass_limit
        if limit != "none" and self.passes[seat] >= limit and allowed != [0]:
            allowed = [b for b in allowed if b]  # 18.7.3: a forced pass stays legal
        return allowed

    def _led_suit(self) -> str:
        lead = self.trick[0]
        if lead["play"] != "JK":
            return suit(lead["play"])
        return suit(lead["as"]) if lead["joker"] == "face" else lead["suit"]

    def _plays(self, hand: list[str], trump: str | None) -> set[str]:
        """Spec 8.6."""
        rules = self.rules
        naturals = [c for c in hand if c != "JK"]
        sixes = [six for six in ("6S", "6C") if rules.face_value and six not in self.sixes]
        if not self.trick:
            plays = {f"play:{c}" for c in naturals}
            if "JK" in hand and (not rules.strict_joker or not naturals):
                plays |= {f"play:JK:{d}:{x}" for d in ("high", "low") for x in "SHDC"}
                plays |= {f"play:JK:face:{six}" for six in sixes}
            return plays
        lead = self.trick[0]
        led = self._led_suit()
        high_lead = lead["play"] == "JK" and lead["joker"] == "high"
        demands = high_lead or (lead["play"] == "JK" and lead["joker"] == "low"
                                and rules.low_lead_demands_highest)

        def allowed(cards: list[str]) -> set[str]:
            of_suit = [c for c in cards if suit(c) == led]
            trumps = [c for c in cards if suit(c) == trump]
            if of_suit:
                return {highest(of_suit)} if demands else set(of_suit)
            if trumps:
                return {highest(trumps)} if rules.void_must_trump_highest and high_lead else (
                    set(trumps))
            return set(cards)

        plays = {f"play:{c}" for c in allowed(naturals)}
        if "JK" in hand:
            plays |= {"play:JK:high", "play:JK:low"}
            plays |= {f"play:JK:face:{s}" for s in sixes if s in allowed([*naturals, s])}
        return plays

    def _winner(self, trump: str | None) -> int:
        """Spec 9, and 18.7.2 for the two options together."""
        rules, plays = self.rules, self.trick
        takers = [i for i, p in enumerate(plays) if p["play"] == "JK" and p["joker"] == "high"]

        def pick(found: list[int]) -> int:
            return found[-1] if rules.two_jokers == "last" else found[0]

        ranked = []  # (index, suit, rank) of the plays that can win on cards
        for i, p in enumerate(plays):
            if p["play"] != "JK":
                ranked.append((i, suit(p["play"]), rank(p["play"])))
            elif p["joker"] == "face":
                ranked.append((i, suit(p["as"]), rank(p["as"])))
            elif i == 0 and p["joker"] == "low":
                ranked.append((i, p["suit"], -1))  # below the 6 of its suit
        trumps = [(r, i) for i, s, r in ranked if s == trump]
        if rules.trump_beats_led_high_joker:
            followed = [i for i in takers if i > 0]
            if followed:
                return pick(followed)
            if takers:
                return max(trumps)[1] if trumps and plays[0]["suit"] != trump else 0
        elif takers:
            return pick(takers)
        if trumps:
            return max(trumps)[1]
        return max((r, i) for i, s, r in ranked if s == self._led_suit())[1]

    def after(self, state: Any, seat: int, action: str, events: list[Event]) -> None:
        v = state.view(None)
        kind = action.split(":")[0]
        if kind == "bid":
            self.bids[seat] = int(action.split(":")[1])
            self.passes[seat] += self.bids[seat] == 0
            return
        if kind != "play":
            return
        play = next(e.data for e in events if e.kind == "play")
        assert play["seat"] == seat
        self.trick.append(play)
        if play.get("joker") == "face":
            self.sixes.add(play["as"])
        if len(self.trick) < self.n:
            return
        trump = v["trump"] if v["trump"] != "NT" else None
        winner = (self.leader + self._winner(trump)) % self.n
        done = next(e for e in events if e.kind == "trick")
        assert (done.seat, done.data["plays"]) == (winner, self.trick), (trump, self.trick)
        self.tricks[winner] += 1
        self.taken += [p["play"] for p in self.trick]
        self.trick, self.leader = [], winner
        assert v["tricks"] == self.tricks

    def end(self, state: Any, output: dict[str, Any]) -> None:
        assert output["tricks"] == self.tricks and sum(self.tricks) == self.cards
        assert output["bids"] == self.bids
        pulka = state.view(None)["pulka"]
        assert output["points"] == [self._points(b, t, pulka)
                                    for b, t in zip(self.bids, self.tricks, strict=True)]

    def _points(self, bid: int | None, taken: int, pulka: int) -> int:
        """Spec 11 and 18.7.6: a deal's points."""
        assert bid is not None
        n, khishti = self.cards, self.rules.khishti
        if khishti == "per_pulka":
            khishti = 500 if pulka in (2, 4) else 200
        elif khishti == "dynamic":
            khishti = 100 * n
        if self.rules.scoring == "negative" and bid >= 1 and taken <= bid:
            return 100 * bid if taken == bid else -100 * (bid - taken)
        if taken == bid:
            return 50 if bid == 0 else 100 * n if bid == n else 50 + 50 * bid
        return 10 * taken if taken else -khishti

    def hidden(self, state: Any, seat: int | None) -> set[str]:
        concealed = {c for s in range(self.n) if s != seat for c in strs(state.hands[s])}
        if state.phase == "trump" and seat is not None:
            concealed |= set(strs(state.dealt[seat][3:]))  # the first three only (6.3)
        return concealed - {"JK"}  # the two jokers look alike

    def conserved(self, state: Any) -> None:
        held = [c for h in state.hands for c in strs(h)]
        now = [*held, *(p["play"] for p in self.trick), *self.taken]
        dealt = sorted(c for h in state.dealt for c in strs(h))
        assert sorted(now) == dealt and len(dealt) == self.n * self.cards
        turned = [] if state.trump_card is None else [str(state.trump_card)]
        assert not Counter(dealt + turned) - Counter(JOKER_DECK)


def seep_points(card: str, ten_of_diamonds: int) -> int:
    """Seep spec 2: spades at face value, the other aces 1, the 10 of diamonds 6 (or 2)."""
    if suit(card) == "S":
        return rank(card) + 2 if card[:-1] != "A" else 1
    if card[:-1] == "A":
        return 1
    return ten_of_diamonds if card == "10D" else 0


def seep_value(card: str) -> int:
    return 1 if card[:-1] == "A" else rank(card) + 2


def has_sum(values: list[int], target: int) -> bool:
    """Whether some non-empty subset of ``values`` sums to ``target``."""
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach if r + v <= target}
    return target in reach


class SeepReferee(Referee):
    """Seep spec 3-11: turns, the deal in packets, the bid and each move's conditions and
    effect on the floor (6.1-6.7), sweeps (7, 16.4.3), the floor's rest (8), card points
    and deal scores (9), the ledger (10, 16.4.4) and the next dealer (11, 16.4.13)."""

    def new_match(self, match: Match) -> None:
        self.next_dealer = match.first_dealer
        self.lead = 0

    def _next(self, seat: int) -> int:
        return (seat + 3) % 4 if self.n == 4 else 1 - seat

    def _team(self, seat: int) -> int:
        return seat % 2

    def start(self, state: Any) -> None:
        v = state.view(None)
        assert v["dealer"] == self.next_dealer
        self.dealer = v["dealer"]
        self.bidder = self._next(self.dealer)
        assert v["bidder"] == self.bidder
        self.plays = 0
        self.played = [0] * self.n
        self.piles: list[list[str]] = [[], []]
        self.sweeps = [[0, 0, 0], [0, 0, 0]]
        self.counted: list[list[int]] = [[], []]
        self.last_capturer: int | None = None
        self.bid: int | None = None

    def _dealt(self, seat: int) -> int:
        """Cards the seat has received so far (4.2, 4.7; two players: section 13)."""
        if self.plays == 0:
            return 4 if seat == self.bidder or self.n == 2 else 0
        return 24 if self.n == 2 and self.plays >= 24 else 12

    def before(self, state: Any, seat: int, legal: list[str]) -> None:
        v = state.view(None)
        expected = self.bidder if self.plays == 0 else self._next(self.last_mover)
        assert seat == expected and v["plays"] == self.plays
        assert v["hand_sizes"] == [self._dealt(s) - self.played[s] for s in range(self.n)]
        self.hand_before = state.view(seat)["hand"]
        if v["phase"] == "bid":
            hand = state.view(seat)["hand"]
            assert sorted(legal) == sorted(
                f"bid:{b}" for b in {seep_value(c) for c in hand} if b >= 9)
            assert v["floor"] is None

    def after(self, state: Any, seat: int, action: str, events: list[Event]) -> None:
        if action.startswith("bid:"):
            self.bid = int(action[4:])
            self.last_mover = self.bidder
            self.floor_before = state.view(None)["floor"]
            return
        spec = GAMES["seep"]
        item = spec.encode_action(seat, action)
        move = self._effect(state, seat, item)
        floor = state.view(None)["floor"]
        loose, houses = move
        self.plays += 1
        self.played[seat] += 1
        self.last_mover = seat
        sweep = [e for e in events if e.kind == "sweep"]
        assert len(sweep) == ("capture" in item and not loose and not houses)
        if sweep:
            self._sweep(seat)
        if self.plays == 48:  # the floor's rest goes to the last capturer (8)
            assert not houses and floor == {"loose": [], "houses": []}
            self.rest = loose
            return
        assert sorted(floor["loose"]) == sorted(loose), (item, floor)
        got = {h["value"]: (sorted(c for g in h["groups"] for c in g), h["owners"],
                            h["cemented"]) for h in floor["houses"]}
        want = {t: (sorted(cs), sorted(owners), cemented)
                for t, (cs, owners, cemented) in houses.items()}
        assert got == want, (item, floor)
        self.floor_before = floor

    def _effect(self, state: Any, seat: int, item: dict[str, Any]) -> tuple[list[str], dict]:
        """The floor after the move, by spec 6; asserts the move's conditions."""
        rules = self.rules
        before = self.floor_before
        loose = list(before["loose"])
        houses = {h["value"]: (set(c for g in h["groups"] for c in g), set(h["owners"]),
                               h["cemented"]) for h in before["houses"]}
        kind = next(k for k in ("capture", "build", "cement", "break", "throw") if k in item)
        card = item[kind]
        v = seep_value(card)
        hand = list(self.hand_before)  # before the cards dealt after this move (16.4.10)
        hand.remove(card)
        held = {seep_value(c) for c in hand}
        if self.plays == 0:  # play #1 (6.7)
            target = item.get("value", v)
            assert target == self.bid and kind in ("build", "capture", "throw")
        partner = (seat + 2) % 4 if self.n == 4 else None
        if kind == "throw":
            assert v not in houses and not has_sum([seep_value(c) for c in loose], v)
            loose.append(card)
        elif kind == "capture":
            taken = [c for g in item["groups"] for c in g]
            assert all(sum(seep_value(c) for c in g) == v for g in item["groups"])
            assert set(taken) <= set(loose) and len(set(taken)) == len(taken)
            rest = [c for c in loose if c not in taken]
            if rules.capture_must_be_maximal:
                assert not has_sum([seep_value(c) for c in rest], v)
            loose_values = [seep_value(c) for c in loose]
            assert bool(taken) == has_sum(loose_values, v) and (taken or v in houses)
            house_cards = houses.pop(v)[0] if v in houses else set()
            self.piles[self._team(seat)] += [card, *taken, *house_cards]
            self.last_capturer = seat
            loose = rest
        else:
            with_ = item.get("with", [])
            absorbed = [c for g in item["absorb"] for c in g]
            if kind == "break":
                old = item["house"]
                cards, owners, cemented = houses.pop(old)
                assert not cemented and seat not in owners
                assert rules.break_partner_house or partner not in owners
                assert rules.break_with_floor_cards or not with_
                target = old + v + sum(seep_value(c) for c in with_)
                primary = [card, *with_, *cards]
            else:
                target = item["value"]
                primary = [card, *with_]
                assert sum(seep_value(c) for c in primary) == target
                assert (kind == "cement") == (target in houses)
            assert 9 <= target <= 13
            assert set(with_) | set(absorbed) <= set(loose)
            assert all(sum(seep_value(c) for c in g) == target for g in item["absorb"])
            free = [c for c in loose if c not in with_]
            rest = [c for c in free if c not in absorbed]
            assert not [c for c in rest if seep_value(c) == target]  # singles absorbed (I2)
            if rules.absorb_sets == "mandatory":
                assert not has_sum([seep_value(c) for c in rest], target)
            elif rules.absorb_sets == "singles":
                assert all(seep_value(c) == target for c in absorbed)
            by_partner = target in houses and seat not in houses[target][1] and (
                partner in houses[target][1])
            if not by_partner:
                assert target in held, "the mover must hold a card of the house's value"
            if kind == "build":
                assert len(primary) + len(absorbed) >= 2
                assert rules.max_houses == "unlimited" or len(houses) < rules.max_houses
            grown = houses.get(target, (set(), set(), False))
            owners = grown[1] if by_partner else grown[1] | {seat}
            cemented = target in houses or bool(absorbed)
            houses[target] = (grown[0] | set(primary) | set(absorbed), owners, cemented)
            loose = rest
        for t, (_, owners, _) in houses.items():  # 6.6 and I3
            if seat in owners:
                assert t in held, f"seat {seat} owns a house of {t} without a card of {t}"
        return loose, houses

    def _sweep(self, seat: int) -> None:
        kind = 1 if self.plays == 1 else 2 if self.plays == 48 else 0
        team, other = self._team(seat), 1 - self._team(seat)
        if self.rules.sweep_cancel:  # 16.4.3
            if self.counted[other]:
                self.sweeps[other][self.counted[other].pop()] -= 1
                return
            if len(self.counted[team]) >= 2:
                return
        self.counted[team].append(kind)
        self.sweeps[team][kind] += 1

    def end(self, state: Any, output: dict[str, Any]) -> None:
        rules = self.rules
        if output["bid"] is None:  # a void deal: redealt by the same dealer (16.4.11)
            assert output["score"] == [0, 0] and output["lead"] == self.lead
            return
        assert self.plays == 48
        if self.last_capturer is not None:
            self.piles[self._team(self.last_capturer)] += self.rest
        v = state.view(None)
        assert [sorted(p) for p in v["piles"]] == [sorted(p) for p in self.piles]
        tens = rules.ten_of_diamonds_points
        points = [sum(seep_points(c, tens) for c in p) for p in self.piles]
        assert output["card_points"] == points and output["sweeps"] == self.sweeps
        if self.last_capturer is not None:
            assert sum(points) == (100 if tens == 6 else 96)
        worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
        counts = [len(p) for p in self.piles]
        bonus = [0, 0]
        if max(counts) > 26:
            bonus[counts.index(max(counts))] = rules.majority_bonus
        elif counts == [26, 26]:
            bonus = [rules.majority_bonus // 2] * 2
        score = [points[t] + sum(n * w for n, w in zip(self.sweeps[t], worth, strict=True))
                 + bonus[t] for t in (0, 1)]
        assert output["score"] == score
        judged = score if rules.under_nine_counts == "score" else points
        moved = self.lead + score[0] - score[1]
        winner = None
        if min(judged) < 9:
            winner, self.lead = judged.index(min(judged)) ^ 1, 0
        elif abs(moved) >= rules.bazzi_target:
            winner = 0 if moved > 0 else 1
            carry = moved - rules.bazzi_target if moved > 0 else moved + rules.bazzi_target
            self.lead = carry if rules.bazzi_overflow == "carry" else 0
        else:
            self.lead = moved
        assert output["lead"] == self.lead
        assert output["bazzi"] == (None if winner is None else
                                   ["NS", "EW"][winner] if self.n == 4 else winner)
        if rules.dealer_rotation == "simple":
            self.next_dealer = self._next(self.dealer)
            return
        ahead = moved > 0 if self._team(self.dealer) == 0 else moved < 0
        seat = self._next(self.dealer) if ahead else self.dealer
        if winner is not None:  # the partner of that seat; two players: the same dealer
            seat = (seat + 2) % 4 if self.n == 4 else self.dealer
        self.next_dealer = seat

    def hidden(self, state: Any, seat: int | None) -> set[str]:
        dealt = state.deal_record()
        if "hands" not in dealt:  # a void deal: only the bidder's four cards, shown
            return set()
        concealed = {c for s in range(self.n) if s != seat for c in strs(state.hands[s])}
        concealed |= {c for s in range(self.n) for c in dealt["hands"][s][self._dealt(s):]}
        if self.bid is None:
            concealed |= set(dealt["floor"])
        if not state.finished:  # captured cards, but for the last capture (12)
            last = state.last_capture["cards"] if state.last_capture else []
            concealed |= {c for p in self.piles for c in p} - set(last)
        return concealed

    def conserved(self, state: Any) -> None:
        dealt = state.deal_record()
        if "hands" not in dealt:
            return
        v = state.view(None)
        floor = v["floor"] or {"loose": dealt["floor"], "houses": []}
        places = [*(c for h in state.hands for c in strs(h)),
                  *(c for s in range(self.n) for c in dealt["hands"][s][self._dealt(s):]),
                  *floor["loose"], *(c for h in floor["houses"] for g in h["groups"] for c in g),
                  *(c for p in state.piles for c in strs(p)), *strs(state.unclaimed)]
        assert sorted(places) == sorted(SEEP_DECK)

    def oracle(self, state: Any, seat: int, legal: list[str]) -> None:
        """Every legal move and nothing else, by the brute-force reading of spec 6."""
        floor = state.view(None)["floor"]
        if floor is None or len(floor["loose"]) > 7:
            return
        houses = {h["value"]: House(h["value"], [tuple(map(parse_card, g)) for g in h["groups"]],
                                    set(h["owners"])) for h in floor["houses"]}
        hand = [parse_card(c) for c in state.view(seat)["hand"]]
        bid = self.bid if self.plays == 0 else None
        want = oracle_moves(self.rules, [parse_card(c) for c in floor["loose"]], houses, seat,
                            hand, bid)
        assert {to_move(seep_parse(a)) for a in legal} == want


REFEREES: dict[str, type[Referee]] = {
    "preferans": PreferansReferee, "joker": JokerReferee, "seep": SeepReferee}


# -- illegal actions ---------------------------------------------------------------------


def vocabulary(game: str, state: Any, seat: int, rng: random.Random) -> list[str]:
    """A few actions of the game's vocabulary, mostly well formed, any phase."""
    if game == "preferans":
        bids = ["pass", "here", "miser", *(f"{lv}{s}" for lv in range(6, 11)
                                           for s in ("S", "C", "D", "H", "NT"))]
        pair = rng.sample(PREFERANS_DECK, 2)
        options = [f"bid:{rng.choice(bids)}", f"discard:{pair[0]},{pair[1]}",
                   f"contract:{rng.choice([*bids[2:], 'walkaway'])}",
                   f"whist:{rng.choice(['whist', 'pass', 'halfwhist'])}",
                   f"open:{rng.choice(['true', 'false'])}", f"play:{rng.choice(PREFERANS_DECK)}",
                   f"claim:{rng.randrange(12)}", f"answer:{rng.choice(['accept', 'refuse'])}"]
    elif game == "joker":
        x = rng.choice("SHDC")
        options = [f"trump:{rng.choice('SHDC')}", "trump:NT", f"bid:{rng.randrange(11)}",
                   f"play:{rng.choice(JOKER_DECK)}", f"play:JK:high:{x}", f"play:JK:low:{x}",
                   "play:JK:high", "play:JK:low", f"play:JK:face:{rng.choice(['6S', '6C'])}"]
    else:
        floor = state.view(None)["floor"] or {"loose": [], "houses": []}
        loose = floor["loose"] or ["5D"]
        values = [h["value"] for h in floor["houses"]] or [9]
        c, f = rng.choice(SEEP_DECK), rng.choice(loose)
        options = [f"bid:{rng.randrange(7, 15)}", f"throw:{c}", f"cap:{c}", f"cap:{c}:{f}",
                   f"build:{c}:{rng.randrange(9, 14)}:{f}", f"cement:{c}:{rng.choice(values)}",
                   f"break:{c}:{rng.choice(values)}"]
    return rng.sample(options, 3)


def not_held(game: str, state: Any, seat: int, rng: random.Random) -> str | None:
    hand = set(state.view(seat)["hand"] or [])
    deck = {"preferans": PREFERANS_DECK, "joker": JOKER_DECK, "seep": SEEP_DECK}[game]
    card = rng.choice([c for c in deck if c not in hand])
    if game == "seep":
        return f"throw:{card}"
    return f"play:{card}" if card != "JK" else "play:JK:low"


JUNK = ["", ":", "zz", "zz:7S", "7S", "play", "-1", "x" * 80, "nonsense:", "::", "🂡:1",
        "build", "pass"]


def attempts(game: str, state: Any, seat: int, legal: dict[int, list[str]],
             rng: random.Random) -> Iterator[tuple[int, str, type[ActionError] | None]]:
    """(seat, action, the ActionError class expected, or None for any typed one)."""
    n = len(legal)
    yield seat, rng.choice(JUNK), MalformedAction
    for action in vocabulary(game, state, seat, rng):
        yield seat, action, None
        yield rng.randrange(n), action, None
    mine = rng.choice(legal[seat])
    others = [s for s in range(n) if mine not in legal[s]]
    yield rng.choice(others), mine, NotYourTurn
    yield n + rng.randrange(3), mine, NotYourTurn  # no such seat
    phases = {"preferans": ["bid:pass", "whist:pass", "open:true", "play:7S", "contract:6S",
                            "discard:7S,8S"],
              "joker": ["trump:H", "bid:0", "play:AH"], "seep": ["bid:13", "throw:AH"]}[game]
    yield seat, rng.choice([a for a in phases if phase_of(game, a) != phase_of(game, mine)]), (
        WrongPhase)
    if phase_of(game, mine) == "play":
        action = not_held(game, state, seat, rng)
        if action is not None:
            yield seat, action, IllegalAction


def listed(action: str, legal: list[str]) -> bool:
    """Whether the action is listed, a discard's two cards in either order."""
    key, _, value = action.partition(":")
    if key == "discard":
        return any(set(value.split(",")) == set(a[8:].split(",")) for a in legal)
    return action in legal


def phase_of(game: str, action: str) -> str:
    """The phase an action belongs to (Seep: the bid, or a play of any kind; Preferans: a
    claim in play, its answers in the claim's own phase)."""
    key = action.split(":")[0]
    if game == "preferans":
        return {"claim": "play", "answer": "claim"}.get(key, key)
    return key if game != "seep" or key == "bid" else "play"


def refused(state: Any, seat: int, action: str, expected: type[ActionError] | None) -> None:
    """``check`` and ``apply`` refuse the action alike, with a typed error."""
    error = state.check(seat, action)
    assert type(error) in TYPED, (seat, action, error)
    assert expected is None or isinstance(error, expected), (seat, action, error)
    with pytest.raises(ActionError) as raised:
        state.apply(seat, action)
    assert (type(raised.value), raised.value.code, raised.value.params, str(raised.value)) == (
        type(error), error.code, error.params, str(error))


# -- the driver ---------------------------------------------------------------------------


def choose(game: str, state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
    """The game's own weighted random policy or a uniform choice; checked tens are sought."""
    if game == "preferans" and state.phase == "contract" and rng.random() < 0.3:
        tens = [a for a in legal if a.startswith("contract:10")]
        if tens:
            return rng.choice(tens)
    if game == "preferans" and state.phase == "bidding" and rng.random() < 0.3:
        return "bid:pass"  # more raspasy
    if rng.random() < 0.5:
        return GAMES[game].random_action(state, seat, rng)
    return rng.choice(legal)


def deep_checks(game: str, state: Any, referee: Referee, seat: int,
                legal: dict[int, list[str]], rng: random.Random) -> None:
    n = len(legal)
    for s in [None, *range(n)]:
        view = state.view(s)
        acting = {} if s is None else {
            t: legal[t] for t in state.to_act if state.controller(t) == s}
        assert view["actions"] == acting
        if s is None:
            assert not view.get("hand")
        leaked = cards_in(view) & referee.hidden(state, s)
        assert not leaked, (s, sorted(leaked))
    snapshot, version = pickle.dumps(state), state.version
    for who, action, expected in attempts(game, state, seat, legal, rng):
        if who >= n or not listed(action, legal[who]):
            refused(state, who, action, expected)
    assert pickle.dumps(state) == snapshot and state.version == version
    for action in rng.sample(legal[seat], min(len(legal[seat]), 3)):
        copy = pickle.loads(snapshot)
        copy.apply(seat, action)
        assert copy.version == version + 1
    if game == "seep" and state.phase == "play":
        assert isinstance(referee, SeepReferee)
        referee.oracle(state, seat, legal[seat])


def check_replay(match: Match) -> None:
    record = json.loads(json.dumps(match.record()))
    again = replay(record)
    assert again.report() == match.report()
    assert again.record() == record


def play_case(game: str, case: int, data: dict[str, Any]) -> Counter[str]:
    spec = GAMES[game]
    rules = spec.rules.from_dict(data)
    rng = random.Random(f"{game}/{case}")
    referee = REFEREES[game](rules)
    stats: Counter[str] = Counter()
    match: Match | None = None
    for k in range(DEALS[game]):
        if match is None or match.over:
            if match is not None:
                check_replay(match)
            names = [f"P{i}" for i in range(rules.players)]
            match = Match(spec, rules, names, spec.first_dealer(rules, rng.randrange(9), rng))
            referee.new_match(match)
        state = match.start_deal(seed=f"{game}/{case}/{k}")
        referee.start(state)
        while not state.finished:
            n = rules.players
            legal = {s: state.legal_actions(s) for s in range(n)}
            assert [s for s in range(n) if legal[s]] == list(state.to_act)
            seat = state.to_act[0]
            referee.before(state, seat, legal[seat])
            assert all(state.check(seat, a) is None for a in legal[seat])
            if k == 1 and not stats["unfinished"] and state.phase == "play":
                check_replay(match)  # a record whose last deal is unfinished
                stats["unfinished"] += 1
            deep = k == 0 or rng.random() < DEEP[game]
            if deep:
                deep_checks(game, state, referee, seat, legal, rng)
                stats["deep"] += 1
            action = choose(game, state, seat, legal[seat], rng)
            events = match.apply(seat, action)
            referee.after(state, seat, action, events)
            stats[action.partition(":")[0]] += action.startswith(("claim:", "answer:"))
            if deep or state.finished:
                referee.conserved(state)
            stats["steps"] += 1
        assert not any(state.legal_actions(s) for s in range(rules.players))
        if stats["steps"]:
            refused(state, seat, action, WrongPhase)  # the deal is over
        output = match.outputs[-1]
        referee.end(state, output)
        settlement = match.report()["settlement"]
        assert abs(sum(settlement)) <= 0.01 * len(settlement)
        stats["deals"] += 1
        if game != "joker":
            stats[output.get("kind") or ("void" if output["bid"] is None else "played")] += 1
        if game == "preferans" and output["kind"] == "game" and state.checked_ten:
            stats["checked_ten"] += 1
    assert match is not None
    check_replay(match)
    return stats


@pytest.mark.parametrize(("game", "case", "data"), CASES,
                         ids=[f"{g}-{n}" for g, n, _ in CASES])
def test_random_deals_conform(game: str, case: int, data: dict[str, Any]) -> None:
    stats = play_case(game, case, data)
    assert stats["deals"] == DEALS[game]
    if game == "preferans":
        assert stats["raspasy"] and stats["game"], stats
        rules = GAMES[game].rules.from_dict(data)
        if rules.ten_mode == "checked":
            assert stats["checked_ten"], stats
        if rules.claims:
            assert stats["claim"] and stats["answer"], stats


@pytest.mark.parametrize("game", sorted(GAMES))
def test_check_neither_copies_nor_applies(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``check`` gives the reason of a refusal without copying the state (and, above,
    without changing it); it agrees with ``apply`` on every action tried."""
    def no_copy(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("check copied the state")

    spec = GAMES[game]
    rules = spec.rules.from_dict({})
    rng = random.Random(game)
    match = Match(spec, rules, [f"P{i}" for i in range(rules.players)], 0)
    state = match.start_deal(seed=f"check/{game}")
    while not state.finished:
        seat = state.to_act[0]
        legal = {s: state.legal_actions(s) for s in range(rules.players)}
        tries = [(seat, a, None) for a in legal[seat]]
        tries += [t for t in attempts(game, state, seat, legal, rng) if t[0] < rules.players]
        with monkeypatch.context() as patched:
            patched.setattr(copy, "deepcopy", no_copy)
            patched.setattr(copy, "copy", no_copy)
            patched.setattr(pickle, "dumps", no_copy)
            errors = [(s, a, state.check(s, a)) for s, a, _ in tries]
        for s, a, error in errors:
            assert (error is None) == listed(a, legal[s]), (s, a, error)
        match.apply(seat, rng.choice(legal[seat]))
