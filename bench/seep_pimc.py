"""A Monte-Carlo Seep robot, measured against the heuristic one (issue 21).

Seep keeps its heuristic robot unless sampling pays off, so this variant lives in
the bench: it deals the cards the seat has not seen to the next player's hand,
and scores each legal move by what it gains (the heuristic's score without its
guess at the next player's reply) less the best capture that player then has in
the sampled deal (points, and a sweep at its worth). The heuristic guesses that
reply from the odds of the next hand holding a card of each value.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import Card, parse_cards
from engine.robot_budget import Budget
from engine.seep.moves import CAPTURE, Move, Turn, legal_moves, perform
from engine.seep.pack import seep_deck
from engine.seep.robot import play
from engine.seep.robot.seat import Seat
from engine.seep.rules import Rules
from engine.seep.state import PLAYS
from engine.seep.values import points

BUDGET = Budget(samples=16, seconds=0.3)


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random,
           budget: Budget = BUDGET) -> str:
    seat = Seat(view, rules)
    if seat.phase == "bid":
        return play.bid(seat)
    moves = seat.moves
    if len(moves) == 1 or seat.plays >= PLAYS - 1:
        return play.move(seat)
    nxt = rules.next_seat(seat.seat)
    pool = _unseen(seat)
    size = min(view["hand_sizes"][nxt], len(pool))
    gains = [play.score(seat, m) + play.exposure(seat, seat.outcome(m)[1]) for m in moves]
    totals = [0.0] * len(moves)
    for hand in budget.deals(lambda r: r.sample(pool, size), rng, bool(pool)):
        for i, m in enumerate(moves):
            totals[i] += gains[i] - _best_reply(seat, m, nxt, tuple(hand))
    return seat.action(moves[max(range(len(moves)), key=totals.__getitem__)])


def _unseen(seat: Seat) -> list[Card]:
    """The cards the seat has not seen: not in its hand, on the floor or in the last
    capture (the capture piles are face down)."""
    floor = seat.floor
    seen = set(seat.hand) | set(floor.loose) | {c for h in floor.houses.values() for c in h.cards}
    if seat.view["last_capture"]:
        seen |= set(parse_cards(seat.view["last_capture"]["cards"]))
    return [c for c in seep_deck() if c not in seen]


def _best_reply(seat: Seat, m: Move, nxt: int, hand: tuple[Card, ...]) -> float:
    """The best capture the next player has after move ``m``, in points and sweeps."""
    best = 0.0
    ten = seat.rules.ten_of_diamonds_points
    for reply in legal_moves(Turn(seat.rules, seat.outcome(m)[1], nxt, hand)):
        if reply.kind != CAPTURE:
            continue
        turn = Turn(seat.rules, seat.outcome(m)[1], nxt, hand)
        worth = float(sum(points(c, ten) for c in perform(turn, reply)))
        if turn.floor.empty:
            worth += seat.rules.sweep_points
        best = max(best, worth)
    return best
