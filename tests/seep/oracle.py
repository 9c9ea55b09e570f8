"""A brute-force reading of spec section 6, to check the move generator against.

It tries every subset of the loose cards for every role, which is slow but
plainly exhaustive; it shares no code with ``engine.seep.moves``.
"""

from __future__ import annotations

from itertools import combinations

from engine.cards import Card
from engine.seep import Rules
from engine.seep.floor import House
from engine.seep.moves import BREAK, BUILD, CAPTURE, CEMENT, THROW, Move
from engine.seep.values import value


def subsets(cards: frozenset[Card]) -> list[frozenset[Card]]:
    items = sorted(cards, key=str)
    return [frozenset(c) for k in range(len(items) + 1) for c in combinations(items, k)]


def worth(cards) -> int:
    return sum(value(c) for c in cards)


def splits(cards: frozenset[Card], target: int) -> bool:
    """Whether the cards divide into groups each summing to ``target``."""
    if not cards:
        return True
    first = min(cards, key=str)
    rest = cards - {first}
    return any(worth(g) + value(first) == target and splits(rest - g, target)
               for g in subsets(rest))


def has_group(cards: frozenset[Card], target: int) -> bool:
    return any(g and worth(g) == target for g in subsets(cards))


def absorbable(rules: Rules, free: frozenset[Card], target: int) -> list[frozenset[Card]]:
    singles = frozenset(c for c in free if value(c) == target)
    out = []
    for a in subsets(free):
        if not splits(a, target) or not singles <= a:
            continue
        if rules.absorb_sets == "mandatory" and has_group(free - a, target):
            continue
        if rules.absorb_sets == "singles" and a != singles:
            continue
        out.append(a)
    return out


def oracle_moves(rules: Rules, loose: list[Card], houses: dict[int, House], seat: int,
                 hand: list[Card], bid: int | None = None) -> set[Move]:
    floor = frozenset(loose)
    partner = rules.partner(seat)
    owned = {v for v, h in houses.items() if seat in h.owners}
    moves: set[Move] = set()

    def holds(card: Card, values: set[int]) -> bool:
        rest = list(hand)
        rest.remove(card)
        return all(any(value(c) == v for c in rest) for v in values)

    for card in hand:
        v = value(card)
        if v in houses or has_group(floor, v):
            for taken in subsets(floor):
                if not splits(taken, v) or (v not in houses and not taken):
                    continue
                if rules.capture_must_be_maximal and has_group(floor - taken, v):
                    continue
                if not taken and has_group(floor, v):
                    continue
                if holds(card, owned - {v}):
                    moves.add(Move(CAPTURE, card, v, cards=taken))
        elif holds(card, owned):
            moves.add(Move(THROW, card, v))
        for target in range(9, 14):
            for with_ in subsets(floor):
                if v + worth(with_) != target:
                    continue
                for absorbed in absorbable(rules, floor - with_, target):
                    if target not in houses:
                        if not with_ | absorbed or not holds(card, owned | {target}):
                            continue
                        if rules.max_houses == 2 and len(houses) >= 2:
                            continue
                        moves.add(Move(BUILD, card, target, with_, absorbed))
                    else:
                        owners = houses[target].owners
                        by_partner = seat not in owners and partner in owners
                        if holds(card, owned if by_partner else owned | {target}):
                            moves.add(Move(CEMENT, card, target, with_, absorbed))
        for old in houses.values():
            if len(old.groups) > 1 or seat in old.owners:
                continue
            if not rules.break_partner_house and partner in old.owners:
                continue
            extras = subsets(floor) if rules.break_with_floor_cards else [frozenset()]
            for with_ in extras:
                target = old.value + v + worth(with_)
                if target > 13:
                    continue
                for absorbed in absorbable(rules, floor - with_, target):
                    if target in houses:
                        owners = houses[target].owners
                        by_partner = seat not in owners and partner in owners
                        need = owned if by_partner else owned | {target}
                    else:
                        need = owned | {target}
                    if holds(card, need):
                        moves.add(Move(BREAK, card, old.value, with_, absorbed))
    if bid is None:
        return moves
    moves = {m for m in moves if (m.target if m.kind == BUILD else value(m.card)) == bid
             and m.kind in (BUILD, CAPTURE, THROW)}
    if rules.bid_throw_last_resort and any(m.kind != THROW for m in moves):
        moves = {m for m in moves if m.kind != THROW}
    return moves
