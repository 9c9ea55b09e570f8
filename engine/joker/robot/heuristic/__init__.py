"""The rule-of-thumb Joker robot (issue 9): bids from the hand's expected tricks, cards
to hit the bid. It is the robot at the table (``engine.joker.robot``): the Monte-Carlo
robot (``engine.joker.robot.montecarlo``) did not beat it in the benchmark's duplicate
matches. Its estimates and bids also stand in for the other players inside the
Monte-Carlo robot's sampled deals."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.joker.robot.heuristic import bidding
from engine.joker.robot.heuristic.play import play
from engine.joker.robot.seat import Seat
from engine.joker.rules import Rules


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random) -> str:
    """The heuristic's action for the seat whose view this is. ``rng`` is unused: it is
    deterministic (accepted for the common robot signature)."""
    seat = Seat(view, rules)
    if seat.phase == "trump":
        return bidding.trump_choice(seat)
    if seat.phase == "bid":
        return bidding.bid(seat)
    return play(seat)


__all__ = ["choose"]
