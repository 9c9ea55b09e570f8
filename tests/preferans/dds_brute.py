"""Brute force for double-dummy positions: every legal card tried at every turn, nothing
pruned, built on the engine's own trick rules (``playable``, ``winner``)."""

from __future__ import annotations

from engine.cards import Card
from engine.preferans.dds import NOBODY, Goal, Layout
from engine.preferans.tricks import playable, winner

Play = tuple[int, Card]


def brute_tricks(layout: Layout, goal: Goal) -> int:
    """The counted tricks from ``layout`` with best play, by exhaustive minimax."""
    hands = [list(h) for h in layout.hands]
    return _trick(hands, layout, goal, list(layout.trick), _order(layout),
                  list(layout.talon), layout.fixed)


def brute_values(layout: Layout, goal: Goal) -> dict[Card, int]:
    """The counted tricks after each legal card of the player to move."""
    hands = [list(h) for h in layout.hands]
    order = _order(layout)
    player = layout.to_move
    led = layout.trick[0][1].suit if layout.trick else None
    out = {}
    for card in playable(hands[player], led, layout.trump):
        hands[player].remove(card)
        out[card] = _trick(hands, layout, goal, [*layout.trick, (player, card)], order[1:],
                           list(layout.talon), layout.fixed)
        hands[player].append(card)
    return out


def _order(layout: Layout) -> list[int]:
    """The players still to play to the trick in progress."""
    if not layout.trick:
        return [(layout.leader + i) % 3 for i in range(3)]
    first = layout.trick[0][0]
    if first not in (0, 1, 2):  # a talon card led: first hand plays next
        return [0, 1, 2][len(layout.trick) - 1:]
    return [(first + i) % 3 for i in range(len(layout.trick), 3)]


def _trick(hands: list[list[Card]], layout: Layout, goal: Goal, plays: list[Play],
           order: list[int], talon: list[Card], fixed: int) -> int:
    if not order:
        index = winner([(None if o == NOBODY else o, c) for o, c in plays], layout.trump)
        if index < 0:
            raise LookupError("nobody can win this trick: not a Preferans position")
        won = plays[index][0]
        score = 1 if won in goal.counted else 0
        if not any(hands):
            return score
        if fixed and talon:
            return score + _trick(hands, layout, goal, [(layout.talon_owner, talon[0])],
                                  [0, 1, 2], talon[1:], fixed - 1)
        leader = 0 if fixed else won
        return score + _trick(hands, layout, goal, [], [(leader + i) % 3 for i in range(3)],
                              talon, max(0, fixed - 1))
    player = order[0]
    led = plays[0][1].suit if plays else None
    results = []
    for card in playable(hands[player], led, layout.trump):
        hands[player].remove(card)
        results.append(_trick(hands, layout, goal, [*plays, (player, card)], order[1:],
                              talon, fixed))
        hands[player].append(card)
    return max(results) if player in goal.maxers else min(results)
