"""The Joker substitute robot and the timeout auto move.

Both take the deciding seat's view (``state.view(seat)``) and the Rules, never
the state, and return one of the seat's legal actions (rebuilt from the view:
see ``seat``).

The robot is the rule-of-thumb one (``heuristic``). The Monte-Carlo robot of
issue 21 (``montecarlo``) lost to it in the duplicate benchmark, so it plays only
there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.joker.robot.heuristic import bidding, choose
from engine.joker.robot.seat import Seat
from engine.joker.rules import Rules


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


__all__ = ["auto_action", "choose"]
