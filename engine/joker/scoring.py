"""Joker scoring: deal points (spec 11), pulka premiums (12), totals and settlement (13, 15)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Self

from engine.base import SheetState, WrongPhase
from engine.joker.result import DealContext, DealResult, deal_output
from engine.joker.rules import Rules
from engine.joker.schedule import deal_plan, trump_mode


def khishti(rules: Rules, pulka: int, cards: int) -> int:
    """The penalty for a bid of one or more with no trick taken."""
    if rules.khishti == "per_pulka":
        return 200 if pulka % 2 else 500
    if rules.khishti == "dynamic":
        return 100 * cards
    return int(rules.khishti)


def deal_points(rules: Rules, pulka: int, cards: int, bid: int, taken: int) -> int:
    """One player's points for a deal of ``cards`` cards each."""
    if rules.scoring == "negative" and bid >= 1:
        if taken == bid:
            return 100 * bid
        return -100 * (bid - taken) if taken < bid else 10 * taken
    if taken == bid:
        if bid == 0:
            return 50
        return 100 * cards if bid == cards else 50 + 50 * bid
    return -khishti(rules, pulka, cards) if taken == 0 else 10 * taken


def premium(rules: Rules, points: list[list[int]], exact: list[list[bool]]) -> list[int]:
    """Each seat's premium adjustment for a finished pulka (spec 12 and 15).

    ``points[d][s]`` and ``exact[d][s]``: seat ``s``'s score in the pulka's deal
    ``d`` and whether it made its bid exactly.
    """
    n = len(points[0])
    if not rules.premium:
        return [0] * n
    on = [all(deal[s] for deal in exact) for s in range(n)]
    counted = range(len(points) - 1 if rules.premium_excludes_last_deal else len(points))

    def best(seat: int, exact_only: bool) -> int:
        scores = [points[d][seat] for d in counted if exact[d][seat] or not exact_only]
        return max([0, *scores])

    winners = [s for s in range(n) if on[s]]
    adjustment = [best(s, False) if on[s] else 0 for s in range(n)]
    if len(winners) == 1 or (winners and rules.multi_premium_penalises):
        exact_only = rules.premium_penalty_basis == "exact_only"
        for s in range(n):
            if not on[s] and not (rules.pairs and on[(s + 2) % n]):
                adjustment[s] = -best(s, exact_only)
    return adjustment


def settlement(totals: list[int]) -> list[int]:
    """Seat i's balance: the sum over j of (T_i - T_j); the balances sum to zero."""
    return [len(totals) * t - sum(totals) for t in totals]


class Scoresheet(SheetState):
    """The game's deals in schedule order, scored per deal and per pulka."""

    STATE = ("first_dealer", "points", "passes")

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.plan = deal_plan(rules)
        self.results: list[DealResult] = []
        self.points: list[list[int]] = []
        self.passes = [0] * rules.players

    def to_data(self) -> dict[str, Any]:
        return {**super().to_data(), "results": [dataclasses.asdict(r) for r in self.results]}

    @classmethod
    def from_data(cls, rules: Any, data: Mapping[str, Any]) -> Self:
        sheet = super().from_data(rules, data)
        sheet.results = [DealResult(**{k: tuple(v) if isinstance(v, list) else v
                                       for k, v in r.items()}) for r in data["results"]]
        return sheet

    def restored(self) -> None:
        self.plan = deal_plan(self.rules)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.plan)

    def next_context(self) -> DealContext:
        if self.complete:
            raise WrongPhase("game_over", "the game is over")
        k = len(self.results)
        pulka, cards = self.plan[k]
        return DealContext(k + 1, pulka, cards, (self.first_dealer + k) % self.rules.players,
                           trump_mode(self.rules, cards), tuple(self.passes))

    def add(self, result: DealResult) -> dict[str, Any]:
        """Score a finished deal; its entry in the replay output."""
        points = [deal_points(self.rules, result.pulka, result.cards, b, t)
                  for b, t in zip(result.bids, result.tricks, strict=True)]
        self.results.append(result)
        self.points.append(points)
        for seat, bid in enumerate(result.bids):
            self.passes[seat] += bid == 0
        return deal_output(result.dealer, result.cards, result.trump, list(result.bids),
                           list(result.tricks), points)

    def pulkas(self) -> list[dict[str, Any]]:
        """Every pulka with a scored deal: sums, premium (0 until it is finished), totals."""
        out = []
        for pulka in sorted({r.pulka for r in self.results}):
            deals = [d for d, r in enumerate(self.results) if r.pulka == pulka]
            points = [self.points[d] for d in deals]
            sums = [sum(column) for column in zip(*points, strict=True)]
            finished = len(deals) == sum(1 for p, _ in self.plan if p == pulka)
            exact = [[b == t for b, t in zip(self.results[d].bids, self.results[d].tricks,
                                             strict=True)] for d in deals]
            bonus = premium(self.rules, points, exact) if finished else [0] * len(sums)
            out.append({"sums": sums, "premium": bonus,
                        "totals": [s + b for s, b in zip(sums, bonus, strict=True)]})
        return out

    def report(self) -> dict[str, Any]:
        """The replay output's sheet fields: complete, pulkas, sheet totals, settlement."""
        pulkas = self.pulkas()
        totals = [sum(p["totals"][s] for p in pulkas) for s in range(self.rules.players)]
        sheet: dict[str, Any] = {"totals": totals}
        if self.rules.pairs:
            sheet["teams"] = [totals[0] + totals[2], totals[1] + totals[3]]
        return {"complete": self.complete, "pulkas": pulkas, "sheet": sheet,
                "settlement": settlement(totals)}
