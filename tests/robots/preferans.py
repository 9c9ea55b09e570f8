"""Preferans deals and rule sets shared by the robot tests (heuristic and Monte Carlo)."""

from __future__ import annotations

import copy
import random

from engine.cards import Card
from engine.preferans import State
from tests.preferans.helpers import act, deal

RULE_SETS = [
    {},
    {"players": 4},
    {"variant": "leningrad"},
    {"variant": "rostov", "players": 4},
    {"walkaway": "no_whists", "stalingrad": True, "bid_jumps": True, "here_rule": "seed_literal"},
    {"players": 4, "ten_mode": "checked", "open_reveal": "after_first_lead", "here_rule": "off",
     "miser_bidder_after_outbid": "may_raise", "walkaway": "with_consolation"},
]

STRONG = "AS KS QS JS 10S 9S AC KC AD AH"
WEAK = "7S 8S 8C 9C JC 8D 10D QD 9H 10H"  # no sure trick, no misère

DECLARER = "AS KS QS JS 10S 9S 8S 7C 8H 9H"


def declared_6s(hands: dict[int, str], talon: str, discard: str) -> State:
    """Seat 0 wins at 6S with ``hands[0]``, discards ``discard``, declares 6S."""
    s = deal(hands, talon)
    act(s, "bid:6S", "bid:pass", "bid:pass", f"discard:{discard}", "contract:6S")
    return s


def reshuffled(state: State, viewer: int, rng: random.Random) -> State:
    """A copy of ``state`` in which every card ``viewer`` cannot see changes place
    among the hidden hands, the hidden talon and another seat's discard."""
    twin = copy.deepcopy(state)
    hidden_seats = [s for s in range(twin.n) if s != viewer and twin.hands[s]
                    and not (twin.exposed and s in twin._defenders())]
    talon_from = 2 if twin.declarer is not None else twin.talon_turned
    places: list[list[Card]] = [twin.hands[s] for s in hidden_seats]
    places.append(twin.talon[talon_from:])
    if viewer != twin.declarer:
        places.append(twin.discarded)
    pool = [c for place in places for c in place]
    rng.shuffle(pool)
    for place in places:
        place[:] = [pool.pop() for _ in place]
    for s in hidden_seats:
        twin.hands[s].sort(key=Card.sort_key)
    twin.talon[talon_from:] = places[len(hidden_seats)]
    return twin
