"""A table's beats: when the group's message, and the panels of the players who wait, show it.

A beat is a trick complete (a seat that acted since the last beat is to act again), the
play's start, or a step aside from the play and back (a Preferans claim shows the claimer's
hand; its refusal): the group's message shows it. The bidding and what follows it until the play
(bids, talon, discard, whists) is shown there once, with the first lead. A deal's end is shown
there at once, and on the panels of those who sit out (who had nothing to do in its play, or
have no cards in the next deal); a player with cards sees the new deal with his first turn in
it (a finished deal's analysis button may wait too: it stays valid). A game's start, or a
table not in play (a lobby, a pause, an ended game, a scoresheet being entered) is everyone's
beat: every panel shows it.
Between beats only the panels of the players who act change (their buttons come; they go once
the round is complete: the trick, the round of bids, the phase, or for the player who acts
after the next round's leader at his own turn: ``lingers``); a waiting player's panel waits
for everyone's beat or his own next turn (bot/telegram/sending/slots.py). So a table spends its
calls by the game's rhythm, not by the clock: at any pace a card costs its player's turn, a
trick one edit of the group's message and one of each panel whose buttons went (but the next
leader's and his follower's: their turns show it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bot.service.tables import Table

PLAY = "play"  # the phase of tricks, in every game


class Beat(enum.Enum):
    ROUND = enum.auto()  # the group's message shows the table
    DEAL = enum.auto()  # ... and so do the panels of the players with no cards in the new deal
    EVERYONE = enum.auto()  # every message does


@dataclass
class _Round:
    deal: int  # the deal's number
    phase: str
    version: int  # the match's version when last drawn
    to_act: frozenset[int]  # the seats to act then
    # the seats that acted since the last beat, in their order
    acted: list[int] = field(default_factory=list)
    complete: bool = False  # a round is complete, its next not yet begun
    # then: the seat to act after the next round's leader (by the order of the round before),
    # whose buttons that went wait for its turn
    follows: int | None = None
    # the seats whose player had a turn in the play (a seat's cards played by another player,
    # an open whist's passer, or the 4-player dealer, have none)
    played: set[int] = field(default_factory=set)


class Rhythm:
    """The beats of this process's tables."""

    def __init__(self) -> None:
        self._rounds: dict[int, _Round] = {}
        self._played: dict[int, set[int]] = {}  # table -> ``_Round.played`` of its last deal

    def beat(self, table: Table) -> Beat | None:
        """The beat the table's drawing now is, if it is one (see the module)."""
        match = table.match
        state = None if match is None else match.state
        if (match is None or state is None or state.finished or table.keeps_score
                or table.status != "playing"):
            self._rounds.pop(table.id, None)
            return Beat.EVERYONE
        deal, to_act = match.deal_count, frozenset(state.to_act)
        players = {state.controller(seat) for seat in to_act} if state.phase == PLAY else set()
        last = self._rounds.get(table.id)
        if last is None:
            self._rounds[table.id] = _Round(deal, state.phase, match.version, to_act,
                                            played=players)
            return Beat.EVERYONE
        if last.deal != deal or table.ended is not None:
            # (a deal's end: the group's message shows it at once, a player his next hand with
            # his first turn in it; the next deal's first action is a step of its first round)
            if last.deal != deal:
                self._played[table.id] = last.played
            self._rounds[table.id] = _Round(deal, state.phase, match.version, to_act,
                                            played=players)
            return Beat.DEAL
        last.played |= players
        if state.phase != last.phase:
            # (a phase's end completes its round)
            self._rounds[table.id] = _Round(deal, state.phase, match.version, to_act,
                                            played=last.played, complete=True)
            # the play's start, and a step aside from it and back (a claim being answered)
            return Beat.ROUND if PLAY in (state.phase, last.phase) else None
        if match.version == last.version:
            return None
        last.acted += sorted(last.to_act - set(last.acted))
        last.version, last.to_act = match.version, to_act
        last.complete, last.follows = False, None
        if not to_act & set(last.acted):
            return None
        order, last.acted, last.complete = last.acted, [], True
        if len(to_act) == 1 and (leader := next(iter(to_act))) in order:
            last.follows = order[(order.index(leader) + 1) % len(order)]
        return Beat.ROUND if state.phase == PLAY else None

    def lingers(self, table: Table, beat: Beat | None, seat: int) -> bool:
        """Whether the seat's buttons that go (once its player acted) may wait: in a deal, until
        the round (the trick, the round of bids) is complete, or, for the seat that acts after
        the next round's leader, until its turn (one action away)."""
        last = self._rounds.get(table.id)
        if last is None or beat not in (None, Beat.ROUND):
            return False
        return not last.complete or last.follows == seat

    def sits_out(self, table: Table, seat: int) -> bool:
        """At a deal's end: the seat had nothing to do in the play of the deal that ended (an
        open whist's passer, the 4-player Preferans dealer) or has no cards in the new deal
        (the next dealer): its panel changes at a deal's end, not at its turn (it has none)."""
        state = None if table.match is None else table.match.state
        return (state is None or not state.view(seat).get("hand")
                or seat not in self._played.get(table.id, {seat}))

    def forget(self, table_id: int) -> None:
        """The table's next drawing is a beat (another process drew it since)."""
        self._rounds.pop(table_id, None)
        self._played.pop(table_id, None)
