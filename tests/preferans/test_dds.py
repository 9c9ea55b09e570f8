"""The double-dummy solver is exact: random positions of up to four tricks, solved by the
solver and by brute force (every card tried, nothing pruned), agree on the value and on
the value of every legal card; and a solved deal played out in the engine takes the
tricks the solver said."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.preferans.dds import NOBODY, TALON, Goal, Layout, tricks, values
from engine.preferans.pack import preferans_deck
from engine.preferans.tricks import playable
from tests.preferans.dds_brute import brute_tricks, brute_values

DECK = preferans_deck()


def _position(rng: random.Random) -> Layout:
    """Up to four tricks in every hand; a contract, misère or raspasy (talon cards to lead,
    owned by nobody or by the 4-player dealer); a trick in progress or not."""
    size = rng.choice([1, 2, 3, 4, 4, 4])
    cards = rng.sample(DECK, 3 * size + 2)
    hands = [cards[i * size:(i + 1) * size] for i in range(3)]
    raspasy = rng.random() < 0.4
    trump = None if raspasy or rng.random() < 0.25 else rng.choice(list(Suit))
    leader, trick, talon, owner, fixed = rng.randrange(3), [], [], NOBODY, 0
    if raspasy:
        owner = rng.choice([NOBODY, TALON])
        talon = cards[3 * size:3 * size + rng.randint(0, 2)]
        fixed = len(talon) + 1 if talon else rng.randint(0, 2)
    order = [(leader + i) % 3 for i in range(3)]
    if talon and rng.random() < 0.5:  # the talon card of this trick is already turned
        trick = [(owner, talon.pop(0))]
        order = [0, 1, 2]
        fixed = len(talon) + 1
    for player in order[:rng.randint(0, 2)]:
        led = trick[0][1].suit if trick else None
        card = rng.choice(playable(hands[player], led, trump))
        hands[player].remove(card)
        trick.append((player, card))
    return Layout((tuple(hands[0]), tuple(hands[1]), tuple(hands[2])), trump, leader,
                  tuple(trick), tuple(talon), owner, fixed)


def _goal(rng: random.Random, layout: Layout) -> Goal:
    seat = rng.randrange(3)
    if layout.talon or (layout.trick and layout.trick[0][0] in (NOBODY, TALON)):
        return Goal.avoid(seat)
    return rng.choice([Goal.declarer(seat), Goal.miser(seat), Goal.avoid(seat)])


def _positions(seed: int, count: int) -> list[tuple[Layout, Goal, int]]:
    """Random positions with their brute-force values (impossible ones skipped: a talon
    card that nobody can follow)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        layout = _position(rng)
        goal = _goal(rng, layout)
        try:
            out.append((layout, goal, brute_tricks(layout, goal)))
        except LookupError:
            continue
    return out


@pytest.mark.parametrize("seed", range(8))
def test_the_solver_agrees_with_brute_force(seed: int) -> None:
    for layout, goal, value in _positions(seed, 400):
        assert tricks(layout, goal) == value, (layout, goal)


@pytest.mark.parametrize("seed", range(8, 11))
def test_every_cards_value_agrees_with_brute_force(seed: int) -> None:
    for layout, goal, value in _positions(seed, 200):
        found = values(layout, goal)
        assert found == brute_values(layout, goal), (layout, goal)
        best = max if layout.to_move in goal.maxers else min
        assert best(found.values()) == value


def test_a_capped_solve_stops_at_the_cap() -> None:
    for i, (layout, goal, value) in enumerate(_positions(11, 200)):
        cap = max(0, value + 1 - i % 3)  # above, at and below the value
        assert tricks(layout, goal, cap) == min(value, cap), (layout, goal)
        assert max(values(layout, goal, cap).values()) <= cap


def test_a_search_past_its_limit_gives_up() -> None:
    layout, goal, value = next(p for p in _positions(12, 50) if len(p[0].hands[0]) == 4)
    assert tricks(layout, goal, limit=1) is None
    assert values(layout, goal, limit=1) is None
    assert tricks(layout, goal, limit=10**6) == value


def test_positions_cover_every_kind_of_play() -> None:
    """The random positions include talon leads by nobody and by the dealer, tricks in
    progress, trumps and no trumps, and every goal."""
    kinds = set()
    for layout, goal, _ in _positions(0, 300):
        kinds.add(("talon", layout.talon_owner) if layout.talon else "no talon")
        kinds.add(("trick", len(layout.trick)))
        kinds.add("trumps" if layout.trump is not None else "no trumps")
        kinds.add("declarer" if goal.counted == goal.maxers else "avoid")
    assert kinds >= {("talon", NOBODY), ("talon", TALON), "no talon", ("trick", 0),
                     ("trick", 1), ("trick", 2), ("trick", 3), "trumps", "no trumps",
                     "declarer", "avoid"}


def test_full_deals_solve() -> None:
    """Ten tricks. In spades first hand draws the 7S with his ace and takes everything. In
    no trump, with second hand on lead, second hand runs his six clubs; first hand keeps
    his two top hearts and two top spades and takes the last four."""
    hands = (_cards("AS KS QS JS 10S 9S 8S AH KH AD"),
             _cards("7S QH JH 10H AC KC QC JC 10C 9C"),
             _cards("9H 8H 7H KD QD JD 10D 9D 8D 7D"))
    assert tricks(Layout(hands, Suit.S), Goal.declarer(0)) == 10
    assert tricks(Layout(hands, None, leader=1), Goal.declarer(0)) == 4
    # One player's tricks, which he avoids, are the other two's that they seek.
    both = Goal(frozenset({0, 1}), frozenset({2}))
    for leader in range(3):
        layout = Layout(hands, None, leader)
        assert tricks(layout, Goal.miser(2)) == 10 - tricks(layout, both)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))
