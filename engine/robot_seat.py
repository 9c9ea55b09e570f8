"""What every substitute robot starts from: the deciding seat's view and the rules.

A game's robot reads only ``state.view(seat)``; this refuses, with a clear
message, a view whose seat has nothing to decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import parse_cards


class ViewSeat:
    """The seat whose view this is, to act now: its hand, the phase, the rules."""

    def __init__(self, view: Mapping[str, Any], rules: Any) -> None:
        seat = view.get("seat")
        if seat is None or seat not in view.get("to_act", ()):
            raise ValueError("this view has no decision to make: it is not this seat's turn")
        self.seat: int = seat
        self.rules = rules
        self.view = view
        self.phase: str = view["phase"]
        self.hand = parse_cards(view["hand"])
