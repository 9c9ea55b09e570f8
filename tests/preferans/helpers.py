"""Building Preferans deals for tests: explicit hands, actions applied in turn."""

from __future__ import annotations

import copy
from typing import Any

from engine.cards import Card, parse_cards
from engine.preferans.pack import preferans_deck
from engine.preferans.result import DealContext
from engine.preferans.rules import Rules
from engine.preferans.state import State

NAMES = ["Ann", "Bob", "Cid", "Dan"]

# A raspasy deal for seats 0-2 (the talon is A♥ 7♦) and, without the talon, its ten tricks:
# cards in playing order, the winner (who leads the next trick). Tricks 6, 4, 0.
RASPASY_HANDS = {0: "KH 7H AS KS QS JS 10S 9S 8S 7S",
                 1: "QH JH AD KD QD JD 10D 9D 8D AC",
                 2: "10H 9H 8H KC QC JC 10C 9C 8C 7C"}
RASPASY_TRICKS = [
    ("7H JH 8H", 1), ("8D 7C 7S", 1), ("9D 8C 8S", 1), ("AC 9C 9S", 1), ("QH 9H KH", 0),
    ("10S 10D 10C", 0), ("JS JD JC", 0), ("QS QD QC", 0), ("KS KD KC", 0), ("AS AD 10H", 0),
]


def deal(hands: dict[int, str], talon: str = "", *, dealer: int | None = None,
         min_bid: str = "6S", **rules: Any) -> State:
    """A deal with the given hands; missing hands and talon are filled from the rest of the deck."""
    r = Rules.from_dict(rules)
    n = r.players
    dealer = n - 1 if dealer is None else dealer
    active = [(dealer + i) % n for i in range(1, 4)]
    given = {s: parse_cards(h) for s, h in hands.items()}
    talon_cards = parse_cards(talon)
    used = {c for h in given.values() for c in h} | set(talon_cards)
    rest = [c for c in preferans_deck() if c not in used]
    full: list[list[Card]] = [[] for _ in range(n)]
    for seat in active:
        full[seat] = given.get(seat, [])
        while len(full[seat]) < 10:
            full[seat].append(rest.pop(0))
    while len(talon_cards) < 2:
        talon_cards.append(rest.pop(0))
    record = {"dealer": dealer, "hands": [[str(c) for c in h] for h in full],
              "talon": [str(c) for c in talon_cards]}
    return State.new(r, NAMES[:n], DealContext(dealer, min_bid), deal=record)


def act(state: State, *actions: str) -> list:
    """Apply each action for the seat whose turn it is; returns all events."""
    events = []
    for action in actions:
        events.extend(state.apply(state.to_act[0], action))
    return events


def snapshot(state: State) -> dict[str, Any]:
    """Everything observable about a state, to show that a refused action changed nothing."""
    return copy.deepcopy({"views": [state.view(s) for s in range(state.n)],
                          "spectator": state.view(None), "version": state.version,
                          "hands": [list(h) for h in state.hands]})



def play_tricks(state: State, tricks: list[tuple[str, int]]) -> None:
    """Play whole tricks (cards in playing order, "7H JH 8H") and assert each one's winner."""
    for number, (cards, winner) in enumerate(tricks, 1):
        before = list(state.tricks)
        act(state, *[f"play:{c}" for c in cards.split()])
        gained = [s for s in range(state.n) if state.tricks[s] > before[s]]
        assert gained == [winner], f"trick {number} ({cards}) went to {gained}, not {winner}"
