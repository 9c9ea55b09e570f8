"""The robot's card play: hit the bid exactly.

Short of the bid it wins tricks as cheaply as is safe and leads its masters;
with the bid made it ducks: the highest card that still loses, a joker played
low when every natural card would take the trick. When its jokers alone can
take the tricks still needed, it ducks with its other cards and keeps them.
"""

from __future__ import annotations

from collections import Counter

from engine.cards import JOKER, Suit
from engine.joker.actions import SUITS, Play
from engine.joker.robot.seat import Seat


def play(seat: Seat) -> str:
    plays = seat.check().legal()
    if len(plays) == 1:
        return str(plays[0])
    assert seat.bid is not None
    need = seat.bid - seat.taken
    left = len(seat.hand)
    jokers = sum(c.is_joker for c in seat.hand)
    if need <= 0:
        chosen = _lose(seat, plays, keep=0)
    elif need >= left:
        chosen = _win(seat, plays, every=True)
    elif need <= jokers:
        chosen = _lose(seat, plays, keep=need)
    else:
        chosen = _win(seat, plays, every=False)
    return str(chosen)


def _naturals(plays: list[Play]) -> list[Play]:
    return [p for p in plays if p.joker is None]


def _joker(plays: list[Play], declaration: str, suit: Suit | None = None) -> Play | None:
    return next((p for p in plays if p.joker == declaration and p.suit == suit), None)


def _most_held_suit(pool: Counter) -> Suit:
    counts = Counter(c.suit for c in pool.elements() if not c.is_joker)
    return max(SUITS, key=lambda s: counts[s])


def _lose(seat: Seat, plays: list[Play], keep: int) -> Play:
    """Avoid the trick, keeping ``keep`` jokers for the tricks still needed."""
    naturals = _naturals(plays)
    if not seat.trick:
        if naturals:
            return min(naturals, key=lambda p: (not seat.beaten_by_unseen(p.card),
                                                p.card.suit == seat.trump, p.card.rank))
        led_low = _joker(plays, "low", _most_held_suit(seat.unseen))
        return led_low or plays[0]
    losing = [p for p in naturals if not seat.wins_now(p)]
    if losing:
        return max(losing, key=lambda p: (p.card.rank, p.card.suit != seat.trump))
    low = _joker(plays, "low")
    if low is not None and (not naturals or seat.hand.count(JOKER) > keep):
        return low
    if seat.last_to_play:
        return max(naturals, key=lambda p: p.card.rank)  # the trick is taken anyway
    return min(naturals, key=lambda p: p.card.rank)  # someone after may still go over


def _win(seat: Seat, plays: list[Play], every: bool) -> Play:
    """Take the trick if it can be done well; ``every``: each remaining trick is needed."""
    naturals = _naturals(plays)
    if not seat.trick:
        masters = [p for p in naturals if not seat.beaten_by_unseen(p.card)]
        if masters:
            return max(masters, key=lambda p: (p.card.suit == seat.trump, p.card.rank))
        if every or not naturals:
            mine = Counter(c for c in seat.hand if not c.is_joker)
            high = _joker(plays, "high", _most_held_suit(mine))
            if high is not None:
                return high
        return max(naturals or plays, key=lambda p: p.card.rank)
    winners = [p for p in naturals if seat.wins_now(p)]
    sure = [p for p in winners if seat.last_to_play or not seat.beaten_by_unseen(p.card)]
    if sure:
        return min(sure, key=lambda p: (p.card.suit == seat.trump, p.card.rank))
    high = _joker(plays, "high")
    if high is not None and (every or not naturals):
        return high
    if winners:
        return max(winners, key=lambda p: p.card.rank)
    return min(naturals, key=lambda p: p.card.rank) if naturals else plays[0]
