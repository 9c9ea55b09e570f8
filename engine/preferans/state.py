"""One Preferans deal as a state machine: auction, talon, discard, contract, whists, play.

Phases: ``bidding`` -> (``discard`` -> ``contract`` -> [``whist`` -> [``open``]] |
raspasy) -> ``play`` -> ``done``. Every illegal action raises a typed
ActionError before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from engine.base import (
    ActionError,
    Event,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RecordError,
    WrongPhase,
    acting_actions,
    refusal,
)
from engine.cards import Card, CardError, Suit, parse_card, parse_cards, shuffled
from engine.cards import sorted_hand as _sorted
from engine.preferans import claims
from engine.preferans.auction import Auction
from engine.preferans.bids import LADDER, MISER, TRICK_BIDS, bid_rank, display, level, trump
from engine.preferans.pack import preferans_deck
from engine.preferans.result import DealContext, DealResult, empty_entries
from engine.preferans.rules import Rules
from engine.preferans.tricks import playable, winner
from engine.preferans.whisting import Whisting

BIDDING, DISCARD, CONTRACT, WHIST, OPEN, PLAY, DONE = (
    "bidding", "discard", "contract", "whist", "open", "play", "done")
_PHASE_OF_KEY = {"bid": BIDDING, "discard": DISCARD, "contract": CONTRACT, "whist": WHIST,
                 "open": OPEN, "play": PLAY, "claim": PLAY, "answer": claims.CLAIM}
WALKAWAY = "walkaway"
TRICKS_PER_DEAL = 10


class State:
    """A Preferans deal. Seats are numbered clockwise; see the spec for every rule."""

    def __init__(self, rules: Rules, players: Sequence[str], context: DealContext,
                 hands: list[list[Card]], talon: list[Card]) -> None:
        self.rules = rules
        self.players = list(players)
        self.n = rules.players
        self.dealer = context.dealer
        self.context = context
        self.active = tuple((self.dealer + i) % self.n for i in range(1, 4))
        self.initial_hands = [list(h) for h in hands]
        self.hands = [_sorted(h) for h in hands]
        self.talon = list(talon)
        self.phase = BIDDING
        self.version = 0
        self.auction = Auction(rules, self.active, self.dealer, bid_rank(context.min_bid), self.n)
        self.declarer: int | None = None
        self.discarded: list[Card] = []
        self.contract: str | None = None
        self.walked_away = False
        self.whisting: Whisting | None = None
        self.open: bool | None = None
        self.exposed = False  # the defenders' hands are face up
        self.trump: Suit | None = None
        self.trick: list[tuple[int | None, Card]] = []
        self.order: list[int] = []  # seats still to play to this trick
        self.leader = self.active[0]
        self.last_trick: list[tuple[int | None, Card]] = []
        self.last_winner: int | None = None
        self.played: list[Card] = []  # the cards of every completed trick, in order
        self.tricks = [0] * self.n
        self.tricks_done = 0
        self.talon_turned = 0  # raspasy: talon cards turned up for tricks 1 and 2
        self.claim: claims.Claim | None = None  # the claim being answered (phase ``claim``)
        self.claims: list[dict[str, Any]] = []  # every claim: seat, tricks, trick, outcome

    # -- construction ---------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, players: Sequence[str], context: DealContext, *,
            seed: int | str | None = None, deal: Mapping[str, Any] | None = None) -> State:
        """A deal from a seed (reproducible) or from a record's explicit hands."""
        n = rules.players
        active = [(context.dealer + i) % n for i in range(1, 4)]
        if deal is None:
            if seed is None:
                raise ValueError("a deal needs a seed or explicit hands")
            cards = shuffled(preferans_deck(), seed)
            hands: list[list[Card]] = [[] for _ in range(n)]
            for i, seat in enumerate(active):
                hands[seat] = cards[10 * i:10 * i + 10]
            return cls(rules, players, context, hands, cards[30:])
        return cls(rules, players, context, *_read_deal(deal, context.dealer, n, active))

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [[str(c) for c in _sorted(h)] for h in self.initial_hands],
            "talon": [str(c) for c in self.talon],
        }

    # -- who acts ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == DONE

    @property
    def raspasy(self) -> bool:
        return self.phase in (PLAY, DONE) and self.declarer is None and self.auction.over

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == BIDDING:
            return (self.auction.turn,)
        if self.phase in (DISCARD, CONTRACT):
            assert self.declarer is not None
            return (self.declarer,)
        if self.phase == WHIST:
            assert self.whisting is not None and self.whisting.turn is not None
            return (self.whisting.turn,)
        if self.phase == OPEN:
            return self._whisters()
        if self.phase == PLAY:
            return (self.order[0],)
        if self.claim is not None:
            return tuple(self.claim.waiting)
        return ()

    def controller(self, seat: int) -> int:
        """In open play, once the hands are face up, the whister plays the passer's cards."""
        if self.open and self.exposed and self.whisting is not None:
            whister, = self.whisting.whisters
            if seat in (self.whisting.first, self.whisting.second):
                return whister
        return seat

    def _whisters(self) -> tuple[int, ...]:
        return self.whisting.whisters if self.whisting is not None else ()

    # -- legal actions ----------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act:
            return []
        if self.phase == BIDDING:
            return [f"bid:{c}" for c in self.auction.legal(seat)]
        if self.phase == DISCARD:
            hand = self.hands[seat]
            return [f"discard:{a},{b}" for i, a in enumerate(hand) for b in hand[i + 1:]]
        if self.phase == CONTRACT:
            return [f"contract:{c}" for c in self._contracts()]
        if self.phase == WHIST:
            assert self.whisting is not None
            return [f"whist:{c}" for c in self.whisting.legal(seat)]
        if self.phase == OPEN:
            return ["open:true", "open:false"]
        if self.phase == claims.CLAIM:
            return [f"answer:{a}" for a in claims.ANSWERS]
        return [f"play:{c}" for c in self._playable(seat)] + claims.offers(self, seat)

    def _contracts(self) -> list[str]:
        bid = self.auction.winning_bid
        if bid == MISER:
            return [MISER]
        assert bid is not None
        rank = bid_rank(bid)
        out = [b for b in TRICK_BIDS if bid_rank(b) >= rank]
        if self.rules.walkaway:
            out.append(WALKAWAY)
        return out

    def _playable(self, seat: int) -> list[Card]:
        led = self.trick[0][1].suit if self.trick else None
        return playable(self.hands[seat], led, self.trump)

    # -- applying ---------------------------------------------------------------------

    def check(self, seat: int, action: str) -> ActionError | None:
        """Why ``apply`` would refuse the action, or None; nothing is applied or copied."""
        return refusal(self._validated, seat, action)

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply one action; raises an ActionError (and changes nothing) if it is illegal."""
        perform, value = self._validated(seat, action)
        events = perform(seat, value)
        self.version += 1
        return events

    def _validated(self, seat: int, action: str) -> tuple[Callable[[int, Any], list[Event]], Any]:
        """The action's handler and its checked value; raises the ActionError refusing it.

        Nothing here changes the state: ``check`` and ``apply`` share it."""
        key, sep, value = action.partition(":")
        if not sep or key not in _PHASE_OF_KEY:
            raise MalformedAction("bad_action", f"'{action}' is not a Preferans action")
        if self.phase == DONE:
            raise WrongPhase("deal_over", "the deal is over")
        if _PHASE_OF_KEY[key] != self.phase:
            raise WrongPhase("wrong_phase",
                             f"this is not the time to {key}: the deal is at {self.phase}")
        if seat not in self.to_act:
            raise NotYourTurn("not_your_turn", "it is not your turn", seat=seat)
        validate, perform = {
            "bid": (self.auction.check, self._bid),
            "discard": (self._check_discard, self._discard),
            "contract": (self._check_contract, self._contract),
            "whist": (self._check_whist, self._whist),
            "open": (self._check_open, self._open),
            "play": (self._check_play, self._play),
            "claim": (partial(claims.check, self), partial(claims.apply, self)),
            "answer": (partial(claims.check_answer, self), partial(claims.answer, self)),
        }[key]
        return perform, validate(seat, value)

    def _bid(self, seat: int, call: str) -> list[Event]:
        self.auction.apply(seat, call)
        events = [Event("bid", seat, {"call": call})]
        if not self.auction.over:
            return events
        if self.auction.high is None:
            events.append(Event("raspasy", None, {}))
            return events + self._start_play()
        self.declarer = self.auction.holder
        assert self.declarer is not None
        self.hands[self.declarer] = _sorted(self.hands[self.declarer] + self.talon)
        self.phase = DISCARD
        events.append(Event("auction_won", self.declarer, {"bid": self.auction.winning_bid}))
        events.append(Event("talon_shown", self.declarer, {"talon": [str(c) for c in self.talon]}))
        return events

    def _check_discard(self, seat: int, value: str) -> list[Card]:
        try:
            cards = parse_cards(value.split(","))
        except CardError as exc:
            raise MalformedAction("bad_card", str(exc)) from None
        if len(cards) != 2:
            raise IllegalAction("discard_two", "discard exactly two cards", count=len(cards))
        if cards[0] == cards[1]:
            raise IllegalAction("discard_two", "discard two different cards", count=1)
        for card in cards:
            if card not in self.hands[seat]:
                raise IllegalAction("not_in_hand", f"you do not hold {card.display}",
                                    card=str(card))
        return cards

    def _discard(self, seat: int, cards: list[Card]) -> list[Event]:
        for card in cards:
            self.hands[seat].remove(card)
        self.discarded = _sorted(cards)
        self.phase = CONTRACT
        return [Event("discarded", seat, {})]

    def _check_contract(self, seat: int, value: str) -> str:
        text = value.strip()
        canon = text.lower() if text.lower() in (MISER, WALKAWAY) else text.upper()
        if canon not in (MISER, WALKAWAY):
            try:
                bid_rank(canon)
            except ValueError as exc:
                raise MalformedAction("bad_contract", str(exc)) from None
        if canon not in self._contracts():
            bid = self.auction.winning_bid
            assert bid is not None
            if canon == WALKAWAY and bid != MISER:
                reason = "walking away is not allowed at this table"
            elif bid == MISER:
                reason = "you won the auction with misère: you play misère"
            elif canon == MISER:
                reason = "misère must be bid in the auction"
            else:
                reason = f"the contract cannot be lower than your bid {display(bid)}"
            raise IllegalAction("illegal_contract", reason, contract=canon)
        return canon

    def _contract(self, seat: int, canon: str) -> list[Event]:
        if canon == WALKAWAY:
            self.contract = self.auction.winning_bid
            self.walked_away = True
            self.phase = DONE
            return [Event("walkaway", seat, {"bid": self.contract}), self.deal_over("walkaway")]
        self.contract = canon
        self.trump = trump(canon)  # a checked ten has its trumps too (spec 6.5, 7)
        events = [Event("contract", seat, {"contract": canon})]
        if canon == MISER or self.checked_ten:
            return events + self._start_play()
        first = self.active[(self.active.index(seat) + 1) % 3]
        second = self.active[(self.active.index(seat) + 2) % 3]
        forced = self.rules.stalingrad and canon == "6S"
        self.whisting = Whisting(first, second, level(canon), forced)
        self.phase = WHIST
        return events

    @property
    def checked_ten(self) -> bool:
        return (self.contract is not None and self.contract != MISER
                and level(self.contract) == 10 and self.rules.ten_mode == "checked")

    def _check_whist(self, seat: int, value: str) -> str:
        assert self.whisting is not None
        return self.whisting.check(seat, value)

    def _whist(self, seat: int, call: str) -> list[Event]:
        assert self.whisting is not None
        self.whisting.apply(seat, call)
        events = [Event("whist", seat, {"call": call})]
        if self.whisting.turn is not None:
            return events
        whisters = self.whisting.whisters
        if not whisters:
            self.phase = DONE
            return [*events, self.deal_over("game")]
        if len(whisters) == 1:
            self.phase = OPEN
            return events
        self.open = False
        return events + self._start_play()

    def _check_open(self, seat: int, value: str) -> bool:
        if value not in ("true", "false"):
            raise MalformedAction("bad_open", "choose open:true or open:false")
        return value == "true"

    def _open(self, seat: int, open_play: bool) -> list[Event]:
        self.open = open_play
        events = [Event("open_chosen", seat, {"open": self.open})]
        return events + self._start_play()

    def _start_play(self) -> list[Event]:
        self.phase = PLAY
        events = self._begin_trick(self.active[0])
        if (self.open and self.rules.open_reveal == "before_declarer_lead"
                and self.declarer == self.active[0]):
            events.append(self._expose())
        return events

    def _talon_led(self, trick: int) -> bool:
        """Whether trick ``trick`` (counted from 1) was led by a talon card (raspasy, lead_two)."""
        return self.raspasy and self.rules.raspasy_talon == "lead_two" and trick <= 2

    def _talon_leads(self) -> bool:
        return self._talon_led(self.tricks_done + 1)

    def _begin_trick(self, leader: int) -> list[Event]:
        self.trick = []
        if self._talon_leads():
            card = self.talon[self.talon_turned]
            self.talon_turned += 1
            owner = self.dealer if self.n == 4 else None
            self.trick.append((owner, card))
            self.order = list(self.active)
            return [Event("talon_card", owner, {"card": str(card), "trick": self.tricks_done + 1})]
        self.leader = leader
        i = self.active.index(leader)
        self.order = [self.active[(i + k) % 3] for k in range(3)]
        return []

    def _check_play(self, seat: int, value: str) -> Card:
        try:
            card = parse_card(value)
        except CardError as exc:
            raise MalformedAction("bad_card", str(exc)) from None
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction("not_in_hand", f"that hand does not hold {card.display}",
                                card=str(card))
        if card not in self._playable(seat):
            led = self.trick[0][1].suit
            assert led is not None
            if any(c.suit == led for c in hand):
                raise IllegalAction("must_follow", f"you must follow {led.symbol}", suit=led.letter)
            assert self.trump is not None
            raise IllegalAction("must_trump", f"you must play a trump {self.trump.symbol}",
                                suit=self.trump.letter)
        return card

    def _play(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.order.pop(0)
        events = [Event("card", seat, {"card": str(card)})]
        if self._exposes_now():
            events.append(self._expose())
        if not self.order:
            events.extend(self._finish_trick())
        return events

    def _exposes_now(self) -> bool:
        """The defenders' hands go face up after the first card of trick 1."""
        if self.exposed or self.tricks_done or len(self.trick) != 1:
            return False
        return bool(self.open) or self.contract == MISER or self.checked_ten

    def _expose(self) -> Event:
        self.exposed = True
        return Event("exposed", None, {"hands": self._exposed_hands()})

    def _exposed_hands(self) -> dict[int, list[str]]:
        return {s: [str(c) for c in self.hands[s]] for s in self._defenders()}

    def _defenders(self) -> tuple[int, ...]:
        return tuple(s for s in self.active if s != self.declarer)

    def _finish_trick(self) -> list[Event]:
        win = self.trick[winner(self.trick, self.trump)][0]
        assert win is not None
        self.tricks[win] += 1
        self.tricks_done += 1
        self.last_trick, self.last_winner = self.trick, win
        self.played.extend(card for _, card in self.trick)
        events = [Event("trick", win, {"number": self.tricks_done,
                                       "cards": [[s, str(c)] for s, c in self.trick]})]
        if self.tricks_done == TRICKS_PER_DEAL:
            self.trick, self.order = [], []
            self.phase = DONE
            kind = "raspasy" if self.declarer is None else (
                "miser" if self.contract == MISER else "game")
            return [*events, self.deal_over(kind)]
        # With ``lead_two`` trick 3 is led by first hand whoever won the talon tricks;
        # otherwise (``unused`` included) the winner leads (spec 9).
        leader = self.active[0] if self._talon_led(self.tricks_done) else win
        return events + self._begin_trick(leader)

    def deal_over(self, kind: str) -> Event:
        return Event("deal_over", None, {"kind": kind, "tricks": list(self.tricks)})

    # -- outcome ----------------------------------------------------------------------

    def result(self) -> DealResult:
        if self.phase != DONE:
            raise WrongPhase("deal_not_over", "the deal is not finished")
        w = self.whisting
        if self.declarer is None:
            kind = "raspasy"
        elif self.contract == MISER:
            kind = "miser"
        else:
            kind = "walkaway" if self.walked_away else "game"
        return DealResult(
            kind=kind,
            players=self.n,
            dealer=self.dealer,
            active=self.active,
            tricks=tuple(self.tricks),
            talon=(str(self.talon[0]), str(self.talon[1])),
            raspasy_state=self.context.raspasy_state,
            declarer=self.declarer,
            bid=self.auction.winning_bid,
            contract=self.contract,
            checked=self.checked_ten,
            first_defender=w.first if w else self._defender(1),
            second_defender=w.second if w else self._defender(2),
            calls=tuple(w.calls) if w else (),
            whisters=w.whisters if w else (),
            halfwhister=w.halfwhister if w else None,
            returned=w.returned if w else False,
            open=self.open,
            played=self.tricks_done == TRICKS_PER_DEAL,
        )

    def _defender(self, k: int) -> int | None:
        if self.declarer is None:
            return None
        return self.active[(self.active.index(self.declarer) + k) % 3]

    def progress(self) -> dict[str, Any]:
        """An unfinished deal as replay reports it: completed tricks, nothing written."""
        return {"dealer": self.dealer, "kind": "unfinished", "contract": None,
                "declarer": None, "tricks": list(self.tricks), "entries": empty_entries(self.n)}

    # -- what a seat may see -------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know (None: a spectator)."""
        # The talon is turned up for everyone after the auction; in raspasy card by card.
        shown_talon = self.talon if self.declarer is not None else self.talon[:self.talon_turned]
        view: dict[str, Any] = {
            "game": "preferans",
            "seat": seat,
            "players": list(self.players),
            "dealer": self.dealer,
            "active": list(self.active),
            "phase": self.phase,
            "version": self.version,
            "to_act": list(self.to_act),
            "controllers": {s: self.controller(s) for s in self.to_act},
            "min_bid": self.context.min_bid,
            "raspasy_state": self.context.raspasy_state,
            "hand_sizes": [len(h) for h in self.hands],
            "bids": [[s, c] for s, c in self.auction.calls],
            "high_bid": self.auction.winning_bid,
            "declarer": self.declarer,
            "talon": [str(c) for c in shown_talon],
            "contract": self.contract,
            "whists": [[s, c] for s, c in self.whisting.calls] if self.whisting else [],
            "open": self.open,
            "trick": [[s, str(c)] for s, c in self.trick],
            "last_trick": [[s, str(c)] for s, c in self.last_trick],
            "last_winner": self.last_winner,
            "played": [str(c) for c in self.played],
            "tricks": list(self.tricks),
            "tricks_done": self.tricks_done,
            "exposed": self._exposed_hands() if self.exposed else {},
            "claim": claims.view(self),
            "claims": [dict(c) for c in self.claims],
            "hand": [],
            "discard": [],
            "actions": acting_actions(self, seat),
        }
        if seat is None:
            return view
        view["hand"] = [str(c) for c in self.hands[seat]]
        if seat == self.declarer:
            view["discard"] = [str(c) for c in self.discarded]
        return view

    def describe(self, action: str) -> str:
        """A short English label: "7♥", "pass", "misère", "discard 7♠ 8♦", "Q♥"."""
        key, _, value = action.partition(":")
        if key == "discard":
            return "discard " + " ".join(parse_card(c).display for c in value.split(","))
        if key == "open":
            return "open" if value == "true" else "closed"
        if key == "play":
            return parse_card(value).display
        if key == "claim":
            return f"claim {value}"
        if value in LADDER:
            return display(value)
        return {"halfwhist": "half-whist", WALKAWAY: "walk away"}.get(value, value)


