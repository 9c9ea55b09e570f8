"""The robot's bid and moves: each legal move scored by what it gains, less what it leaves.

Gains: the points captured and the sweep; for a house, the points it will bring
home (the robot or its partner holds the card that takes it) and, for a
broken house, the points taken from the opponents. Losses: a point card
thrown loose, and the chance that the next player, an opponent, sweeps the
floor this move leaves or takes the points lying on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card
from engine.seep.floor import Floor, partition
from engine.seep.moves import BREAK, CAPTURE, THROW, Move
from engine.seep.robot.seat import Seat
from engine.seep.state import PLAYS
from engine.seep.values import points, value

HOUSE_SHARE = 0.6  # of a house's points: it comes home most of the time
DENIAL_SHARE = 0.5  # of the points of an opponent's house that a break takes over
LOOSE_RISK = 0.3  # of the points left loose that the next player may take
CEMENT_BONUS = 1.0  # a cemented house can no longer be broken


def bid(seat: Seat) -> str:
    """The value held most often, the highest on a tie: the most ways to play it first."""
    counts = {b: sum(value(c) == b for c in seat.hand) for b in seat.bids}
    return f"bid:{max(counts, key=lambda b: (counts[b], b))}"


def move(seat: Seat) -> str:
    return seat.action(max(seat.moves, key=lambda m: score(seat, m)))


def _points(seat: Seat, cards: Iterable[Card]) -> int:
    return sum(points(c, seat.rules.ten_of_diamonds_points) for c in cards)


def score(seat: Seat, m: Move) -> float:
    """How good the move is for the robot's side, in card points."""
    captured, floor = seat.outcome(m)
    gain = 0.0
    if m.kind == CAPTURE:
        gain += _points(seat, captured) + 0.1 * len(captured)
        if floor.empty:
            gain += _sweep_worth(seat)
    elif m.kind == THROW:
        gain -= _points(seat, [m.card])
    else:
        house = floor.houses[m.target]
        added = _points(seat, [m.card, *m.with_, *m.cards])
        gain += HOUSE_SHARE * added + (CEMENT_BONUS if house.cemented else 0.0)
        broken = seat.floor.houses.get(m.value) if m.kind == BREAK else None
        if broken is not None and not _ours(seat, broken.owners):
            gain += (HOUSE_SHARE + DENIAL_SHARE) * _points(seat, broken.cards)
    return gain - exposure(seat, floor)


def _ours(seat: Seat, owners: set[int]) -> bool:
    return bool(owners) and all(seat.rules.team(o) == seat.rules.team(seat.seat) for o in owners)


def _sweep_worth(seat: Seat) -> int:
    rules = seat.rules
    if seat.plays == 0:
        return rules.first_play_sweep_points
    if seat.plays == PLAYS - 1:
        return rules.last_play_sweep_points
    return rules.sweep_points


def exposure(seat: Seat, floor: Floor) -> float:
    """What the next player (an opponent) may take from this floor: a sweep with one
    card of the right value, or part of the points lying loose."""
    if seat.plays >= PLAYS - 1:
        return 0.0
    nxt = seat.rules.next_seat(seat.seat)
    risk = LOOSE_RISK * _points(seat, floor.loose)
    return risk + seat.rules.sweep_points * sum(
        seat.holds_value(nxt, v) for v in _sweeping_values(floor))


def _sweeping_values(floor: Floor) -> list[int]:
    """The card values that would capture everything on this floor."""
    if floor.empty or len(floor.houses) > 1:
        return []
    candidates = list(floor.houses) or range(1, 14)
    return [v for v in candidates if not floor.loose or partition(floor.loose, v) is not None]
