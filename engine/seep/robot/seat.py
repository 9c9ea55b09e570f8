"""What the deciding Seep seat knows, read from its view, and its legal moves.

The Seep view does not list the seat's legal actions; the floor it shows
(loose cards, houses with their groups and owners) is rebuilt into the
engine's ``Floor`` and the engine's own move generator gives them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from engine.cards import Card, parse_card, parse_cards
from engine.robot_seat import ViewSeat
from engine.seep.floor import HOUSE_VALUES, Floor, House
from engine.seep.moves import Move, Turn, legal_moves, perform
from engine.seep.notation import action_text, written
from engine.seep.pack import seep_deck
from engine.seep.rules import Rules
from engine.seep.values import value


def floor_of(data: Mapping[str, Any]) -> Floor:
    """The engine's floor from a view's ``floor``."""
    houses = [House(h["value"], [tuple(parse_cards(g)) for g in h["groups"]], set(h["owners"]))
              for h in data["houses"]]
    return Floor(parse_cards(data["loose"]), houses)


class Seat(ViewSeat):
    """The deciding seat's knowledge of a Seep deal."""

    rules: Rules

    def __init__(self, view: Mapping[str, Any], rules: Rules) -> None:
        super().__init__(view, rules)
        self.plays: int = view["plays"]

    @property
    def bids(self) -> list[int]:
        """Spec 4.4: a value 9-13 of which the bidder holds a card."""
        return sorted({value(c) for c in self.hand} & set(HOUSE_VALUES))

    def turn(self) -> Turn:
        """The engine's position for the move (a fresh floor each time: moves change it)."""
        bid = self.view["bid"] if self.plays == 0 else None
        return Turn(self.rules, floor_of(self.view["floor"]), self.seat, tuple(self.hand), bid)

    @cached_property
    def moves(self) -> list[Move]:
        return legal_moves(self.turn())

    @cached_property
    def legal(self) -> list[str]:
        if self.phase == "bid":
            return [f"bid:{b}" for b in self.bids]
        return [action_text(written(m)) for m in self.moves]

    @cached_property
    def floor(self) -> Floor:
        """The floor before the move (not to be changed)."""
        return floor_of(self.view["floor"])

    def outcome(self, move: Move) -> tuple[list[Card], Floor]:
        """The cards the move captures and the floor it leaves."""
        turn = self.turn()
        return perform(turn, move), turn.floor

    def action(self, move: Move) -> str:
        return action_text(written(move))

    @cached_property
    def unseen(self) -> Counter[int]:
        """Cards of each value the seat has not seen (other hands, or captured unseen)."""
        seen = set(self.hand)
        floor = self.view["floor"]
        seen |= set(parse_cards(floor["loose"]))
        seen |= {parse_card(c) for h in floor["houses"] for g in h["groups"] for c in g}
        if self.view["last_capture"]:
            seen |= set(parse_cards(self.view["last_capture"]["cards"]))
        return Counter(value(c) for c in seep_deck() if c not in seen)

    def holds_value(self, seat_after: int, v: int) -> float:
        """The chance that ``seat_after``'s hand holds a card of value ``v``."""
        pool = sum(self.unseen.values())
        out, size = self.unseen[v], self.view["hand_sizes"][seat_after]
        if out == 0 or size == 0:
            return 0.0
        miss = 1.0
        for i in range(min(size, pool - out + 1)):
            miss *= (pool - out - i) / (pool - i)
        return 1.0 - miss


