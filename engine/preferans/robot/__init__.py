"""The Preferans substitute robot and the timeout auto move (issue 9).

Both take the view of the seat that decides (``state.view(seat)``: its hand,
what is public, and its legal actions under ``actions``) and the Rules, never
the state, and return one of the legal actions. In open play the whister's
view carries the passer's actions too: the action returned is for the seat
listed in ``view["actions"]``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.preferans.robot import calls
from engine.preferans.robot.auto import auto
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.robot.play import play
from engine.preferans.rules import Rules

_DECIDE: dict[str, Callable[[Knowledge], str]] = {
    "bidding": calls.bid,
    "discard": calls.discard,
    "contract": calls.contract,
    "whist": calls.whist,
    "open": calls.open_play,
    "play": play,
}


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random) -> str:
    """The robot's action for the seat whose view this is. ``rng`` is unused: the
    Preferans robot is deterministic (accepted for the common robot signature)."""
    k = Knowledge(view, rules)
    return _DECIDE[k.phase](k)


def auto_action(view: Mapping[str, Any], rules: Rules) -> str:
    """The timeout auto move for the seat whose view this is."""
    return auto(Knowledge(view, rules))


__all__ = ["auto_action", "choose"]
