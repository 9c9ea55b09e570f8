"""The rule-of-thumb Preferans robot (issue 9): sure tricks counted, calls by thresholds,
cards by the usual guidance. The Monte-Carlo robot (``engine.preferans.robot``) replaced
it at the table; it stays for the benchmark to play against, and its hand estimates
tell the Monte-Carlo robot which hands fit the calls it has heard."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.preferans.robot.heuristic import calls
from engine.preferans.robot.heuristic.play import play
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.rules import Rules

DECIDE: dict[str, Callable[[Knowledge], str]] = {
    "bidding": calls.bid,
    "discard": calls.discard,
    "contract": calls.contract,
    "whist": calls.whist,
    "open": calls.open_play,
    "play": play,
    "claim": lambda k: "answer:refuse",  # play goes on: the cards will tell
}


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random) -> str:
    """The heuristic's action for the seat whose view this is. ``rng`` is unused: it is
    deterministic (accepted for the common robot signature)."""
    k = Knowledge(view, rules)
    return DECIDE[k.phase](k)


__all__ = ["choose"]
