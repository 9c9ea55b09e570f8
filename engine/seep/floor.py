"""The floor (spec section 5): loose cards and houses, and the subset arithmetic on them.

Sets of loose cards are bit masks over ``Floor.loose`` (kept in canonical
order); they are only meaningful until the floor changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.seep.values import display, ordered, total, value

HOUSE_VALUES = range(9, 14)
MAX_SUM = 13


@dataclass
class House:
    """A house of value ``value``: groups of cards each summing to it, and its owners."""

    value: int
    groups: list[tuple[Card, ...]]
    owners: set[int] = field(default_factory=set)

    @property
    def cemented(self) -> bool:
        return len(self.groups) > 1

    @property
    def cards(self) -> list[Card]:
        return [c for g in self.groups for c in g]

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "groups": [[str(c) for c in g] for g in self.groups],
            "owners": sorted(self.owners),
            "cemented": self.cemented,
        }


class Floor:
    """Loose cards and at most one house per value."""

    def __init__(self, loose: Iterable[Card] = (), houses: Iterable[House] = ()) -> None:
        self.loose: list[Card] = ordered(loose)
        self.houses: dict[int, House] = {h.value: h for h in houses}
        self._sums: dict[int, list[int]] = {}

    @property
    def empty(self) -> bool:
        return not self.loose and not self.houses

    @property
    def full(self) -> int:
        """The mask of every loose card."""
        return (1 << len(self.loose)) - 1

    def mask(self, cards: Iterable[Card]) -> int:
        bits = 0
        for card in cards:
            bits |= 1 << self.loose.index(card)
        return bits

    def cards(self, mask: int) -> frozenset[Card]:
        return frozenset(c for i, c in enumerate(self.loose) if mask >> i & 1)

    def house_of(self, card: Card) -> House | None:
        """The house a card lies in, if any."""
        return next((h for h in self.houses.values() if card in h.cards), None)

    def sums(self, target: int) -> list[int]:
        """Masks of every set of loose cards whose values sum to ``target``."""
        if target not in self._sums:
            self._sums[target] = _subsets([value(c) for c in self.loose], target)
        return self._sums[target]

    def singles(self, target: int, free: int) -> int:
        """The mask of the loose single cards of value ``target`` within ``free``."""
        return sum(1 << i for i, c in enumerate(self.loose) if free >> i & 1 and value(c) == target)

    # Changes (each invalidates the masks).

    def take_loose(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self.loose.remove(card)
        self._sums.clear()

    def add_loose(self, card: Card) -> None:
        self.loose = ordered([*self.loose, card])
        self._sums.clear()

    def put_house(self, house: House) -> None:
        self.houses[house.value] = house
        self.houses = dict(sorted(self.houses.items()))

    def as_dict(self) -> dict[str, Any]:
        return {
            "loose": [str(c) for c in self.loose],
            "houses": [h.as_dict() for h in self.houses.values()],
        }


def _subsets(values: list[int], target: int) -> list[int]:
    """Masks of the index sets of ``values`` (descending) that sum to ``target``."""
    out: list[int] = []
    rest = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        rest[i] = rest[i + 1] + values[i]

    def extend(i: int, need: int, mask: int) -> None:
        if need == 0:
            out.append(mask)
            return
        for j in range(i, len(values)):
            if rest[j] < need:
                return
            if values[j] <= need:
                extend(j + 1, need - values[j], mask | 1 << j)

    if target > 0:
        extend(0, target, 0)
    return out


def unions(groups: list[int]) -> set[int]:
    """The card sets covered by every family of pairwise disjoint groups (the empty one too)."""
    found = {0}
    for g in groups:
        found |= {u | g for u in found if not u & g}
    return found


def maximal(found: Iterable[int], groups: list[int]) -> list[int]:
    """The sets that leave no further group among the cards they do not cover."""
    return [u for u in found if all(g & u for g in groups)]


def partition(cards: Iterable[Card], target: int) -> list[tuple[Card, ...]] | None:
    """A canonical split of ``cards`` into groups summing to ``target``; None if there is none.

    The highest card opens each group; its companions are the first fitting
    cards in canonical order, so the same set always gives the same groups.
    """
    rest = ordered(cards)
    if not rest:
        return []
    head, others = rest[0], rest[1:]
    need = target - value(head)
    if need < 0:
        return None
    vals = [value(c) for c in others]
    for mask in _subsets(vals, need) if need else [0]:
        group = (head, *[c for i, c in enumerate(others) if mask >> i & 1])
        tail = partition([c for i, c in enumerate(others) if not mask >> i & 1], target)
        if tail is not None:
            return [group, *tail]
    return None


def group_sum_error(groups: Iterable[Iterable[Card]], target: int) -> str | None:
    """Why the groups do not each sum to ``target``; None when they do."""
    for group in groups:
        if total(group) != target:
            return f"{display(group)} sums to {total(group)}, not {target}"
    return None
