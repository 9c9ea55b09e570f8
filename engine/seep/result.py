"""What the scoresheet hands a Seep deal, and what a finished deal hands back."""

from __future__ import annotations

from dataclasses import dataclass

Sweeps = tuple[int, int, int]  # counted sweeps by kind: plays 2-47, play 1, play 48 (spec 16.4.2)


@dataclass(frozen=True)
class DealContext:
    """Decided before a deal: its dealer, and the running lead (positive: NS, or seat 0, ahead)."""

    dealer: int
    lead: int = 0


@dataclass(frozen=True)
class DealResult:
    """A finished deal, per team (NS, EW; with two players seat 0, seat 1). ``bid`` None: void."""

    dealer: int
    bidder: int
    bid: int | None = None
    card_points: tuple[int, int] = (0, 0)
    card_counts: tuple[int, int] = (0, 0)
    sweeps: tuple[Sweeps, Sweeps] = ((0, 0, 0), (0, 0, 0))

    @property
    def void(self) -> bool:
        return self.bid is None
