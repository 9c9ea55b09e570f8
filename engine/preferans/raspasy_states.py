"""Raspasy states (spec 10.11): a deal's opening bid and raspasy cost, and the next state.

Leningrad always has three states (costs 2, 4, 6, or 8 in a ``hard`` third
state); Sochi has them with ``sochi_progression`` (costs 1, 2, 3, and a raspasy
in state 3 ends the progression). Without states the table stays in state 1.
"""

from __future__ import annotations

from engine.preferans.deal_entries import made
from engine.preferans.result import DealResult
from engine.preferans.rules import Rules


def has_states(rules: Rules) -> bool:
    return rules.variant == "leningrad" or rules.sochi_progression


def min_bid(rules: Rules, state: int) -> str:
    """The opening bid of a deal played in ``state``."""
    if state == 1:
        return "6S"
    return "8S" if state == 3 and rules.peter_third_state == "hard" else "7S"


def raspasy_cost(rules: Rules, state: int) -> int:
    """``r``: the mountain per trick of a mountain-mode raspasy played in ``state``."""
    if rules.variant == "leningrad" and state == 3 and rules.peter_third_state == "hard":
        return 8
    return rules.k * state


def exits(rules: Rules, result: DealResult) -> bool:
    """A game that ends raspasy: a made trick contract of level 6-9, whisted if required."""
    if result.kind != "game" or result.checked or result.level is None or result.level > 9:
        return False
    whisted = bool(result.whisters) or result.halfwhister is not None
    return made(result) and (whisted or not rules.exit_needs_whist)


def next_state(rules: Rules, state: int, result: DealResult) -> int:
    if not has_states(rules):
        return 1
    if result.kind == "raspasy":
        if state < 3:
            return state + 1
        return 3 if rules.variant == "leningrad" else 1
    return 1 if exits(rules, result) else state
