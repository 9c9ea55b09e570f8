"""A double-dummy solver for Preferans trick play: every hand open, best play by all.

The position (``Layout``) is the three active players' hands in playing order
(0 = first hand), the trump, the trick in progress and, in raspasy, the talon
cards still to lead. The ``Goal`` says whose tricks count and who wants them:
the declarer's tricks in a contract (he maximises, the defenders minimise), the
misère declarer's (the defenders maximise), and in raspasy one player's own
tricks against the other two (the "paranoid" reduction of a game for three to
a game for two, which alpha-beta solves exactly).

The search itself is in C (``_search.c``, built by ``pip install``): pure Python
took 0.2 s for a typical full contract and up to 15 s for a misère, too slow
for Monte Carlo play, which solves many deals per decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit

try:
    from engine.preferans.dds import _search
except ImportError as exc:  # a checkout that pip never built
    raise ImportError("the Preferans double-dummy search is not compiled: run `pip install -e .`"
                      " (it needs a C compiler and the Python headers)") from exc

NOBODY = -1  # owner of the 3-player raspasy talon card: shows the suit, never wins
TALON = 3  # owner of the 4-player raspasy talon card: the dealer's, it may win


@dataclass(frozen=True)
class Goal:
    """Whose tricks count (players 0-2, ``TALON``), and who wants them counted."""

    counted: frozenset[int]
    maxers: frozenset[int]

    @classmethod
    def declarer(cls, seat: int) -> Goal:
        return cls(frozenset({seat}), frozenset({seat}))

    @classmethod
    def miser(cls, seat: int) -> Goal:
        return cls(frozenset({seat}), frozenset({0, 1, 2}) - {seat})

    @classmethod
    def avoid(cls, seat: int) -> Goal:
        """Raspasy for ``seat``: his own tricks, which the other two try to give him."""
        return cls.miser(seat)


@dataclass(frozen=True)
class Layout:
    """A trick-play position with every card known.

    ``trick`` lists the plays of the trick in progress (owner, card); a raspasy
    talon card is owned by ``NOBODY`` or ``TALON``. ``talon`` holds the talon
    cards that lead the next tricks, and ``fixed`` says how many of the next
    tricks are led by first hand (or the talon) whoever won the one before.
    """

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    trump: Suit | None
    leader: int = 0
    trick: tuple[tuple[int, Card], ...] = ()
    talon: tuple[Card, ...] = ()
    talon_owner: int = NOBODY
    fixed: int = 0

    @property
    def to_move(self) -> int:
        """The player whose card comes next."""
        if not self.trick:
            return self.leader
        first = self.trick[0][0]
        if first in (NOBODY, TALON):
            return len(self.trick) - 1
        return (first + len(self.trick)) % 3


def _bit(card: Card) -> int:
    assert card.suit is not None
    return int(card.suit) * 8 + card.rank - 7


_CARDS = {_bit(c): c for c in (Card(r, s) for s in Suit for r in range(7, 15))}


def _mask(cards: tuple[Card, ...]) -> int:
    return sum(1 << _bit(c) for c in cards)


def _args(layout: Layout, goal: Goal, cap: int, limit: int) -> tuple:
    return ([_mask(h) for h in layout.hands], -1 if layout.trump is None else int(layout.trump),
            layout.leader, [(o, _bit(c)) for o, c in layout.trick],
            sum(1 << o for o in goal.counted), sum(1 << o for o in goal.maxers),
            [_bit(c) for c in layout.talon], layout.talon_owner, layout.fixed, cap, limit)


def tricks(layout: Layout, goal: Goal, cap: int = 10, limit: int = 0) -> int | None:
    """The counted tricks still to come (the trick in progress included), or ``cap`` if
    they are more (a lower cap solves faster). None if the search tried more than
    ``limit`` cards (0: no limit)."""
    return _search.solve(*_args(layout, goal, cap, limit))


def values(layout: Layout, goal: Goal, cap: int = 10,
           limit: int = 0) -> dict[Card, int] | None:
    """The counted tricks still to come after each legal card of the player to move (at
    most ``cap``); None past the ``limit``."""
    found = _search.values(*_args(layout, goal, cap, limit))
    return None if found is None else {_CARDS[c]: v for c, v in found.items()}
