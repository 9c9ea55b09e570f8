"""One Joker deal as a state machine: trump choice, bids, tricks (spec sections 6-10)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import (
    ActionError,
    Event,
    IllegalAction,
    NotYourTurn,
    WrongPhase,
    acting_actions,
    refusal,
)
from engine.cards import JOKER, Card, Suit, format_cards, sorted_hand
from engine.joker.actions import (
    SUITS,
    Action,
    Bid,
    Play,
    TrumpChoice,
    describe,
    parse_action,
    record_form,
    trump_text,
)
from engine.joker.dealing import deal_from_record, deal_from_seed
from engine.joker.result import DealContext, DealResult, deal_output
from engine.joker.rules import Rules
from engine.joker.tricks import PlayCheck, trick_winner

TRUMP_ACTIONS = [str(TrumpChoice(s)) for s in (*SUITS, None)]
_PHASE_ACTION: dict[str, type] = {"trump": TrumpChoice, "bid": Bid, "play": Play}
_PHASE_VERB = {"trump": "choose the trump", "bid": "bid", "play": "play a card"}
CHOOSER_SEES = 3  # cards the chooser sees before naming the trump


class State:
    """A Joker deal. Phases: ``trump`` (9-card deals), ``bid``, ``play``, ``over``."""

    def __init__(
        self, rules: Rules, players: list[str], context: DealContext,
        hands: list[list[Card]], trump_card: Card | None,
    ) -> None:
        self.rules = rules
        self.players = list(players)
        self.context = context
        self.n = rules.players
        self.dealt = [list(h) for h in hands]  # dealing order, for the record
        self.hands = [sorted_hand(h) for h in hands]
        self.trump_card = trump_card
        self.first = (context.dealer + 1) % self.n  # first bidder, first leader, chooser
        self.phase = "trump" if context.trump_mode == "chooser" else "bid"
        self.trump: Suit | None = trump_card.suit if trump_card is not None else None
        self.trump_known = self.phase == "bid"
        self.bids: list[int | None] = [None] * self.n
        self.turn = self.first
        self.trick: list[tuple[int, Play]] = []
        self.last_trick: list[tuple[int, Play]] = []
        self.played: list[tuple[int, Play]] = []  # every completed trick's plays, in order
        self.last_winner: int | None = None
        self.tricks = [0] * self.n
        self.sixes_used: set[Card] = set()
        self.version = 0

    @classmethod
    def new(
        cls, rules: Rules, players: list[str], context: DealContext, *,
        seed: int | str | None = None, deal: Mapping[str, Any] | None = None,
    ) -> State:
        """A deal from a seed (reproducible) or from a record's explicit hands."""
        if deal is not None:
            hands, trump_card = deal_from_record(rules.players, context, deal)
        elif seed is not None:
            hands, trump_card = deal_from_seed(rules.players, context, seed)
        else:
            raise ValueError("a deal needs a seed or explicit hands")
        return cls(rules, players, context, hands, trump_card)

    # -- the contract -------------------------------------------------------------

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.finished else (self.turn,)

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def leader(self) -> int | None:
        """The seat that leads (or led) the current trick."""
        if self.phase != "play":
            return None
        return self.trick[0][0] if self.trick else self.turn

    @property
    def cards(self) -> int:
        return self.context.cards

    @property
    def dealer(self) -> int:
        return self.context.dealer

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act:
            return []
        if self.phase == "trump":
            return list(TRUMP_ACTIONS)
        if self.phase == "bid":
            return [str(Bid(b)) for b in self.legal_bids(seat)]
        return [str(p) for p in self._check(seat).legal()]

    def check(self, seat: int, action: str) -> ActionError | None:
        """Why ``apply`` would refuse the action, or None; nothing is applied or copied."""
        return refusal(self._validated, seat, action)

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply one action; an ActionError leaves the state unchanged."""
        parsed = self._validated(seat, action)
        if isinstance(parsed, TrumpChoice):
            self.trump, self.trump_known, self.phase = parsed.suit, True, "bid"
            events = [Event("trump_chosen", seat, {"trump": self.trump_text})]
        elif isinstance(parsed, Bid):
            events = self._bid(seat, parsed.tricks)
        else:
            events = self._play(seat, parsed)
        self.version += 1
        return events

    def _validated(self, seat: int, action: str) -> Action:
        """The action, parsed and checked; raises the ActionError refusing it.

        Nothing here changes the state: ``check`` and ``apply`` share it."""
        parsed = parse_action(action)
        if self.finished:
            raise WrongPhase("deal_over", "the deal is over")
        if not isinstance(parsed, _PHASE_ACTION[self.phase]):
            raise WrongPhase("wrong_phase", f"it is time to {_PHASE_VERB[self.phase]}")
        if seat != self.turn:
            raise NotYourTurn("not_your_turn", f"it is {self._name(self.turn)}'s turn",
                              seat=self.turn)
        error = None
        if isinstance(parsed, Bid):
            error = self._bid_error(seat, parsed.tricks)
        elif isinstance(parsed, Play):
            error = self._check(seat).error(parsed)
        if error is not None:
            raise error
        return parsed

    def controller(self, seat: int) -> int:
        return seat

    def describe(self, action: str) -> str:
        return describe(parse_action(action))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator), and what a panel renders."""
        ctx = self.context
        view: dict[str, Any] = {
            "game": "joker", "seat": seat, "players": list(self.players),
            "deal": ctx.number, "pulka": ctx.pulka, "cards": ctx.cards, "dealer": ctx.dealer,
            "phase": self.phase, "to_act": list(self.to_act), "version": self.version,
            "actions": acting_actions(self, seat),
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "trump": self.trump_text,
            "chooser": self.first if ctx.trump_mode == "chooser" else None,
            "hand_counts": [len(self._visible_hand(s)) for s in range(self.n)],
            "bids": list(self.bids), "forbidden_bid": self.forbidden_bid(),
            "leader": self.leader,
            "trick": [record_form(s, p) for s, p in self.trick],
            "last_trick": self._trick_view(),
            "played": [record_form(s, p) for s, p in self.played],
            "tricks": list(self.tricks),
            "sixes_used": sorted(str(c) for c in self.sixes_used),
        }
        if seat is not None:
            view["hand"] = format_cards(sorted_hand(self._visible_hand(seat)))
        return view

    def result(self) -> DealResult:
        if not self.finished:
            raise WrongPhase("deal_not_over", "the deal is not finished")
        ctx = self.context
        assert self.trump_text is not None
        return DealResult(ctx.number, ctx.pulka, ctx.cards, ctx.dealer, self.trump_text,
                          tuple(b for b in self.bids if b is not None), tuple(self.tricks))

    def deal_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer, "cards": self.cards,
            "hands": [format_cards(h) for h in self.dealt],
            "trump_card": None if self.trump_card is None else str(self.trump_card),
        }

    def progress(self) -> dict[str, Any]:
        return {**deal_output(self.dealer, self.cards, self.trump_text, list(self.bids),
                              list(self.tricks), [0] * self.n), "unfinished": True}

    # -- what the rules allow -------------------------------------------------------

    @property
    def trump_text(self) -> str | None:
        """The trump as a suit letter or ``NT``; None while the chooser has not named it."""
        return trump_text(self.trump) if self.trump_known else None

    def forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid once everyone else has bid (spec 7); None if there is none."""
        if not self.rules.dealer_restriction:
            return None
        others = [b for s, b in enumerate(self.bids) if s != self.dealer]
        if None in others:
            return None
        forbidden = self.cards - sum(b for b in others if b is not None)
        return forbidden if 0 <= forbidden <= self.cards else None

    def legal_bids(self, seat: int) -> list[int]:
        return [b for b in range(self.cards + 1) if self._bid_error(seat, b) is None]

    def _bid_error(self, seat: int, bid: int) -> IllegalAction | None:
        if bid > self.cards:
            return IllegalAction("bid_range", f"a bid is 0 to {self.cards} tricks in this deal",
                                 max=self.cards)
        forbidden = self.forbidden_bid() if seat == self.dealer else None
        if bid == forbidden:
            return IllegalAction(
                "forbidden_bid",
                f"the dealer may not bid {bid}: the bids would add up to {self.cards}, "
                "the number of tricks",
                bid=bid,
            )
        limit = self.rules.max_passes
        forced = all(b == forbidden for b in range(1, self.cards + 1))
        if bid == 0 and limit is not None and self.context.passes[seat] >= limit and not forced:
            return IllegalAction("pass_limit", f"you have used all {limit} passes of this game",
                                 limit=limit)
        return None

    def _check(self, seat: int) -> PlayCheck:
        return PlayCheck(self.rules, self.hands[seat], [p for _, p in self.trick], self.trump,
                         self.sixes_used)

    # -- applying -------------------------------------------------------------------

    def _bid(self, seat: int, bid: int) -> list[Event]:
        self.bids[seat] = bid
        events = [Event("bid", seat, {"bid": bid})]
        if seat == self.dealer:
            total = sum(b for b in self.bids if b is not None)
            balance = "under" if total < self.cards else "over" if total > self.cards else "even"
            events.append(Event("bids_done", None,
                                {"total": total, "cards": self.cards, "balance": balance}))
            self.phase, self.turn = "play", self.first
        else:
            self.turn = self._next(seat)
        return events

    def _play(self, seat: int, play: Play) -> list[Event]:
        self.hands[seat].remove(JOKER if play.card.is_joker else play.card)
        if play.joker == "face":
            assert play.natural is not None
            self.sixes_used.add(play.natural)
        self.trick.append((seat, play))
        events = [Event("play", seat, record_form(seat, play))]
        if len(self.trick) < self.n:
            self.turn = self._next(seat)
            return events
        winner = self.trick[trick_winner([p for _, p in self.trick], self.trump, self.rules)][0]
        self.tricks[winner] += 1
        self.played += self.trick
        self.last_trick, self.last_winner, self.trick, self.turn = self.trick, winner, [], winner
        events.append(Event("trick", winner, self._trick_view()))
        if sum(self.tricks) == self.cards:
            self.phase = "over"
            events.append(Event("deal_over", None,
                                {"bids": list(self.bids), "tricks": list(self.tricks)}))
        return events

    # -- helpers ----------------------------------------------------------------------

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.n

    def _name(self, seat: int) -> str:
        return self.players[seat] if seat < len(self.players) else f"seat {seat}"

    def _visible_hand(self, seat: int) -> list[Card]:
        """Before the trump is chosen every player holds only the first three cards dealt."""
        return self.dealt[seat][:CHOOSER_SEES] if self.phase == "trump" else self.hands[seat]

    def _trick_view(self) -> dict[str, Any] | None:
        """The last completed trick and its winner."""
        if not self.last_trick:
            return None
        return {"plays": [record_form(s, p) for s, p in self.last_trick],
                "winner": self.last_winner}
