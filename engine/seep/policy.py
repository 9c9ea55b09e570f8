"""Random play for the CLI, bench and property tests; the first dealer of a match."""

from __future__ import annotations

import random

from engine.seep.rules import Rules
from engine.seep.state import State


def random_action(state: State, seat: int, rng: random.Random) -> str:
    """A random legal action: first a random kind of move, so that builds, cements and
    breaks occur as often as captures and throws, then a random move of that kind."""
    by_kind: dict[str, list[str]] = {}
    for action in state.legal_actions(seat):
        by_kind.setdefault(action.split(":", 1)[0], []).append(action)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def first_dealer(rules: Rules, opener_seat: int, rng: random.Random) -> int:
    """Spec section 11: the first dealer of a match is chosen at random."""
    return rng.randrange(rules.players)
