"""The Preferans bidding ladder (spec 4.1): 6♠ … 8NT, misère, 9♠ … 10NT."""

from __future__ import annotations

from engine.cards import Suit

STRAINS = ("S", "C", "D", "H", "NT")
MISER = "miser"
MISER_RANK = 15
LADDER: tuple[str, ...] = tuple(
    [f"{level}{strain}" for level in (6, 7, 8) for strain in STRAINS]
    + [MISER]
    + [f"{level}{strain}" for level in (9, 10) for strain in STRAINS]
)
_RANKS = {text: rank for rank, text in enumerate(LADDER)}
TRICK_BIDS = tuple(b for b in LADDER if b != MISER)

# Contract cost c(L), the defenders' obligation O(L).
COST = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
MISER_COST = 10
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}


def bid_rank(text: str) -> int:
    """Rank on the ladder (6♠ = 0 … 8NT = 14, misère 15, 9♠ = 16 … 10NT = 25)."""
    try:
        return _RANKS[normalize(text)]
    except KeyError:
        raise ValueError(f"'{text}' is not a bid (6S … 10NT or miser)") from None


def normalize(text: str) -> str:
    t = text.strip().upper()
    return MISER if t in ("MISER", "MISERE") else t


def level(bid: str) -> int:
    """The level 6-10 of a trick bid."""
    return int(bid[:-2] if bid.endswith("NT") else bid[:-1])


def trump(contract: str) -> Suit | None:
    """The trump suit of a trick contract; None for no trump and misère."""
    if contract == MISER or contract.endswith("NT"):
        return None
    return Suit[contract[-1]]


def next_trick_bid(rank: int | None, min_rank: int) -> int | None:
    """The next trick bid above ``rank`` (misère skipped); None above 10NT."""
    if rank is None:
        return min_rank
    nxt = rank + 1
    if nxt == MISER_RANK:
        nxt += 1
    return nxt if nxt < len(LADDER) else None


def display(bid: str) -> str:
    """A bid or contract with a suit symbol: ``7♥``, ``6NT``, ``misère``."""
    if bid == MISER:
        return "misère"
    if bid.endswith("NT"):
        return bid
    return bid[:-1] + Suit[bid[-1]].symbol
