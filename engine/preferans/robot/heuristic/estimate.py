"""Hand evaluation: tricks a hand takes as declarer or defender, and misère safety.

A suit is "played out" from the holder's side (``suit_rounds``): each round he
plays his top card if it beats every other card left and wins (the others
follow low), otherwise he gives up his lowest card while the holder of the
others' top card wins with it. The others' cards are split between two hands
in every possible way, each equally likely. This is the usual count of sure
tricks (aces, protected kings, long suits) made mechanical.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache
from itertools import product

from engine.cards import Card, Suit
from engine.preferans.robot.knowledge import DECK

# Weight of a defender's winner in a side suit by round: the declarer, long in
# trumps, is soon void and ruffs.
DEFENCE_ROUND_WEIGHT = (0.9, 0.6, 0.2)
# A no-trump winner that comes only after the suit has been lost once is slow:
# the defenders, on lead, may cash their own suit first.
SLOW_NT_WIN = 0.5


def _one_split(mine: list[int], left: list[int], right: list[int]) -> list[tuple[bool, bool, bool]]:
    """(won, both others followed, lost before) per round, for one split of the others' cards."""
    out = []
    lost = False
    while mine:
        both = bool(left) and bool(right)
        top = max(left[:1] + right[:1], default=0)
        if mine[0] > top:
            mine.pop(0)
            out.append((True, both, lost))
            del left[-1:]
            del right[-1:]
        else:
            mine.pop()
            holder, other = (left, right) if left[:1] == [top] else (right, left)
            holder.pop(0)
            del other[-1:]
            out.append((False, both, lost))
            lost = True
    return out


@lru_cache(maxsize=65536)
def suit_rounds(mine: tuple[int, ...],
                theirs: tuple[int, ...]) -> tuple[tuple[float, float, float], ...]:
    """Per round of the holder's cards (ranks highest first, the others' likewise): the
    chances that he wins it, wins it while both others still follow, and wins it only
    after losing the suit once."""
    totals = [[0.0, 0.0, 0.0] for _ in mine]
    splits = list(product((0, 1), repeat=len(theirs)))
    for split in splits:
        left = [r for r, side in zip(theirs, split, strict=True) if side == 0]
        right = [r for r, side in zip(theirs, split, strict=True) if side == 1]
        for i, (won, both, late) in enumerate(_one_split(list(mine), left, right)):
            if won:
                totals[i][0] += 1
                totals[i][1] += both
                totals[i][2] += late
    n = len(splits)
    return tuple((w / n, f / n, s / n) for w, f, s in totals)


_RANKS_DOWN = tuple(range(14, 6, -1))
_SUITS = {suit: [c for c in DECK if c.suit == suit] for suit in Suit}


def _rounds(hand: Collection[Card], suit: Suit, out: Collection[Card]):
    held = {c.rank for c in hand if c.suit == suit}
    gone = held | {c.rank for c in out if c.suit == suit}
    return suit_rounds(tuple(r for r in _RANKS_DOWN if r in held),
                       tuple(r for r in _RANKS_DOWN if r not in gone))


def declarer_tricks(hand: Collection[Card], strain: Suit | None,
                    out: Collection[Card] = ()) -> float:
    """Expected tricks of ``hand`` as declarer in ``strain`` (None: no trump); ``out``
    lists cards nobody else holds (the own discard). No trump without a stopper in
    every suit is worth nothing."""
    rounds = {suit: _rounds(hand, suit, out) for suit in Suit}
    return _declarer(rounds, strain, sum(1 for c in out if c.suit == strain))


def strongest(hand: Collection[Card]) -> float:
    """The declarer tricks of ``hand`` in its best strain."""
    rounds = {suit: _rounds(hand, suit, ()) for suit in Suit}
    return max(_declarer(rounds, strain, 0) for strain in (*Suit, None))


def _declarer(rounds: dict[Suit, tuple], strain: Suit | None, out_trumps: int) -> float:
    if strain is None:
        total = 0.0
        for suit in Suit:
            if sum(w for w, _, _ in rounds[suit]) < 0.9:
                return 0.0
            total += sum(w - (1 - SLOW_NT_WIN) * s for w, _, s in rounds[suit])
        return total
    trumps = rounds[strain]
    their_trumps = 8 - len(trumps) - out_trumps
    lost = len(trumps) - sum(w for w, _, _ in trumps)
    control = 1.0 if len(trumps) > their_trumps and lost <= 1 else 0.5
    total = sum(w for w, _, _ in trumps)
    for suit in Suit:
        if suit != strain:
            total += sum(f + control * (w - f) for w, f, _ in rounds[suit])
    return total


def defence_tricks(hand: Collection[Card], strain: Suit | None,
                   out: Collection[Card] = ()) -> float:
    """Expected tricks of a defender's ``hand`` against a contract in ``strain``."""
    total = 0.0
    for suit in Suit:
        rounds = _rounds(hand, suit, out)
        if suit == strain or strain is None:
            total += sum(w for w, _, _ in rounds)
        else:
            total += sum(DEFENCE_ROUND_WEIGHT[min(i, 2)] * w for i, (w, _, _) in enumerate(rounds))
    return total


def miser_dangers(hand: Iterable[Card], out: Collection[Card] = ()) -> int:
    """Cards of a misère hand that the defenders can force to win a trick.

    The k-th lowest card of a suit is safe when it is below the k-th lowest card
    the others hold in it (the worst case: one defender holds them all): 7, 9, J
    is safe against 8, 10, Q.
    """
    cards = set(hand)
    gone = cards | set(out)
    bad = 0
    for suit in Suit:
        mine = sorted(c.rank for c in cards if c.suit == suit)
        theirs = sorted(c.rank for c in _SUITS[suit] if c not in gone)
        bad += sum(m > t for m, t in zip(mine, theirs, strict=False))
    return bad


def miser_lead(hand: Iterable[Card], out: Collection[Card] = ()) -> Card | None:
    """A card the misère declarer can lead safely: below every card the others hold
    in its suit, with at least two such cards out. None if there is none."""
    cards = list(hand)
    for card in sorted(cards, key=lambda c: c.rank):
        higher = [c for c in DECK if c.suit == card.suit and c not in cards and c not in out]
        if len(higher) >= 2 and all(c.rank > card.rank for c in higher):
            return card
    return None
