"""The Joker substitute robot and the timeout auto move.

Both take the deciding seat's view (``state.view(seat)``) and the Rules, never
the state, and return one of the seat's legal actions (rebuilt from the view:
see ``seat``).

The robot (issue 21) bids and plays by Monte Carlo: it deals the cards it has not
seen in ways that fit what it has seen, plays each option out in each deal with
every hand open, and takes the option that scores best on average. The chooser's
trump stays the heuristic's; the rule-of-thumb robot is
``engine.joker.robot.heuristic``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.joker.robot.heuristic import bidding
from engine.joker.robot.montecarlo import decide
from engine.joker.robot.seat import Seat
from engine.joker.rules import Rules
from engine.robot_budget import DEFAULT, Budget


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random,
           budget: Budget = DEFAULT) -> str:
    """The robot's action for the seat whose view this is, within ``budget``."""
    seat = Seat(view, rules)
    if seat.phase == "trump":
        return bidding.trump_choice(seat)
    return decide(seat, seat.legal, rng, budget)


def auto_action(view: Mapping[str, Any], rules: Rules) -> str:
    """The timeout auto move: the trump the first three cards suggest, the lowest bid
    the rules allow (a pass unless the dealer may not), the lowest card that may be
    played (a joker played low when only jokers are left)."""
    seat = Seat(view, rules)
    if seat.phase == "trump":
        return bidding.trump_choice(seat)
    if seat.phase == "bid":
        return f"bid:{seat.legal_bids()[0]}"
    plays = seat.check().legal()
    naturals = [p for p in plays if p.joker is None]
    if naturals:
        return str(min(naturals, key=lambda p: p.card.rank))
    return str(next((p for p in plays if p.joker == "low"), plays[0]))


__all__ = ["Budget", "auto_action", "choose"]
