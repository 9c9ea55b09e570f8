"""What a costly card cost in whists at the table's rules: the deal settled (the deal's
entries alone, as the robot weighs outcomes) once with the counted seat's tricks after
the card that kept the par, once after the card played, for the player's side (the
declarer alone, the defenders together, in raspasy the player alone).

The tricks the counted seat gains or loses come from, or go to, the player himself
when he is not the counted seat (a defender's card), otherwise the other active
players in turn from the next one; the rest of the deal's tricks stay as they fell.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

from engine.preferans.analysis.play import Play
from engine.preferans.result import DealResult
from engine.preferans.robot.worth import balances
from engine.preferans.rules import Rules


def shifted(result: DealResult, play: Play, total: int) -> tuple[int, ...]:
    """The deal's tricks per seat had the counted seat ended with ``total``."""
    out = list(result.tricks)
    delta = total - out[play.counted]
    out[play.counted] = total
    i = result.active.index(play.counted)
    others = [result.active[(i + k) % 3] for k in (1, 2)]
    if play.seat in others:
        others.remove(play.seat)
        others.insert(0, play.seat)
    if delta < 0:
        out[others[0]] -= delta
    for seat in others:
        taken = min(max(delta, 0), out[seat])
        out[seat] -= taken
        delta -= taken
    return tuple(out)


def side(result: DealResult, seat: int) -> Sequence[int]:
    """The seats playing with ``seat`` (himself included)."""
    if result.declarer is None or seat == result.declarer:
        return (seat,)
    return result.defenders


def cost(rules: Rules, result: DealResult, raspasy_cost: int, play: Play) -> Fraction:
    """The whists ``play``'s card cost its player's side."""
    def worth(total: int) -> Fraction:
        tricks = shifted(result, play, total)
        settled = balances(rules, dataclasses.replace(result, tricks=tricks), raspasy_cost)
        return sum((settled[s] for s in side(result, play.seat)), Fraction(0))
    return worth(play.best) - worth(play.value)
