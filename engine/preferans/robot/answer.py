"""The Monte-Carlo robot's answer to a claim (issue 34).

The claimer's hand is shown, so the robot deals only the cards it still cannot see, as
for a card, and solves each deal with every hand open from the position of the claim.
It accepts when the claimer's side takes its claimed tricks with best play in every
deal it looked at (no defence it could find does better), and refuses otherwise: play
goes on and the cards tell.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.preferans.dds import tricks
from engine.preferans.robot.knowledge import SEARCH_LIMIT, Knowledge
from engine.preferans.robot.layouts import goal, play_layout
from engine.preferans.robot.sampling import Dealer
from engine.robot_budget import Budget


@dataclass(frozen=True)
class Verdict:
    """Of ``deals`` solved deals, in how many the claim failed (``beaten``)."""

    deals: int
    beaten: int

    @property
    def action(self) -> str:
        return "answer:accept" if self.deals and not self.beaten else "answer:refuse"


def judge(k: Knowledge, rng: random.Random, budget: Budget) -> Verdict:
    """The claim answered by ``k``'s seat, tried in sampled deals of the unseen cards."""
    claim = k.view["claim"]
    assert k.declarer is not None and claim is not None
    left = 10 - k.view["tricks_done"]
    dealer = Dealer(k)
    deals = beaten = 0
    for sample in budget.deals(dealer.deal, rng, dealer.hidden):
        found = tricks(play_layout(k, sample), goal(k), cap=left, limit=SEARCH_LIMIT)
        if found is None:  # a deal too long to solve proves nothing
            continue
        deals += 1
        side = found if claim["seat"] == k.declarer else left - found
        beaten += side < claim["tricks"]
    return Verdict(deals, beaten)


def answer(k: Knowledge, rng: random.Random, budget: Budget) -> str:
    return judge(k, rng, budget).action
