"""Random play for the CLI, bench and property tests; the first dealer by tuzovanie."""

from __future__ import annotations

import random

from engine.cards import ACE
from engine.joker.pack import joker_deck
from engine.joker.rules import Rules
from engine.joker.state import State


def random_action(state: State, seat: int, rng: random.Random) -> str:
    """A random legal action. When both are legal, a joker play and a natural card are
    equally likely first, so that every declaration occurs without jokers crowding out
    the cards; bids and trumps are uniform."""
    legal = state.legal_actions(seat)
    jokers = [a for a in legal if a.startswith("play:JK")]
    naturals = [a for a in legal if not a.startswith("play:JK")]
    if jokers and naturals:
        return rng.choice(rng.choice((jokers, naturals)))
    return rng.choice(legal)


def first_dealer(rules: Rules, opener_seat: int, rng: random.Random) -> int:
    """Tuzovanie (spec 5): a shuffled pack is dealt face up clockwise from the opener
    until someone receives an ace; that player deals first."""
    pack = joker_deck()
    rng.shuffle(pack)
    k = next(k for k, card in enumerate(pack) if card.rank == ACE)
    return (opener_seat + k) % rules.players
