"""Asking a table's players to agree: ending or abandoning the game, pausing, time settings,
a new player, corrections of entered deals.

A vote is stored (``storage.votes``) with what passes (its ``kind`` and
``params``, plain data), so that its buttons work after a restart. A table has
at most one open vote: asking another while one is open is refused. What a
passed vote does is ``bot.service.decisions``'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.service import events
from bot.service.outcome import Outcome
from bot.service.tables import Table
from storage.errors import VoteOpen
from storage.rows import VoteRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def ask(svc: Services, table: Table, initiator: int, kind: str,
              params: Mapping[str, Any], out: Outcome,
              voters: frozenset[int] | None = None) -> bool | None:
    """Put the question of ``kind`` to ``voters`` (default: the other present players).
    True: nobody had to be asked (the caller does it now); False: asked; None: refused,
    another vote is open (``out`` says so). Called with the table's lock held."""
    if voters is None:
        voters = table.present_users(besides=frozenset({initiator}))
    if not voters:
        return True
    try:
        vote = await svc.store.votes.open_vote(table.id, kind, initiator, voters, params)
    except VoteOpen:
        out.refuse("vote_open")
        return None
    out.tell(events.VoteAsked(table, vote, svc.users.name(initiator) or "?"))
    return False


def pointless(table: Table, vote: VoteRow) -> bool:
    """A correction asked about the sheet as it was before another change can do nothing."""
    return (vote.kind == "correct" and table.match is not None
            and vote.params.get("version") != table.match.version)


async def void_open(svc: Services, table: Table, out: Outcome, why: str = "game_over") -> None:
    """The table's open vote no longer applies (``why``: the game ended, the sheet changed)."""
    vote = await svc.store.votes.open_of(table.id)
    if vote is not None:
        out.tell(events.VoteEnded(table, await svc.store.votes.close(vote.id, "void"),
                                  void=why))


async def void_pointless(svc: Services, table: Table, out: Outcome) -> None:
    """After a change of the sheet: the open vote lapses if it can do nothing now."""
    vote = await svc.store.votes.open_of(table.id)
    if vote is not None and pointless(table, vote):
        await void_open(svc, table, out, "sheet_changed")
