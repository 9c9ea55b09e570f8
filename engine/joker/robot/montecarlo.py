"""The Monte-Carlo robot's bids and cards: every option tried in every sampled deal, the
deal played out with every hand open (``playout``), and the option whose deal scores
(spec 11) average best is taken."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.joker.robot.playout import finish, table
from engine.joker.robot.sampling import Dealer
from engine.joker.robot.seat import Seat
from engine.joker.scoring import deal_points
from engine.robot_budget import Budget


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
