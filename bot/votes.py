"""Votes of a table's players: ending the game early (/leave) or abandoning it (/abort).

A vote lives in memory with its message; after a restart its buttons answer
that it expired and the player asks again.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

_ids = itertools.count(1)


@dataclass(eq=False)
class Vote:
    table_id: int
    kind: str  # "leave" or "abort"
    initiator: int
    voters: frozenset[int]  # who must agree (the other seated players)
    on_passed: Callable[[], Awaitable[None]]
    id: int = field(default_factory=lambda: next(_ids))
    agreed: set[int] = field(default_factory=set)

    @property
    def passed(self) -> bool:
        return self.voters <= self.agreed


class Votes:
    def __init__(self) -> None:
        self._open: dict[int, Vote] = {}  # table id -> its open vote

    def open(self, vote: Vote) -> Vote:
        self._open[vote.table_id] = vote
        return vote

    def get(self, table_id: int, vote_id: int) -> Vote | None:
        vote = self._open.get(table_id)
        return vote if vote is not None and vote.id == vote_id else None

    def current(self, table_id: int) -> Vote | None:
        return self._open.get(table_id)

    def close(self, table_id: int) -> None:
        self._open.pop(table_id, None)
