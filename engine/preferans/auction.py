"""The Preferans auction (spec section 4): the ladder, "here", misère as a first call."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.base import IllegalAction, MalformedAction
from engine.preferans.bids import LADDER, MISER, MISER_RANK, bid_rank, display, next_trick_bid
from engine.preferans.rules import Rules

PASS = "pass"
HERE = "here"


@dataclass
class Auction:
    """Who has bid what; ``active`` lists the three active seats from first hand."""

    rules: Rules
    active: tuple[int, ...]
    dealer: int
    min_rank: int
    players: int
    turn: int = 0
    high: int | None = None  # rank of the highest bid
    holder: int | None = None  # who holds it (by a bid or by "here")
    passed: set[int] = field(default_factory=set)
    spoke: set[int] = field(default_factory=set)
    miser_bidders: set[int] = field(default_factory=set)
    calls: list[tuple[int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.turn = self.active[0]

    @property
    def remaining(self) -> list[int]:
        return [s for s in self.active if s not in self.passed]

    @property
    def over(self) -> bool:
        left = self.remaining
        return not left or (len(left) == 1 and self.holder == left[0])

    @property
    def winning_bid(self) -> str | None:
        return None if self.high is None else LADDER[self.high]

    def _senior(self, a: int, b: int) -> int:
        return a if self.active.index(a) < self.active.index(b) else b

    def _behind_passer(self, seat: int) -> bool:
        """Seed 004's literal rule: the right-hand neighbour passed or sits on the talon."""
        right = (seat - 1) % self.players
        return right in self.passed or (self.players == 4 and right == self.dealer)

    def _literal_restricted(self, seat: int) -> bool:
        """Under ``seed_literal``: may this seat only say "here" or pass?"""
        if self.high is None or self.high == MISER_RANK or self.holder == seat:
            return False
        if not self._behind_passer(seat):
            return False
        left = self.remaining
        if len(left) == 2 and all(self._behind_passer(s) for s in left):
            # The 4-player deadlock goes to the senior: the junior must raise or pass.
            return seat == self._senior(*left)
        return True

    def _may_say_here(self, seat: int) -> bool:
        rule = self.rules.here_rule
        if rule == "off" or self.high is None or self.high == MISER_RANK:
            return False
        if self.holder == seat or seat in self.miser_bidders:
            return False
        if rule == "seed_literal":
            return self._literal_restricted(seat)
        left = self.remaining
        return len(left) == 2 and self.holder in left and self._senior(*left) == seat

    def _trick_bids(self, seat: int) -> list[int]:
        if self.rules.here_rule == "seed_literal" and self._literal_restricted(seat):
            return []
        outbid_miser = (seat in self.miser_bidders and self.high is not None
                        and self.high > MISER_RANK)
        if outbid_miser and self.rules.miser_bidder_after_outbid == "pass_only":
            return []
        if self.high is None:
            return [self.min_rank]
        if self.rules.bid_jumps:
            return [r for r in range(self.high + 1, len(LADDER)) if r != MISER_RANK]
        nxt = next_trick_bid(self.high, self.min_rank)
        return [] if nxt is None else [nxt]

    def _may_bid_miser(self, seat: int) -> bool:
        if seat in self.spoke or (self.high is not None and self.high >= MISER_RANK):
            return False
        return not (self.rules.here_rule == "seed_literal" and self._literal_restricted(seat))

    def legal(self, seat: int) -> list[str]:
        """Every call ``seat`` may make now (it must be his turn)."""
        calls = [PASS]
        if self._may_say_here(seat):
            calls.append(HERE)
        calls.extend(LADDER[r] for r in self._trick_bids(seat))
        if self._may_bid_miser(seat):
            calls.append(MISER)
        return calls

    def check(self, seat: int, call: str) -> str:
        """The canonical call, or IllegalAction/MalformedAction explaining why not."""
        text = call.strip()
        canon = text.lower() if text.lower() in (PASS, HERE, MISER, "misere") else text.upper()
        if canon == "misere":
            canon = MISER
        if canon not in (PASS, HERE):
            try:
                bid_rank(canon)
            except ValueError as exc:
                raise MalformedAction("bad_bid", str(exc)) from None
        if canon in self.legal(seat):
            return canon
        raise IllegalAction("illegal_bid", self._why(seat, canon), bid=canon)

    def _why(self, seat: int, call: str) -> str:
        if call == HERE:
            return "you cannot say “here” now"
        if call == MISER:
            if seat in self.spoke:
                return "misère may only be your first call"
            return "misère cannot outbid a nine or ten"
        bids = self._trick_bids(seat)
        if not bids:
            return "you may only pass now" if not self._may_say_here(seat) else (
                "you may only say “here” or pass")
        if self.high is None:
            return f"the auction opens at {display(LADDER[self.min_rank])}"
        if self.rules.bid_jumps:
            return f"bid higher than {display(LADDER[self.high])}"
        return f"the next bid is {display(LADDER[bids[0]])}"

    def apply(self, seat: int, call: str) -> None:
        """Record a call already checked by ``check``."""
        self.calls.append((seat, call))
        self.spoke.add(seat)
        if call == PASS:
            self.passed.add(seat)
        elif call == HERE:
            self.holder = seat
        else:
            self.high = bid_rank(call)
            self.holder = seat
            if call == MISER:
                self.miser_bidders.add(seat)
        if not self.over:
            self.turn = self._next(seat)

    def _next(self, seat: int) -> int:
        i = self.active.index(seat)
        for step in range(1, 4):
            nxt = self.active[(i + step) % 3]
            if nxt not in self.passed:
                return nxt
        raise AssertionError("no player left in the auction")
