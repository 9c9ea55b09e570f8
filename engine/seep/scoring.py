"""Seep scoring (spec sections 9-11): deal scores, the bazzi ledger, the dealer, settlement."""

from __future__ import annotations

from typing import Any

from engine.base import SheetState
from engine.seep.result import DealContext, DealResult
from engine.seep.rules import Rules

NINE = 9  # spec 10.1: a team scoring under nine loses the bazzi at once
HALF_PACK = 26


def deal_score(rules: Rules, result: DealResult) -> tuple[int, int]:
    """Each team's deal score: card points, sweeps at their worth, the majority bonus."""
    worth = (rules.sweep_points, rules.first_play_sweep_points, rules.last_play_sweep_points)
    bonus = majority_bonus(rules, result.card_counts)
    s0, s1 = (
        points + sum(n * w for n, w in zip(sweeps, worth, strict=True)) + extra
        for points, sweeps, extra in zip(result.card_points, result.sweeps, bonus, strict=True)
    )
    return s0, s1


def majority_bonus(rules: Rules, counts: tuple[int, int]) -> tuple[int, int]:
    """The ``majority_bonus``: all to a side with over 26 cards, half each at 26-26."""
    bonus = rules.majority_bonus
    if counts[0] > HALF_PACK:
        return bonus, 0
    if counts[1] > HALF_PACK:
        return 0, bonus
    if counts == (HALF_PACK, HALF_PACK):
        return bonus // 2, bonus // 2
    return 0, 0


class Scoresheet(SheetState):
    """The bazzi ledger of a match: running lead, bazzis won, and who deals next."""

    STATE = ("dealer", "lead", "bazzis")

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.dealer = first_dealer
        self.lead = 0
        self.bazzis = [0, 0]

    @property
    def complete(self) -> bool:
        return sum(self.bazzis) >= self.rules.bazzis

    def next_context(self) -> DealContext:
        return DealContext(self.dealer, self.lead)

    def add(self, result: DealResult) -> dict[str, Any]:
        """Score a deal; returns its replay output (spec section 15, 16.4.11)."""
        rules = self.rules
        out: dict[str, Any] = {"dealer": result.dealer, "bidder": result.bidder, "bid": result.bid}
        if result.void:
            return {**out, "card_points": [0, 0], "sweeps": [[0, 0, 0], [0, 0, 0]],
                    "score": [0, 0], "lead": self.lead, "bazzi": None, "reason": None}
        score = deal_score(rules, result)
        judged = score if rules.under_nine_counts == "score" else result.card_points
        moved = self.lead + score[0] - score[1]
        winner: int | None = None
        reason: str | None = None
        under = [team for team in (0, 1) if judged[team] < NINE]
        if under:
            winner, reason, self.lead = 1 - under[0], "under9", 0
        else:
            self.lead = moved
            if abs(moved) >= rules.bazzi_target:
                winner, reason = (0 if moved > 0 else 1), "lead"
                carried = moved - rules.bazzi_target if moved > 0 else moved + rules.bazzi_target
                self.lead = carried if rules.bazzi_overflow == "carry" else 0
        if winner is not None:
            self.bazzis[winner] += 1
        self.dealer = self._next_dealer(result.dealer, moved, ended=winner is not None)
        return {
            **out,
            "card_points": list(result.card_points),
            "sweeps": [list(s) for s in result.sweeps],
            "score": list(score),
            "lead": self.lead,
            "bazzi": None if winner is None else rules.team_name(winner),
            "reason": reason,
        }

    def _next_dealer(self, dealer: int, lead: int, *, ended: bool) -> int:
        """Spec section 11: the dealer stays unless their side is ahead; after a bazzi, partners."""
        rules = self.rules
        if rules.dealer_rotation == "simple":
            return rules.next_seat(dealer)
        ahead = lead > 0 if rules.team(dealer) == 0 else lead < 0
        seat = rules.next_seat(dealer) if ahead else dealer
        if not ended:
            return seat
        partner = rules.partner(seat)
        return dealer if partner is None else partner

    def settlement(self) -> list[int]:
        """Each seat's own side's bazzis minus the other side's (completed bazzis only)."""
        diff = self.bazzis[0] - self.bazzis[1]
        return [diff if self.rules.team(seat) == 0 else -diff for seat in range(self.rules.players)]

    def report(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "sheet": {"bazzis": list(self.bazzis), "lead": self.lead},
            "settlement": self.settlement(),
        }
