"""One Seep deal as a state machine: the bid, then 48 plays (spec sections 4 and 6-9)."""

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
from engine.cards import Card, CardError, parse_card
from engine.seep.deal import Dealt, deal_from_record, deal_from_seed
from engine.seep.floor import HOUSE_VALUES, Floor
from engine.seep.moves import CAPTURE, Move, Turn, diagnose, legal_moves, perform
from engine.seep.notation import BID, action_text, label, parse_action, to_move, written
from engine.seep.result import DealContext, DealResult
from engine.seep.rules import Rules
from engine.seep.values import ordered, points, total, value

PLAYS = 48
HALF = 12  # cards each seat holds after play #1 (with two players, in each half of the deal)
BIDDING, PLAYING, DONE, VOID = "bid", "play", "done", "void"
FIRST, MIDDLE, LAST = 1, 0, 2  # index of a sweep's kind in the ``sweeps`` counts


class State:
    """A deal: the hands as dealt so far, the floor, the capture piles and sweeps per team."""

    def __init__(self, rules: Rules, dealt: Dealt, lead: int = 0) -> None:
        self.rules = rules
        self.dealt = dealt
        self.lead = lead  # the ledger before this deal, for ``progress``
        self.version = 0
        self.phase = VOID if dealt.void else BIDDING
        self.bid: int | None = None
        self.plays = 0
        self.turn = dealt.bidder
        self.hands: list[list[Card]] = [[] for _ in range(rules.players)]
        self._received = [0] * rules.players
        self.floor = Floor()  # the four floor cards lie face down in ``dealt`` until the bid
        self.piles: list[list[Card]] = [[], []]
        self.sweeps = [[0, 0, 0], [0, 0, 0]]
        self._counted: list[list[int]] = [[], []]  # counted sweep kinds in order (sweep_cancel)
        self.last_capturer: int | None = None
        self.last_capture: dict[str, Any] | None = None
        self.unclaimed: list[Card] = []  # the floor's rest when nobody captured in the deal
        if not dealt.void:
            self._receive()

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: list[str],
        context: DealContext,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> State:
        """A deal from a seed (reproducible) or from a record's deal object."""
        if len(players) != rules.players:
            raise ValueError(f"Seep with these rules needs {rules.players} players")
        if deal is not None:
            return cls(rules, deal_from_record(rules, context.dealer, deal), context.lead)
        if seed is None:
            raise ValueError("a deal needs a seed or explicit cards")
        return cls(rules, deal_from_seed(rules, context.dealer, seed), context.lead)

    @property
    def dealer(self) -> int:
        return self.dealt.dealer

    @property
    def bidder(self) -> int:
        return self.dealt.bidder

    @property
    def finished(self) -> bool:
        return self.phase in (DONE, VOID)

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.finished else (self.turn,)

    def controller(self, seat: int) -> int:
        return seat

    # Moves.

    def bids(self) -> list[int]:
        """Spec 4.4: any value 9-13 of which the bidder holds a card."""
        return sorted({value(c) for c in self.hands[self.bidder]} & set(HOUSE_VALUES))

    def legal_actions(self, seat: int, card: Card | str | None = None) -> list[str]:
        """Every legal action of the seat (canonical text), or only those playing ``card``."""
        if seat not in self.to_act:
            return []
        if self.phase == BIDDING:
            return [] if card is not None else [f"bid:{b}" for b in self.bids()]
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except CardError:
                return []
        return [action_text(written(m)) for m in legal_moves(self._turn(), card)]

    def _turn(self) -> Turn:
        bid = self.bid if self.plays == 0 else None
        return Turn(self.rules, self.floor, self.turn, tuple(self.hands[self.turn]), bid)

    def check(self, seat: int, action: str) -> ActionError | None:
        """Why ``apply`` would refuse the action, or None; nothing is applied or copied."""
        return refusal(self._validated, seat, action)

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply one action; a typed ActionError, and no change, if it is not legal."""
        checked = self._validated(seat, action)
        if isinstance(checked, int):
            return self._bid(seat, checked)
        return self._play(seat, checked)

    def _validated(self, seat: int, action: str) -> int | Move:
        """The bid or the legal move the action names; raises the ActionError refusing it.

        Nothing here changes the state: ``check`` and ``apply`` share it."""
        if self.finished:
            raise WrongPhase("deal_over", "the deal is over")
        if seat not in self.to_act:
            raise NotYourTurn("not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s",
                              seat=self.turn)
        w = parse_action(action)
        if self.phase == BIDDING:
            if w.kind != BID:
                raise WrongPhase("bid_first", "the bidder must first bid 9 to 13")
            assert w.number is not None
            if w.number not in HOUSE_VALUES:
                raise IllegalAction("bid_range", f"a bid is 9 to 13, not {w.number}",
                                    bid=w.number)
            if w.number not in self.bids():
                raise IllegalAction("bid_card", f"you hold no card of value {w.number} to bid it",
                                    bid=w.number)
            return w.number
        if w.kind == BID:
            raise WrongPhase("bidding_over", "the bid has been made: play a card")
        move = to_move(w)
        turn = self._turn()
        if move not in legal_moves(turn, move.card):
            raise diagnose(turn, move)
        return move

    def _bid(self, seat: int, bid: int) -> list[Event]:
        self.bid = bid
        self.floor = Floor(self.dealt.floor)
        self.phase = PLAYING
        self.version += 1
        return [Event("bid", seat, {"bid": bid, "floor": [str(c) for c in self.floor.loose]})]

    def _play(self, seat: int, move: Move) -> list[Event]:
        turn = self._turn()
        text = written(move)
        events = [Event("move", seat, {"kind": move.kind, "card": str(move.card),
                                       "action": action_text(text),
                                       "label": label(text, self.floor.houses)})]
        captured = perform(turn, move)
        self.hands[seat].remove(move.card)
        self.plays += 1
        self.last_capture = None
        if move.kind == CAPTURE:
            self.piles[self.rules.team(seat)] += captured
            self.last_capturer = seat
            self.last_capture = {"seat": seat, "cards": [str(c) for c in captured]}
            if self.floor.empty:
                events.append(self._sweep(seat))
        if self._receive():
            events.append(Event("dealt", None, {"plays": self.plays}))
        self._check_invariants()
        if self.plays == PLAYS:
            events += self._finish()
        else:
            self.turn = self.rules.next_seat(seat)
        self.version += 1
        return events

    def _receive(self) -> bool:
        """Hand out the cards due after the plays so far (spec 4.2, 4.7; two players: 13)."""
        rules, dealt = self.rules, self.dealt
        if self.plays == 0:
            due = {dealt.bidder: 4} | ({dealt.dealer: 4} if rules.players == 2 else {})
        elif self.plays == 1:
            due = dict.fromkeys(range(rules.players), HALF)
        elif self.plays == PLAYS // 2 and rules.players == 2:
            due = dict.fromkeys(range(rules.players), rules.hand_size)
        else:
            return False
        for seat, upto in due.items():
            new = dealt.hands[seat][self._received[seat]:upto]
            self.hands[seat] = ordered([*self.hands[seat], *new])
            self._received[seat] = upto
        return True

    def _sweep(self, seat: int) -> Event:
        """Spec 7 and the ``sweep_cancel`` convention (16.4.3)."""
        rules = self.rules
        kind = FIRST if self.plays == 1 else LAST if self.plays == PLAYS else MIDDLE
        team, other = rules.team(seat), 1 - rules.team(seat)
        counted = True
        if rules.sweep_cancel:
            if self._counted[other]:
                self.sweeps[other][self._counted[other].pop()] -= 1
                counted = False
            elif len(self._counted[team]) >= 2:
                counted = False
        if counted:
            self._counted[team].append(kind)
            self.sweeps[team][kind] += 1
        worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
        return Event("sweep", seat, {"team": team, "points": worth[kind] if counted else 0,
                                     "counted": counted})

    def _finish(self) -> list[Event]:
        """Spec 8: the last capturer's side takes the floor's rest; then the deal is over."""
        assert not self.floor.houses, "a house outlived the deal"
        rest = list(self.floor.loose)
        self.floor.take_loose(rest)
        events = []
        if rest and self.last_capturer is not None:
            team = self.rules.team(self.last_capturer)
            self.piles[team] += rest
            events.append(Event("floor_taken", self.last_capturer,
                                {"team": team, "cards": [str(c) for c in rest]}))
        else:
            self.unclaimed = rest
        self.phase = DONE
        result = self.result()
        events.append(Event("deal_end", None, {"card_points": list(result.card_points),
                                               "sweeps": [list(s) for s in result.sweeps]}))
        return events

    def _check_invariants(self) -> None:
        """Spec section 5, I1-I4 (I1 holds by construction: houses are keyed by value)."""
        for v, house in self.floor.houses.items():
            assert house.value == v and v in HOUSE_VALUES, "I4: house value"
            assert len(house.cards) >= 2 and all(total(g) == v for g in house.groups), "I4"
            assert all(value(c) != v for c in self.floor.loose), "I2: a loose card of a house value"
            assert house.owners, "a house without owner"
            for owner in house.owners:
                assert any(value(c) == v for c in self.hands[owner]), "I3: owner without card"

    # Outcome.

    def capture_points(self) -> list[int]:
        return [sum(points(c, self.rules.ten_of_diamonds_points) for c in p) for p in self.piles]

    def result(self) -> DealResult:
        if not self.finished:
            raise WrongPhase("deal_not_over", "the deal is not over")
        if self.phase == VOID:
            return DealResult(self.dealer, self.bidder)
        cp0, cp1 = self.capture_points()
        (a0, b0, c0), (a1, b1, c1) = self.sweeps
        return DealResult(self.dealer, self.bidder, self.bid, (cp0, cp1),
                          (len(self.piles[0]), len(self.piles[1])), ((a0, b0, c0), (a1, b1, c1)))

    def progress(self) -> dict[str, Any]:
        """The replay output of an unfinished deal (spec 16.4.11)."""
        return {"dealer": self.dealer, "bidder": self.bidder, "bid": self.bid, "unfinished": True,
                "plays": self.plays, "card_points": None, "sweeps": None, "score": None,
                "lead": self.lead, "bazzi": None, "reason": None}

    def deal_record(self) -> dict[str, Any]:
        return self.dealt.record()

    def describe(self, action: str) -> str:
        """The English label of an action in this position: "capture 5♠+4♦ = 9", "throw"."""
        return label(parse_action(action), self.floor.houses)

    def view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """What one seat (or a spectator) may see of a deal (spec section 12), JSON-able: own hand
    only; the floor once the bid is made; captured cards only as the rules allow (the last
    capture until the next play; totals with ``show_capture_totals``; everything once the
    deal is over)."""
    rules = state.rules
    over = state.finished
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    shown = rules.show_capture_totals or over
    out: dict[str, Any] = {
        "game": "seep",
        "phase": state.phase,
        "version": state.version,
        "seat": seat,
        "players": rules.players,
        "teams": rules.teams,
        "dealer": state.dealer,
        "bidder": state.bidder,
        "bid": state.bid,
        "plays": state.plays,
        "to_act": list(state.to_act),
        "actions": acting_actions(state, seat),
        "hand": None if seat is None else [str(c) for c in ordered(state.hands[seat])],
        "hand_sizes": [len(h) for h in state.hands],
        "floor": None if state.bid is None else state.floor.as_dict(),
        "last_capture": state.last_capture,
        "last_capturer": state.last_capturer,
        "sweeps": [list(s) for s in state.sweeps],
        "sweep_points": [sum(n * w for n, w in zip(s, worth, strict=True)) for s in state.sweeps],
        "capture_points": state.capture_points() if shown else None,
        "captured_cards": [len(p) for p in state.piles] if shown else None,
    }
    if state.dealt.void:
        out["bidder_cards"] = [str(c) for c in state.dealt.bidder_cards]
    if over:
        out["piles"] = [[str(c) for c in p] for p in state.piles]
        out["unclaimed"] = [str(c) for c in state.unclaimed]
    return out
