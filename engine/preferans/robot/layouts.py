"""From a sampled deal to the solver's position: players in playing order from first
hand, the trick in progress, and in raspasy the talon cards still to lead."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Suit
from engine.preferans.dds import NOBODY, TALON, Goal, Layout
from engine.preferans.robot.history import fixed_lead, talon_leads
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.robot.sampling import Sample


def _owner(k: Knowledge, seat: int | None) -> int:
    if seat in k.active:
        return k.active.index(seat)
    return TALON if seat is not None else NOBODY  # a talon card: the 4-player dealer's or nobody's


def play_layout(k: Knowledge, sample: Sample) -> Layout:
    """The position of the trick in progress in this sampled deal."""
    hands = tuple(tuple(sample.hands[s]) for s in k.active)
    trick = tuple((_owner(k, s), c) for s, c in k.trick)
    done = k.view["tricks_done"]
    talon: tuple[Card, ...] = ()
    if talon_leads(k, done + 1):
        talon = tuple(sample.out)  # the talon card still face down leads the next trick
    fixed = sum(fixed_lead(k, n) for n in range(done + 1, 10))
    return Layout((hands[0], hands[1], hands[2]), k.trump, k.active.index(k.mover), trick,
                  talon, TALON if k.rules.players == 4 else NOBODY, fixed)


def full_layout(k: Knowledge, hands: dict[int, Sequence[Card]], strain: Suit | None) -> Layout:
    """A deal about to be played from its first card (first hand leads)."""
    cards = tuple(tuple(hands[s]) for s in k.active)
    return Layout((cards[0], cards[1], cards[2]), strain)


def goal(k: Knowledge) -> Goal:
    """What the solver counts in the deal being played."""
    if k.raspasy:
        return Goal.avoid(k.active.index(k.actor))
    assert k.declarer is not None
    d = k.active.index(k.declarer)
    return Goal.miser(d) if k.miser else Goal.declarer(d)
