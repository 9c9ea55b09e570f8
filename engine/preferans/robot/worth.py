"""What a deal's outcome is worth to each seat, in whists: the deal's entries alone,
settled as the game would settle them (spec sections 10 and 12), the help rule aside.

The robot's aim is this figure: the tricks the double-dummy solver finds become
pool, mountain and whists, and those become one balance per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.cards import Card, Suit
from engine.preferans.bids import MISER, level
from engine.preferans.deal_entries import deal_entries
from engine.preferans.raspasy_states import raspasy_cost
from engine.preferans.result import DealResult
from engine.preferans.robot.knowledge import Knowledge
from engine.preferans.rules import Rules
from engine.preferans.settlement import settle
from engine.preferans.whisting import Whisting


def balances(rules: Rules, result: DealResult, raspasy_cost: int) -> list[Fraction]:
    """Each seat's balance from this deal alone, in whists (pool credits taken whole)."""
    e = deal_entries(rules, result, raspasy_cost)
    pool = [0] * result.players
    for seat, points, _reason in e.credits:
        pool[seat] += points
    exact = rules if rules.settlement_rounding == "exact" else rules.replace(
        settlement_rounding="exact")
    return settle(exact, pool, e.entries["mountain"], e.entries["whists"])


NO_TALON = (Card(7, Suit.S), Card(8, Suit.S))  # raspasy scoring never looks at the talon


class Worth:
    """Balances of hypothetical outcomes of the deal the seat is in."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.rules = k.rules
        self.cost = raspasy_cost(k.rules, k.view["raspasy_state"])
        self.cache: dict[tuple, list[Fraction]] = {}

    def balances(self, result: DealResult) -> list[Fraction]:
        return balances(self.rules, result, self.cost)

    def _result(self, talon: Sequence[Card], **fields) -> DealResult:
        k = self.k
        return DealResult(players=k.rules.players, dealer=k.view["dealer"],
                          active=tuple(k.active), talon=(str(talon[0]), str(talon[1])),
                          raspasy_state=k.view["raspasy_state"], **fields)

    def contract(self, declarer: int, bid: str, contract: str, tricks: Sequence[int],
                 calls: Sequence[tuple[int, str]], talon: Sequence[Card] = ()) -> list[Fraction]:
        """A trick contract with these whist calls (``tricks`` per seat; unplayed when
        no one whists, or a half-whist stands)."""
        key = ("game", declarer, bid, contract, tuple(tricks), tuple(calls), tuple(talon))
        if key not in self.cache:
            self.cache[key] = self.balances(self._contract(declarer, bid, contract, tricks,
                                                           calls, talon))
        return self.cache[key]

    def _contract(self, declarer: int, bid: str, contract: str, tricks: Sequence[int],
                  calls: Sequence[tuple[int, str]], talon: Sequence[Card]) -> DealResult:
        k = self.k
        i = k.active.index(declarer)
        first, second = k.active[(i + 1) % 3], k.active[(i + 2) % 3]
        checked = level(contract) == 10 and k.rules.ten_mode == "checked"
        w = Whisting(first, second, level(contract))
        for seat, call in calls:
            w.apply(seat, call)
        played = checked or bool(w.whisters)
        return self._result(
            talon or k.talon,
            kind="game", tricks=tuple(tricks) if played else (0,) * k.rules.players,
            declarer=declarer, bid=bid, contract=contract, checked=checked,
            first_defender=first, second_defender=second, calls=tuple(w.calls),
            whisters=w.whisters, halfwhister=w.halfwhister, returned=w.returned,
            open=k.view["open"] if len(w.whisters) == 1 else None, played=played)

    def miser(self, declarer: int, tricks: Sequence[int],
              talon: Sequence[Card] = ()) -> list[Fraction]:
        key = ("miser", declarer, tuple(tricks), tuple(talon))
        if key not in self.cache:
            i = self.k.active.index(declarer)
            self.cache[key] = self.balances(self._result(
                talon or self.k.talon, kind="miser", tricks=tuple(tricks), declarer=declarer,
                bid=MISER, contract=MISER, first_defender=self.k.active[(i + 1) % 3],
                second_defender=self.k.active[(i + 2) % 3], played=True))
        return self.cache[key]

    def walkaway(self, declarer: int, bid: str) -> list[Fraction]:
        return self.balances(self._result(
            self.k.talon, kind="walkaway", tricks=(0,) * self.k.rules.players,
            declarer=declarer, bid=bid, contract=bid))

    def raspasy(self, tricks: Sequence[int]) -> list[Fraction]:
        key = ("raspasy", tuple(tricks))
        if key not in self.cache:
            self.cache[key] = self.balances(self._result(
                NO_TALON, kind="raspasy", tricks=tuple(tricks), played=True))
        return self.cache[key]
