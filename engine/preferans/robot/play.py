"""The Monte-Carlo robot's card play: each legal card is tried in every sampled deal,
the solver plays the rest with every hand open, and the card whose outcomes are worth
most to the robot's side on average is played.

The worth of an outcome is the deal's settlement in whists (``worth``): the
declarer weighs making his contract against overtricks, the defenders their
whists against the obligation, and in raspasy and misère every trick counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import Card, parse_card
from engine.preferans.dds import values
from engine.preferans.robot.heuristic.play import play as heuristic_play
from engine.preferans.robot.knowledge import SEARCH_LIMIT, Knowledge
from engine.preferans.robot.layouts import goal, play_layout
from engine.preferans.robot.sampling import Dealer
from engine.preferans.robot.worth import Worth
from engine.robot_budget import Budget

TIE = 1e-6  # scores this close are equal (sums of floats)


@dataclass(frozen=True)
class Weighed:
    """Each legal card's worth to the deciding side summed over ``deals`` sampled deals,
    and the counted seat's tricks at the end summed the same way."""

    worth: dict[Card, float]
    tricks: dict[Card, float]
    deals: int


def weigh(k: Knowledge, rng: random.Random, budget: Budget) -> Weighed:
    """Every legal card tried in every sampled deal, the rest played by the solver."""
    cards = [parse_card(a.partition(":")[2]) for a in k.legal]
    counted = k.actor if k.raspasy else k.declarer
    assert counted is not None
    taken = k.view["tricks"][counted]
    worth = _worth(k, counted)
    dealer = Dealer(k)
    score = dict.fromkeys(cards, 0.0)
    total = dict.fromkeys(cards, 0.0)
    deals = 0
    target = goal(k)
    for sample in budget.deals(dealer.deal, rng, dealer.hidden):
        found = values(play_layout(k, sample), target, limit=SEARCH_LIMIT)
        deals += found is not None  # a deal too long to solve is skipped
        for card, more in (found or {}).items():
            score[card] += worth(taken + more)
            total[card] += taken + more
    return Weighed(score, total, deals)


def best_card(k: Knowledge, weighed: Weighed) -> Card:
    """The card worth most; between cards of equal worth (touching cards, or a deal that
    no card changes) the rule-of-thumb robot's card, else the cheapest."""
    score = weighed.worth
    top = max(score.values())
    best = [c for c in score if score[c] >= top - TIE]
    usual = parse_card(heuristic_play(k).partition(":")[2])
    return usual if usual in best else max(best, key=lambda c: _cheap(k, c))


def play(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    if len(k.legal) == 1:
        return k.legal[0]
    return f"play:{best_card(k, weigh(k, rng, budget))}"


def _cheap(k: Knowledge, card: Card) -> tuple[bool, int]:
    """A side card before a trump, the lower before the higher."""
    return card.suit != k.trump, -card.rank


def _split(k: Knowledge, counted: int, total: int) -> list[int]:
    """Tricks per seat when ``counted`` ends with ``total``: the others share the rest of
    the tricks still to play evenly (the earlier seat gets an odd one)."""
    tricks = list(k.view["tricks"])
    rest = 10 - k.view["tricks_done"] - (total - tricks[counted])
    tricks[counted] = total
    others = [s for s in k.active if s != counted]
    for i, seat in enumerate(others):
        tricks[seat] += rest // 2 + (1 if i < rest % 2 else 0)
    return tricks


def _worth(k: Knowledge, counted: int) -> Callable[[int], float]:
    """The worth to the deciding side of ``counted`` ending the deal with t tricks."""
    w = Worth(k)
    side = k.partners(k.seat)
    table: dict[int, float] = {}
    taken = k.view["tricks"][counted]
    for total in range(taken, taken + 11 - k.view["tricks_done"]):
        tricks = _split(k, counted, total)
        if k.raspasy:
            balances = w.raspasy(tricks)
        elif k.miser:
            balances = w.miser(counted, tricks)
        else:
            assert k.contract is not None
            balances = w.contract(counted, k.view["high_bid"], k.contract, tricks,
                                  [(s, c) for s, c in k.view["whists"]])
        table[total] = float(sum(balances[s] for s in side))
    return table.__getitem__
