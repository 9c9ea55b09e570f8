"""The Seep substitute robot and the timeout auto move (issue 9).

Both take the deciding seat's view (``state.view(seat)``) and the Rules, never
the state, and return one of the seat's legal actions (rebuilt from the view:
see ``seat``). The engine's legality already keeps a house owner's capture card
in hand; the robot adds judgement: captures and sweeps first, houses it can
bring home, no floor left for the next opponent to sweep.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.seep.moves import CAPTURE, THROW
from engine.seep.robot import play
from engine.seep.robot.seat import Seat
from engine.seep.rules import Rules
from engine.seep.values import points, value


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random) -> str:
    """The robot's action for the seat whose view this is. ``rng`` is unused: the
    Seep robot is deterministic (accepted for the common robot signature)."""
    seat = Seat(view, rules)
    return play.bid(seat) if seat.phase == "bid" else play.move(seat)


def auto_action(view: Mapping[str, Any], rules: Rules) -> str:
    """The timeout auto move: bid the lowest value allowed; play the capture that takes
    the most points, else throw the lowest card without points, else the first legal
    move."""
    seat = Seat(view, rules)
    if seat.phase == "bid":
        return f"bid:{seat.bids[0]}"
    ten = rules.ten_of_diamonds_points
    captures = [m for m in seat.moves if m.kind == CAPTURE]
    if captures:
        best = max(captures, key=lambda m: sum(points(c, ten) for c in seat.outcome(m)[0]))
        return seat.action(best)
    throws = [m for m in seat.moves if m.kind == THROW]
    if throws:
        return seat.action(min(throws, key=lambda m: (points(m.card, ten), value(m.card))))
    return seat.action(seat.moves[0])


__all__ = ["auto_action", "choose"]
