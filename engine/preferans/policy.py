"""Random legal play for `python -m engine deal --play random` and the benchmarks.

Weighted so that every kind of deal occurs: games, misères, raspasy, half-whists,
open play and (where the rules allow) walk-aways and claims.
"""

from __future__ import annotations

import random

from engine.preferans.rules import Rules
from engine.preferans.state import State

_WEIGHTS = {
    "bid:pass": 0.45, "bid:here": 0.5, "bid:miser": 0.04,
    "whist:whist": 0.5, "whist:pass": 0.35, "whist:halfwhist": 0.35,
    "contract:walkaway": 0.1, "contract:miser": 1.0,
}


CLAIM_WEIGHT = 0.02  # each claim beside the cards, so that most deals are played out


def random_action(state: State, seat: int, rng: random.Random) -> str:
    legal = state.legal_actions(seat)
    if state.phase == "contract" and legal[0] != "contract:miser":
        # Mostly the winning bid, sometimes higher, sometimes walk away.
        if "contract:walkaway" in legal and rng.random() < _WEIGHTS["contract:walkaway"]:
            return "contract:walkaway"
        trick = [a for a in legal if a != "contract:walkaway"]
        return trick[0] if rng.random() < 0.8 else rng.choice(trick)
    weights = [_WEIGHTS.get(a, CLAIM_WEIGHT if a.startswith("claim:") else 0.5) for a in legal]
    return rng.choices(legal, weights)[0]


def first_dealer(rules: Rules, opener: int, rng: random.Random) -> int:
    """``creator_first_hand``: the seat to the opener's right deals, so he is first hand."""
    if rules.first_dealer == "random":
        return rng.randrange(rules.players)
    return (opener - 1) % rules.players
