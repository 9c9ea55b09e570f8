"""Double-dummy search in pure Python: alpha-beta over single cards, a transposition
table at trick boundaries (ranks made relative), touching cards played as one, and
the cheap move ordering of bridge solvers.

Cards are bits 0-31 (``suit * 8 + rank - 7``); hands are bit masks of the three
active players in playing order (0 = first hand). The value searched is the
number of tricks won by the ``counted`` owners (players 0-2, 3 = the 4-player
dealer's talon cards), which the ``maxers`` players maximise and the others
minimise.
"""

from __future__ import annotations

from functools import cache

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
TALON = 3  # owner of a raspasy talon card that may win (the 4-player dealer)
NOBODY = -1  # owner of a 3-player raspasy talon card: it shows the suit, never wins


@cache
def _relative(present: int, mine: int) -> int:
    """``mine`` within one suit's 8 bits, with the ``present`` cards moved to the top ranks."""
    out, slot = 0, 7
    for bit in range(7, -1, -1):
        if present >> bit & 1:
            if mine >> bit & 1:
                out |= 1 << slot
            slot -= 1
    return out


class Search:
    def __init__(self, hands: list[int], trump: int, counted: int, maxers: int,
                 talon: list[int], talon_owner: int, fixed: int) -> None:
        self.hands = hands
        self.trump = trump
        self.counted = counted
        self.maxers = maxers
        self.talon = talon
        self.talon_owner = talon_owner
        self.fixed = fixed
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    # -- one trick ----------------------------------------------------------------

    def winner(self, plays: list[tuple[int, int]]) -> int:
        led = plays[0][1] >> 3
        best_owner, best_key = NOBODY, -1
        for owner, card in plays:
            if owner == NOBODY:
                continue
            suit = card >> 3
            if suit == self.trump:
                key = 16 + (card & 7)
            elif suit == led:
                key = 8 + (card & 7)
            else:
                continue
            if key > best_key:
                best_owner, best_key = owner, key
        return best_owner

    def legal(self, hand: int, plays: list[tuple[int, int]]) -> int:
        if not plays:
            return hand
        follow = hand & SUIT_MASK[plays[0][1] >> 3]
        if follow:
            return follow
        if self.trump >= 0:
            ruff = hand & SUIT_MASK[self.trump]
            if ruff:
                return ruff
        return hand

    def moves(self, player: int, plays: list[tuple[int, int]]) -> list[int]:
        """One card per run of touching cards, in a good order to try first."""
        hand = self.hands[player]
        legal = self.legal(hand, plays)
        present = self.hands[0] | self.hands[1] | self.hands[2]
        for _, c in plays:
            present |= 1 << c
        for c in self.talon:
            present |= 1 << c
        cards: list[int] = []
        for s in range(4):
            mine = legal >> (8 * s) & 0xFF
            if not mine:
                continue
            here = present >> (8 * s) & 0xFF
            prev_mine = False
            for bit in range(7, -1, -1):
                if not here >> bit & 1:
                    continue
                if mine >> bit & 1:
                    if not prev_mine:
                        cards.append(8 * s + bit)
                    prev_mine = True
                else:
                    prev_mine = False
        return self.order(player, plays, cards)

    def order(self, player: int, plays: list[tuple[int, int]], cards: list[int]) -> list[int]:
        wants = bool(self.maxers >> player & 1)  # wants the counted owners to win
        if not plays:
            return sorted(cards, key=lambda c: -(c & 7)) if wants else sorted(
                cards, key=lambda c: c & 7)

        def key(card: int) -> tuple[int, int]:
            w = self.winner([*plays, (player, card)])
            good = (w >= 0 and bool(self.counted >> w & 1)) == wants
            return (0 if good else 1, card & 7 if good else -(card & 7))

        return sorted(cards, key=key)

    # -- the search ----------------------------------------------------------------

    def value(self, player: int, plays: list[tuple[int, int]], order: list[int],
              alpha: int, beta: int) -> int:
        """Counted tricks from here; ``order`` lists the players still to play this trick."""
        self.nodes += 1
        if not order:
            return self.finish(plays, alpha, beta)
        maxing = self.maxers >> player & 1
        best = -1 if maxing else 99
        rest = order[1:]
        nxt = rest[0] if rest else -1
        for card in self.moves(player, plays):
            bit = 1 << card
            self.hands[player] ^= bit
            v = self.value(nxt, [*plays, (player, card)], rest, alpha, beta)
            self.hands[player] ^= bit
            if maxing:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def finish(self, plays: list[tuple[int, int]], alpha: int, beta: int) -> int:
        w = self.winner(plays)
        won = 1 if w >= 0 and self.counted >> w & 1 else 0
        fixed = self.fixed
        if fixed:
            self.fixed -= 1
        v = won + self.start(w if not fixed else 0, bool(fixed), alpha - won, beta - won)
        self.fixed = fixed
        return v

    def start(self, leader: int, fixed_lead: bool, alpha: int, beta: int) -> int:
        """A new trick: the talon card leads it while any is left of a fixed lead."""
        left = (self.hands[0] | self.hands[1] | self.hands[2]).bit_count() // 3
        if left == 0:
            return 0
        key = self.key(leader)
        lo, hi = self.tt.get(key, (0, left))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        if fixed_lead and self.talon:
            card = self.talon.pop(0)
            v = self.value(0, [(self.talon_owner, card)], [0, 1, 2], a, b)
            self.talon.insert(0, card)
        else:
            v = self.value(leader, [], [(leader + i) % 3 for i in range(3)], a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.tt[key] = (lo, hi)
        return v

    def key(self, leader: int) -> tuple:
        hands = [*self.hands, sum(1 << c for c in self.talon)]
        present = hands[0] | hands[1] | hands[2] | hands[3]
        rel = []
        for s in range(4):
            here = present >> (8 * s) & 0xFF
            rel.extend(_relative(here, h >> (8 * s) & 0xFF) for h in hands)
        return (*rel, leader, self.fixed)


def solve(hands: list[int], trump: int, leader: int, trick: list[tuple[int, int]],
          counted: int, maxers: int, talon: list[int] = (), talon_owner: int = NOBODY,
          fixed: int = 0) -> int:
    """The counted tricks from this position with best play by both sides.

    ``trick`` holds the plays of the trick in progress (owner, card), the first
    one by ``leader`` (or by a talon owner); ``talon`` the talon cards that lead
    the next tricks (raspasy); ``fixed`` how many of the next tricks first hand
    leads (or the talon does) whoever won the one before.
    """
    s = Search(list(hands), trump, counted, maxers, list(talon), talon_owner, fixed)
    if trick:
        first = trick[0][0]
        if first in (NOBODY, TALON):
            order = [0, 1, 2][len(trick) - 1:]
        else:
            order = [(first + i) % 3 for i in range(len(trick), 3)]
        return s.value(order[0], list(trick), order, -1, 99)
    return s.start(leader, False, -1, 99)
