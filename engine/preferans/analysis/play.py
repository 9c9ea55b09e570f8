"""The card play against the double-dummy solver: before each card, the worth of every
legal card (the counted seat's tricks at the deal's end with best play after it). A
card worth less to its player than his best one is costly; the best card nearest to
it (the same suit first, then the closest rank) is the one that kept the par."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Card, parse_card
from engine.preferans.dds import tricks, values
from engine.preferans.position import counted, goal, layout, wants_more
from engine.preferans.state import PLAY, State


@dataclass(frozen=True)
class Play:
    """A card played, and what each legal card there was worth."""

    trick: int  # from 1
    seat: int
    card: Card
    counted: int  # the seat whose tricks are counted (the declarer; in raspasy the player)
    worth: Mapping[Card, int]  # legal card -> counted tricks at the end, best play after it
    more: bool  # the player wants the counted tricks up

    @property
    def value(self) -> int:
        return self.worth[self.card]

    @property
    def best(self) -> int:
        return (max if self.more else min)(self.worth.values())

    @property
    def cost(self) -> int:
        """The tricks this card gave away (0: it kept the par)."""
        return abs(self.best - self.value)

    @property
    def kept(self) -> Card:
        """The best card nearest to the one played."""
        best = [c for c, v in self.worth.items() if v == self.best]
        return min(best, key=lambda c: (c.suit != self.card.suit, abs(c.rank - self.card.rank),
                                        c.sort_key()))


def card_play(state: State, plays: Sequence[tuple[int, str]]) -> list[Play]:
    """Each card of ``plays`` (seat, ``play:`` action), applied to a copy of ``state``, with
    the worth of every card its player could play."""
    state = copy.deepcopy(state)
    out = []
    for seat, action in plays:
        if state.phase != PLAY:
            break
        mover = state.order[0]
        who = counted(state, mover)
        found = values(layout(state), goal(state, mover))
        assert found is not None
        taken = state.tricks[who]
        out.append(Play(state.tricks_done + 1, mover, parse_card(action.partition(":")[2]),
                        who, {c: taken + v for c, v in found.items()},
                        wants_more(state, mover)))
        state.apply(seat, action)
    return out


def par(state: State, seat: int) -> int:
    """The counted tricks for ``seat`` (see ``counted``) at the deal's end with best play
    from here, every hand open."""
    found = tricks(layout(state), goal(state, seat))
    assert found is not None
    return state.tricks[counted(state, seat)] + found
