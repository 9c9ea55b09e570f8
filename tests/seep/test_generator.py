"""The move generator against a brute-force oracle on random positions, and the text of
every legal move (short, ASCII, read back to the same move)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.seep import Rules
from engine.seep.floor import Floor, House
from engine.seep.moves import (
    BREAK,
    BUILD,
    CAPTURE,
    CEMENT,
    KINDS,
    THROW,
    Move,
    Turn,
    diagnose,
    legal_moves,
)
from engine.seep.notation import MAX_TEXT, action_text, parse_action, to_move, written
from engine.seep.pack import seep_deck
from engine.seep.values import value
from tests.seep.helpers import S
from tests.seep.oracle import oracle_moves

OPTIONS = {
    "capture_must_be_maximal": (True, False),
    "absorb_sets": ("mandatory", "optional", "singles"),
    "break_partner_house": (True, False),
    "break_with_floor_cards": (False, True),
    "max_houses": ("unlimited", 2),
    "bid_throw_last_resort": (True, False),
}


def _group(rng: random.Random, pool: list[Card], target: int) -> tuple[Card, ...] | None:
    """A random set of cards from ``pool`` summing to ``target`` (removed from the pool)."""
    for _ in range(30):
        need, group = target, []
        for card in rng.sample(pool, len(pool)):
            if value(card) <= need and card not in group:
                group.append(card)
                need -= value(card)
            if need == 0:
                for c in group:
                    pool.remove(c)
                return tuple(group)
    return None


def random_position(seed: int) -> tuple[Rules, Floor, tuple[Card, ...], int | None]:
    """Rules, floor, the mover's hand (S moves) and, sometimes, the bid of play #1."""
    rng = random.Random(seed)
    rules = Rules.from_dict({k: rng.choice(v) for k, v in OPTIONS.items()})
    pool = rng.sample(seep_deck(), 52)
    if rng.random() < 0.15:  # the bidder's first play: four cards, the floor's four
        hand = [c for c in pool if value(c) >= 9][:1] + [c for c in pool if value(c) < 9][:3]
        loose = [c for c in pool if c not in hand][:4]
        return rules, Floor(loose), tuple(hand), value(hand[0])
    houses = []
    for target in rng.sample(range(9, 14), rng.choice([0, 1, 1, 2, 3])):
        groups = [g for g in (_group(rng, pool, target) for _ in range(rng.choice([1, 1, 2])))
                  if g]
        if sum(len(g) for g in groups) < 2:
            continue
        owners = rng.sample(range(4), 1 if len(groups) == 1 else rng.choice([1, 2]))
        houses.append(House(target, groups, set(owners)))
    values = {h.value for h in houses}
    loose = [c for c in pool if value(c) not in values][:rng.randint(0, 7)]
    pool = [c for c in pool if c not in loose]
    hand = pool[:rng.randint(1, 5)]
    for h in houses:
        if S in h.owners and not any(value(c) == h.value for c in hand):
            hand.append(next(c for c in pool if value(c) == h.value and c not in hand))
    return rules, Floor(loose, houses), tuple(hand), None


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32))
def test_generator_matches_the_oracle(seed: int) -> None:
    rules, floor, hand, bid = random_position(seed)
    turn = Turn(rules, floor, S, hand, bid)
    moves = legal_moves(turn)
    assert len(moves) == len(set(moves))
    assert set(moves) == oracle_moves(rules, floor.loose, floor.houses, S, list(hand), bid)
    for card in hand:
        assert legal_moves(turn, card) == [m for m in moves if m.card == card]
    for move in moves:
        text = action_text(written(move))
        assert text.isascii() and len(text.encode()) < MAX_TEXT
        assert to_move(parse_action(text)) == move


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_every_refused_move_gets_a_reason(seed: int) -> None:
    """Random candidate moves that are not legal are refused with a specific reason."""
    rules, floor, hand, bid = random_position(seed)
    turn = Turn(rules, floor, S, hand, bid)
    legal = set(legal_moves(turn))
    rng = random.Random(seed)
    for _ in range(20):
        card = rng.choice(hand)
        kind = rng.choice(KINDS)
        pick = frozenset(c for c in floor.loose if rng.random() < 0.3)
        with_ = frozenset(c for c in floor.loose if c not in pick and rng.random() < 0.2)
        number = {CAPTURE: value(card), THROW: value(card), BUILD: rng.randint(9, 13),
                  CEMENT: rng.randint(9, 13), BREAK: rng.choice([*floor.houses, 9])}[kind]
        move = Move(kind, card, number, with_ if kind in (BUILD, CEMENT, BREAK) else frozenset(),
                    frozenset() if kind == THROW else pick)
        if move not in legal:
            assert diagnose(turn, move).code != "illegal_move", move
