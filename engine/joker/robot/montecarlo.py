"""A Monte-Carlo Joker robot (issue 21), measured against the heuristic one.

It deals the cards it has not seen in ways that fit what it has seen
(``sampling``), tries each bid or card in every such deal, plays the deal out with
every hand open (``playout``), and takes the option whose deal scores (spec 11)
average best; the chooser's trump stays the heuristic's. In the duplicate
benchmark it does not beat the heuristic (24 deals, a game's schedule: -5.3
points a deal, 95% CI -16.7 .. +6.1): the open-hand play-outs let every seat
steer its tricks far better than a seat that sees only its own hand can. So
``engine.joker.robot.choose`` is still the heuristic; this one is the
benchmark's candidate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.joker.robot.heuristic import bidding
from engine.joker.robot.playout import finish, table
from engine.joker.robot.sampling import Dealer
from engine.joker.robot.seat import Seat
from engine.joker.rules import Rules
from engine.joker.scoring import deal_points
from engine.robot_budget import DEFAULT, Budget


def choose(view: Mapping[str, Any], rules: Rules, rng: random.Random,
           budget: Budget = DEFAULT) -> str:
    """This robot's action for the seat whose view this is, within ``budget``."""
    seat = Seat(view, rules)
    if seat.phase == "trump":
        return bidding.trump_choice(seat)
    return decide(seat, seat.legal, rng, budget)


def decide(seat: Seat, options: Sequence[str], rng: random.Random, budget: Budget) -> str:
    """The option (an action of ``seat``) worth most on average over sampled deals."""
    if len(options) == 1:
        return options[0]
    dealer = Dealer(seat)
    score = dict.fromkeys(options, 0.0)
    me = seat.seat
    for sample in budget.deals(dealer.deal, rng, dealer.hidden):
        for option in options:
            state = table(seat, [list(h) for h in sample.hands])
            state.apply(me, option)
            tricks = finish(state)
            bid = state.bids[me]
            assert bid is not None
            score[option] += sample.weight * deal_points(seat.rules, seat.view["pulka"],
                                                         seat.cards, bid, tricks[me])
    return max(options, key=lambda o: (round(score[o], 6), -options.index(o)))
