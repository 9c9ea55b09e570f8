"""What the scoresheet tells a deal before it starts, and what a finished deal hands back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DealContext:
    """A deal's place in the game: its number and pulka (both from 1), size, dealer.

    ``trump_mode`` is ``turn_up``, ``chooser`` or ``no_trump``; ``passes``
    counts each seat's zero bids in the game so far (for ``pass_limit``).
    """

    number: int
    pulka: int
    cards: int
    dealer: int
    trump_mode: str
    passes: tuple[int, ...]


@dataclass(frozen=True)
class DealResult:
    """A finished deal: ``trump`` is a suit letter or ``NT``; one bid and trick count per seat."""

    number: int
    pulka: int
    cards: int
    dealer: int
    trump: str
    bids: tuple[int, ...]
    tricks: tuple[int, ...]


def deal_output(
    dealer: int, cards: int, trump: str | None, bids: list[int | None], tricks: list[int],
    points: list[int],
) -> dict[str, Any]:
    """A deal's entry in the replay output (spec sections 17 and 18.7.8)."""
    return {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks,
            "points": points}
