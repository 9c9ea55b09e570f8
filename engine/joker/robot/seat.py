"""What the deciding Joker seat knows, read from its view, and its legal actions.

The Joker view does not list the seat's legal actions, so they are rebuilt here
from the view with the engine's own rules (``PlayCheck``, the dealer's forbidden
bid). One thing the view lacks: how many zero bids the seat has used under a
``pass_limit``; the robot then never passes by choice (a forced pass stays).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from engine.cards import Card, Suit, parse_card, parse_cards
from engine.joker.actions import Play, decode_action, parse_action
from engine.joker.pack import joker_deck
from engine.joker.rules import Rules
from engine.joker.state import TRUMP_ACTIONS
from engine.joker.tricks import PlayCheck, trick_winner
from engine.robot_seat import ViewSeat

DECK = Counter(joker_deck())


def _play(item: Mapping[str, Any]) -> Play:
    play = parse_action(decode_action(item)[1])
    assert isinstance(play, Play)
    return play


class Seat(ViewSeat):
    """The deciding seat's knowledge of a Joker deal."""

    rules: Rules

    def __init__(self, view: Mapping[str, Any], rules: Rules) -> None:
        super().__init__(view, rules)
        self.cards: int = view["cards"]  # per player in this deal
        self.players = rules.players
        trump = view["trump"]
        self.trump: Suit | None = None if trump in (None, "NT") else Suit[trump]
        self.trick: list[tuple[int, Play]] = [(p["seat"], _play(p)) for p in view["trick"]]
        last = view["last_trick"]
        self.last_trick = [_play(p) for p in last["plays"]] if last else []
        self.played: list[tuple[int, Play]] = [(p["seat"], _play(p)) for p in view["played"]]
        self.bid: int | None = view["bids"][self.seat]
        self.taken: int = view["tricks"][self.seat]
        self.sixes_used = set(parse_cards(view["sixes_used"]))

    # -- legality ---------------------------------------------------------------------

    def check(self) -> PlayCheck:
        return PlayCheck(self.rules, self.hand, [p for _, p in self.trick], self.trump,
                         self.sixes_used)

    def legal_bids(self) -> list[int]:
        forbidden = self.view["forbidden_bid"] if self.seat == self.view["dealer"] else None
        bids = [b for b in range(self.cards + 1) if b != forbidden]
        if self.rules.max_passes is not None:  # the view does not say how many passes are left
            bids = [b for b in bids if b > 0] or bids
        return bids

    @cached_property
    def legal(self) -> list[str]:
        if self.phase == "trump":
            return list(TRUMP_ACTIONS)
        if self.phase == "bid":
            return [f"bid:{b}" for b in self.legal_bids()]
        return [str(p) for p in self.check().legal()]

    # -- what is out --------------------------------------------------------------------

    @cached_property
    def unseen(self) -> Counter[Card]:
        """Cards the seat has not seen: in other hands, already played, or not dealt."""
        seen = Counter(self.hand)
        for play in [p for _, p in self.trick] + self.last_trick:
            seen[play.card] += 1
        if self.view["trump_card"] is not None:
            seen[parse_card(self.view["trump_card"])] += 1
        return DECK - seen

    def beaten_by_unseen(self, card: Card) -> bool:
        """Might a hidden natural card of the same suit beat ``card``?"""
        return any(c.suit == card.suit and c.rank > card.rank for c in self.unseen)

    def wins_now(self, play: Play) -> bool:
        """Would ``play`` win the trick as it stands (later players aside)?"""
        plays = [p for _, p in self.trick] + [play]
        return trick_winner(plays, self.trump, self.rules) == len(plays) - 1

    @property
    def last_to_play(self) -> bool:
        return len(self.trick) == self.players - 1
