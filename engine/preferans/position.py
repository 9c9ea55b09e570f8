"""A deal in trick play as the double-dummy solver sees it: the three active hands in
playing order from first hand, the trick in progress, and in raspasy the talon cards
still to lead (``engine.preferans.dds``). Deal analysis and claims read it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.cards import Card, Suit
from engine.preferans.bids import MISER
from engine.preferans.dds import NOBODY, TALON, Goal, Layout
from engine.preferans.rules import Rules


class State(Protocol):
    """What is read here of a deal in play (``engine.preferans.state.State``, which
    imports the claims that read this module)."""

    rules: Rules
    n: int
    active: tuple[int, ...]
    hands: list[list[Card]]
    talon: list[Card]
    talon_turned: int
    tricks_done: int
    tricks: list[int]
    trump: Suit | None
    order: list[int]
    trick: list[tuple[int | None, Card]]
    declarer: int | None
    contract: str | None

    @property
    def raspasy(self) -> bool: ...

TALON_TRICKS = 2  # raspasy with ``lead_two``: talon cards lead tricks 1 and 2


def _talon_leads(state: State, number: int) -> bool:
    """Does a talon card lead trick ``number`` (from 0)?"""
    return state.raspasy and state.rules.raspasy_talon == "lead_two" and number < TALON_TRICKS


def layout(state: State, hands: Mapping[int, Sequence[Card]] | None = None) -> Layout:
    """The position of a deal in trick play (all hands open); ``hands`` puts other cards
    in some seats' hands (a lie of the cards a player cannot see)."""
    active = state.active
    talon_owner = TALON if state.n == 4 else NOBODY

    def owner(seat: int | None) -> int:
        return active.index(seat) if seat in active else talon_owner

    done = state.tricks_done
    to_lead = state.talon[state.talon_turned:TALON_TRICKS] if _talon_leads(state, done + 1) else []
    fixed = sum(1 for n in range(done + 1, 10) if n == 0 or _talon_leads(state, n - 1))
    held = {**{s: state.hands[s] for s in active}, **(hands or {})}
    cards = tuple(tuple(held[s]) for s in active)
    return Layout((cards[0], cards[1], cards[2]), state.trump, active.index(state.order[0]),
                  tuple((owner(s), c) for s, c in state.trick), tuple(to_lead),
                  talon_owner, fixed)


def counted(state: State, mover: int) -> int:
    """The seat whose tricks decide what ``mover``'s card is worth: the declarer's, or in
    raspasy the mover's own."""
    return mover if state.declarer is None else state.declarer


def goal(state: State, mover: int) -> Goal:
    """What the solver counts for the seat ``mover`` about to play."""
    seat = state.active.index(counted(state, mover))
    if state.declarer is None:
        return Goal.avoid(seat)
    return Goal.miser(seat) if state.contract == MISER else Goal.declarer(seat)


def wants_more(state: State, mover: int) -> bool:
    """Does ``mover`` want the counted tricks up (a declarer of a trick contract, a
    defender against misère) rather than down?"""
    if state.declarer is None:
        return False
    return (mover == state.declarer) != (state.contract == MISER)
