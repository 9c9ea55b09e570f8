"""Whist calls after a trick contract (spec 6.3): whist, pass, half-whist and its return."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.base import IllegalAction, MalformedAction

WHIST = "whist"
PASS = "pass"
HALF = "halfwhist"
CALLS = (WHIST, PASS, HALF)


@dataclass
class Whisting:
    """The defenders' calls in order; ``turn`` is None once the outcome is settled."""

    first: int
    second: int
    level: int
    forced: bool = False  # "Stalingrad": both defenders must whist
    calls: list[tuple[int, str]] = field(default_factory=list)
    turn: int | None = None

    def __post_init__(self) -> None:
        self.turn = self.first

    def _said(self, seat: int) -> list[str]:
        return [c for s, c in self.calls if s == seat]

    def legal(self, seat: int) -> list[str]:
        if seat != self.turn:
            return []
        if self.forced:
            return [WHIST]
        if seat == self.first:
            return [WHIST, PASS]
        said_first = self._said(self.first)
        if said_first == [PASS, WHIST]:
            return [PASS]  # the half-whister after a returned whist
        if said_first == [PASS] and self.level in (6, 7):
            return [WHIST, PASS, HALF]
        return [WHIST, PASS]

    def check(self, seat: int, call: str) -> str:
        canon = call.strip().lower()
        if canon not in CALLS:
            raise MalformedAction("bad_whist", f"'{call}' is not whist, pass or halfwhist")
        if canon in self.legal(seat):
            return canon
        if self.forced:
            reason = "6♠ must be whisted (Stalingrad)"
        elif canon == HALF:
            reason = "half-whist only after a pass, on a six or a seven"
        else:
            reason = "after a returned whist you can only pass"
        raise IllegalAction("illegal_whist", reason, call=canon)

    def apply(self, seat: int, call: str) -> None:
        self.calls.append((seat, call))
        first, second = self._said(self.first), self._said(self.second)
        if seat == self.first and len(first) == 1:
            self.turn = self.second
        elif first == [PASS] and second == [HALF]:
            self.turn = self.first  # the first defender may return the whist
        elif first == [PASS, WHIST] and second == [HALF]:
            self.turn = self.second  # the half-whister's pass, an action of its own
        else:
            self.turn = None

    @property
    def whisters(self) -> tuple[int, ...]:
        """Who whists at the end: whoever's last call is whist."""
        return tuple(s for s in (self.first, self.second) if self._said(s)[-1:] == [WHIST])

    @property
    def returned(self) -> bool:
        return self._said(self.first) == [PASS, WHIST]

    @property
    def halfwhister(self) -> int | None:
        """The second defender when his half-whist stands (the first passed twice)."""
        if self._said(self.first) == [PASS, PASS] and self._said(self.second) == [HALF]:
            return self.second
        return None