def _read_deal(deal: Mapping[str, Any], dealer: int, n: int,
               active: list[int]) -> tuple[list[list[Card]], list[Card]]:
    """Hands and talon of a record's deal, checked: 10 cards each, 2 in the talon, all 32."""
    if deal.get("dealer") != dealer:
        raise RecordError(f"the dealer must be seat {dealer} (the deal passes clockwise), "
                          f"not {deal.get('dealer')!r}")
    hands_data, talon_data = deal.get("hands"), deal.get("talon")
    if not isinstance(hands_data, list) or len(hands_data) != n:
        raise RecordError(f"hands must be a list of {n} card lists")
    if not isinstance(talon_data, list) or len(talon_data) != 2:
        raise RecordError("the talon must be a list of two cards")
    hands = []
    for seat, cards in enumerate(hands_data):
        if not isinstance(cards, list):
            raise RecordError(f"hand {seat} must be a list of cards")
        parsed = parse_cards(cards)
        want = 10 if seat in active else 0
        if len(parsed) != want:
            raise RecordError(f"hand {seat} must have {want} cards, not {len(parsed)}")
        hands.append(parsed)
    talon = parse_cards(talon_data)
    every = [c for h in hands for c in h] + talon
    if sorted(every, key=Card.sort_key) != sorted(preferans_deck(), key=Card.sort_key):
        raise RecordError("the hands and the talon must hold the 32 cards once each")
    return hands, talon
