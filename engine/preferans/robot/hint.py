"""A hint for a learner (issue 34): the robot's action for the decision at hand and one
line of why, as a reason code and its figures (the bot words them in the player's
language). Like the robot, it reads only the deciding seat's view.

The why is the hand estimate the rule-of-thumb robot bids by (tricks as declarer in
the best strain, tricks in defence, cards a misère could be caught with) and, for a
card, the counted tricks the Monte-Carlo robot expects with it on average.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Suit, parse_cards
from engine.preferans.bids import MISER, OBLIGATION, level, trump
from engine.preferans.robot import calls, heuristic
from engine.preferans.robot.answer import judge
from engine.preferans.robot.heuristic.estimate import (
    declarer_tricks,
    defence_tricks,
    miser_dangers,
)
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.robot.play import best_card, weigh
from engine.preferans.rules import Rules
from engine.robot_budget import DEFAULT, Budget

STRAINS: tuple[Suit | None, ...] = (*Suit, None)


@dataclass(frozen=True)
class Hint:
    """The suggested ``action``, and ``why``: a reason code with its ``figures``."""

    action: str
    why: str
    figures: dict[str, Any] = field(default_factory=dict)


def _strain(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.letter


def _hand_worth(k: Knowledge, action: str) -> Hint:
    """A bid, a discard or a contract, by what the hand (kept) is worth as declarer."""
    cards = k.hand
    out: list = []
    if action.startswith("discard:"):
        out = parse_cards(action.partition(":")[2].split(","))
        cards = [c for c in cards if c not in out]
    call = action.partition(":")[2]
    if MISER in (call, k.contract) or (action.startswith("discard:") and k.view["high_bid"]
                                        == MISER):
        return Hint(action, "miser", {"dangers": miser_dangers(cards, out)})
    if action.startswith("contract:") and call != "walkaway":
        strain = trump(call)
    else:
        strain = max(STRAINS, key=lambda s: declarer_tricks(cards, s, out))
    worth = round(declarer_tricks(cards, strain, out), 1)
    why = "hand_short" if action in ("bid:pass", "contract:walkaway") else "hand_tricks"
    return Hint(action, why, {"tricks": worth, "strain": _strain(strain)})


def _whist(k: Knowledge, action: str) -> Hint:
    assert k.contract is not None
    worth = round(defence_tricks(k.hand, trump(k.contract)), 1)
    return Hint(action, "defence", {"tricks": worth,
                                    "need": OBLIGATION[level(k.contract)],
                                    "call": action.partition(":")[2]})


def _card(k: Knowledge, rng: random.Random, budget: Budget) -> Hint:
    if len(k.legal) == 1:
        return Hint(k.legal[0], "only_card")
    weighed = weigh(k, rng, budget)
    card = best_card(k, weighed)
    counted = "own" if k.raspasy else ("declarer" if k.actor == k.declarer else "declarer_theirs")
    expected = round(weighed.tricks[card] / max(1, weighed.deals), 1)
    return Hint(f"play:{card}", "card", {"tricks": expected, "counted": counted,
                                         "deals": weighed.deals})


def hint(view: Mapping[str, Any], rules: Rules, rng: random.Random,
         budget: Budget = DEFAULT) -> Hint:
    """The robot's suggestion for the seat whose view this is, and why."""
    k = Knowledge(view, rules)
    if k.phase == "play":
        return _card(k, rng, budget)
    if k.phase == "open":
        return Hint(heuristic.calls.open_play(k), "open")
    if k.phase == "claim":
        verdict = judge(k, rng, budget)
        return Hint(verdict.action, "claim", {"deals": verdict.deals, "beaten": verdict.beaten})
    decide = {"bidding": calls.bid, "discard": calls.discard, "contract": calls.contract,
              "whist": calls.whist}[k.phase]
    action = decide(k, rng, budget)
    if k.phase == "whist":
        return _whist(k, action)
    return _hand_worth(k, action)
