"""A table's beats: when the group's message, and the panels of the players who wait, show it.

A beat is a trick or a round of turns complete (a seat that acted since the last beat is to act
again), or a new phase: the group's message shows it. A new deal, or a table not in play (a
lobby, a pause, an ended game, a scoresheet being entered) is everyone's beat: every panel shows
it too. Between beats only the panels of the players who act change (their buttons come, and go
once they acted); a waiting player's panel waits for everyone's beat or his own next turn
(bot/telegram/sending/slots.py). So a table spends its calls by the game's rhythm, not by the
clock: at any pace a card costs its player's turn and its buttons' going, a trick one edit of
the group's message.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bot.service.tables import Table


class Beat(enum.Enum):
    ROUND = enum.auto()  # the group's message shows the table
    EVERYONE = enum.auto()  # every message does


@dataclass
class _Round:
    deal: int  # the deal's number
    phase: str
    version: int  # the match's version when last drawn
    to_act: frozenset[int]  # the seats to act then
    acted: set[int] = field(default_factory=set)  # the seats that acted since the last beat


class Rhythm:
    """The beats of this process's tables."""

    def __init__(self) -> None:
        self._rounds: dict[int, _Round] = {}

    def beat(self, table: Table) -> Beat | None:
        """The beat the table's drawing now is, if it is one (see the module)."""
        match = table.match
        state = None if match is None else match.state
        if (match is None or state is None or state.finished or table.keeps_score
                or table.status != "playing"):
            self._rounds.pop(table.id, None)
            return Beat.EVERYONE
        deal, to_act = match.deal_count, frozenset(state.to_act)
        last = self._rounds.get(table.id)
        if last is None or last.deal != deal or table.ended is not None:
            # (a deal's end shows everyone the result and his next hand: the next deal's first
            # action is a step of its first round)
            self._rounds[table.id] = _Round(deal, state.phase, match.version, to_act)
            return Beat.EVERYONE
        if state.phase != last.phase:
            self._rounds[table.id] = _Round(deal, state.phase, match.version, to_act)
            return Beat.ROUND
        if match.version == last.version:
            return None
        last.acted |= last.to_act
        last.version, last.to_act = match.version, to_act
        if not to_act & last.acted:
            return None
        last.acted = set()
        return Beat.ROUND

    def forget(self, table_id: int) -> None:
        """The table's next drawing is a beat (another process drew it since)."""
        self._rounds.pop(table_id, None)
