"""What a finished Preferans deal hands to scoring, and what scoring hands back."""

from __future__ import annotations

from dataclasses import dataclass

from engine.preferans.bids import MISER, level


@dataclass(frozen=True)
class DealContext:
    """What the scoresheet decides before a deal: dealer and the raspasy state."""

    dealer: int
    min_bid: str = "6S"
    raspasy_state: int = 1


@dataclass(frozen=True)
class DealResult:
    """A finished deal, everything scoring needs (spec section 10).

    ``kind``: ``game`` (every trick contract, the checked ten included, played
    or not), ``miser``, ``raspasy``, ``walkaway``. ``tricks`` has one count per
    seat (the 4-player dealer's talon tricks in raspasy, otherwise 0) and is
    all zeros when the cards were not played.
    """

    kind: str
    players: int
    dealer: int
    active: tuple[int, ...]  # the three active seats: first, second, third hand
    tricks: tuple[int, ...]
    talon: tuple[str, str]
    raspasy_state: int = 1
    declarer: int | None = None
    bid: str | None = None  # the winning bid
    contract: str | None = None  # the declared contract; the winning bid on a walk-away
    checked: bool = False  # a checked ten: no whist calls
    first_defender: int | None = None
    second_defender: int | None = None
    calls: tuple[tuple[int, str], ...] = ()  # whist calls in order
    whisters: tuple[int, ...] = ()  # who whists at the end (one or two)
    halfwhister: int | None = None  # a half-whist that stood
    returned: bool = False  # the lone whister returned the whist after a half-whist
    open: bool | None = None  # the lone whister's choice
    played: bool = False  # the cards were played out

    @property
    def level(self) -> int | None:
        if self.contract is None or self.contract == MISER:
            return None
        return level(self.contract)

    @property
    def defenders(self) -> tuple[int, ...]:
        return tuple(s for s in (self.first_defender, self.second_defender) if s is not None)

    @property
    def passers(self) -> tuple[int, ...]:
        """Defenders who neither whist nor stand on a half-whist."""
        return tuple(
            s for s in self.defenders if s not in self.whisters and s != self.halfwhister
        )


def empty_entries(players: int) -> dict[str, list]:
    """A deal's entries with nothing written: pool, mountain, whists[writer][target]."""
    return {
        "pool": [0] * players,
        "mountain": [0] * players,
        "whists": [[0] * players for _ in range(players)],
    }
