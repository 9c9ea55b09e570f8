"""The Preferans substitute robot and the timeout auto move.

Both take the view of the seat that decides (``state.view(seat)``: its hand,
what is public, and its legal actions under ``actions``) and the Rules, never
the state, and return one of the legal actions. In open play the whister's
view carries the passer's actions too: the action returned is for the seat
listed in ``view["actions"]``.

The robot (issue 21) plays perfect-information Monte Carlo: it deals the cards
it has not seen in ways that fit what it has seen, solves each deal double
dummy (``engine.preferans.dds``) and takes the action worth most on average.
The rule-of-thumb robot it replaced is ``engine.preferans.robot.heuristic``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.preferans.robot import calls, heuristic
from engine.preferans.robot.answer import answer
from engine.preferans.robot.auto import auto
from engine.preferans.robot.hint import Hint, hint
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.robot.play import play
from engine.preferans.rules import Rules
from engine.robot_budget import DEFAULT, Budget

_DECIDE = {"bidding": calls.bid, "discard": calls.discard, "contract": calls.contract,
           "whist": calls.whist, "play": play,
           "claim": answer}


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random,
           budget: Budget = DEFAULT) -> str:
    """The robot's action for the seat whose view this is, within ``budget``."""
    k = Knowledge(view, rules)
    if k.phase == "open":
        return heuristic.calls.open_play(k)
    return _DECIDE[k.phase](k, rng, budget)


def auto_action(view: Mapping[str, Any], rules: Rules) -> str:
    """The timeout auto move for the seat whose view this is."""
    return auto(Knowledge(view, rules))


__all__ = ["Budget", "Hint", "auto_action", "choose", "hint"]
