"""The robot's calls: auction, discard, contract, whist, open or closed.

Thresholds follow the usual guidance: bid only what the hand's sure tricks make
(the talon is unknown and earns nothing), misère only on a hand the defenders
cannot catch, whist with the defensive tricks the obligation O(L) asks.
"""

from __future__ import annotations

from itertools import combinations

from engine.cards import Card, Suit
from engine.preferans.bids import LADDER, MISER, OBLIGATION, TRICK_BIDS, bid_rank, level, trump
from engine.preferans.robot.heuristic.estimate import (
    declarer_tricks,
    defence_tricks,
    miser_dangers,
    miser_lead,
)
from engine.preferans.robot.knowledge import Knowledge

STRAINS: tuple[Suit | None, ...] = (*Suit, None)
BID_SLACK = 0.75  # the talon, unknown, is worth about half a trick
RAISE_MARGIN = 1.5  # declare above the bid only with a trick to spare
WALKAWAY_SHORT = 2.5  # walk away (if allowed) when this many tricks short
HALFWHIST_AT = {6: 1.0, 7: 0.5}


def _strain_text(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.letter


def _lowest_level(strain: Suit | None, min_rank: int) -> int | None:
    """The lowest level of ``strain`` not below ``min_rank`` on the ladder."""
    for lvl in range(6, 11):
        if bid_rank(f"{lvl}{_strain_text(strain)}") >= min_rank:
            return lvl
    return None


def bid_limit(hand: list[Card]) -> int:
    """The highest ladder rank the hand supports, -1 if none."""
    best = -1
    for strain in STRAINS:
        lvl = min(10, int(declarer_tricks(hand, strain) + BID_SLACK))
        if lvl >= 6:
            best = max(best, bid_rank(f"{lvl}{_strain_text(strain)}"))
    return best


def miser_ok(k: Knowledge) -> bool:
    """A misère the defenders cannot catch, with a safe opening lead if the robot leads."""
    if miser_dangers(k.hand):
        return False
    return k.actor != k.active[0] or miser_lead(k.hand) is not None


def bid(k: Knowledge) -> str:
    if "bid:miser" in k.legal and miser_ok(k):
        return "bid:miser"
    limit = bid_limit(k.hand)
    high = k.view["high_bid"]
    if "bid:here" in k.legal and high is not None and bid_rank(high) <= limit:
        return "bid:here"
    for action in k.legal:
        call = action.partition(":")[2]
        if call in TRICK_BIDS and bid_rank(call) <= limit:
            return action
    return "bid:pass"


def discard(k: Knowledge) -> str:
    """The two cards whose loss hurts the contract least."""
    hand = k.hand
    won = k.view["high_bid"]

    def score(pair: tuple[Card, Card]) -> tuple[float, int]:
        kept = [c for c in hand if c not in pair]
        spare = -sum(c.rank for c in pair)  # tie-break: keep the higher cards
        if won == MISER:
            return -miser_dangers(kept, pair), -spare
        return _best_contract(kept, pair, bid_rank(won))[0], spare

    return k.discard_action(max(combinations(hand, 2), key=score))


def _best_contract(hand: list[Card], out: tuple[Card, ...] | list[Card],
                   min_rank: int) -> tuple[float, str]:
    """(tricks to spare, contract) of the strain that makes its lowest allowed level best;
    a higher level when the tricks leave RAISE_MARGIN to spare."""
    best = (-99.0, 0, LADDER[min_rank])
    for strain in STRAINS:
        lvl = _lowest_level(strain, min_rank)
        if lvl is None:
            continue
        tricks = declarer_tricks(hand, strain, out)
        raised = max(lvl, min(10, int(tricks - RAISE_MARGIN)))
        trumps = sum(1 for c in hand if c.suit == strain)  # ties go to the longer trumps
        best = max(best, (tricks - lvl, trumps, f"{raised}{_strain_text(strain)}"))
    return best[0], best[2]


def contract(k: Knowledge) -> str:
    if k.legal == ["contract:miser"]:
        return "contract:miser"
    won = k.view["high_bid"]
    spare, best = _best_contract(k.hand, k.discard, bid_rank(won))
    if "contract:walkaway" in k.legal and spare <= -WALKAWAY_SHORT:
        return "contract:walkaway"
    return f"contract:{best}"


def whist(k: Knowledge) -> str:
    assert k.contract is not None
    return whist_call(k.hand, k.contract, [c for _, c in k.view["whists"]], k.legal)


def whist_call(hand: list[Card], contract: str, calls: list[str], legal: list[str]) -> str:
    """The call of a defender holding ``hand`` after the whist ``calls`` so far."""
    if len(legal) == 1:
        return legal[0]
    lvl, obligation = level(contract), OBLIGATION[level(contract)]
    mine = defence_tricks(hand, trump(contract))
    if calls in ([], ["whist"]):
        need = obligation / 2 if lvl <= 7 else 1.0  # two whisters answer a half each
    elif calls == ["pass"]:
        need = max(obligation - 1.0, 1.0)  # alone, with the passer's cards to help
    else:
        need = obligation - 0.5  # returning the whist after a half-whist
    if mine >= need:
        return "whist:whist"
    if "whist:halfwhist" in legal and mine >= HALFWHIST_AT[lvl]:
        return "whist:halfwhist"
    return "whist:pass"


def open_play(k: Knowledge) -> str:
    """Open when the lone whister needs the passer's tricks; closed when he has his own."""
    assert k.contract is not None
    mine = defence_tricks(k.hand, trump(k.contract))
    return "open:true" if mine < OBLIGATION[level(k.contract)] else "open:false"
