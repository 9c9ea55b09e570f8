"""/leave and /abort: in a lobby at once; during a game the other players vote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import loading, lobby, play, votes
from bot.service.outcome import Outcome
from bot.service.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services

KINDS = ("leave", "abort")


async def request(svc: Services, chat_id: int, thread_id: int, user: UserRow,
                  kind: str) -> Outcome:
    """``leave``: end the game now with the settlement as it stands; ``abort``: nothing
    counts. A lobby is left (or cancelled) at once."""
    table = await loading.topic_table(svc, chat_id, thread_id)
    if table is None:
        return Outcome().refuse("no_table_here")
    async with table.lock:
        if table.status == "lobby":
            if kind == "leave":
                return await lobby.leave(svc, table, user.id)
            if not lobby.may_manage(table, user.id):
                return Outcome().refuse("creator_only")
            return await lobby.cancel(svc, table)
        seat = table.seat_of(user.id)
        if seat is None and not (table.keeps_score and user.id == table.row.creator_id):
            return Outcome().refuse("players_only")
        out = Outcome()
        # The other present players vote (nobody to ask, e.g. only typed names: at once).
        if await votes.ask(svc, table, user.id, kind, {}, out):
            await end_game(svc, table, kind, out)
        return out


async def end_game(svc: Services, table: Table, kind: str, out: Outcome) -> None:
    """End the game (the table's lock is held): settled as it stands, or abandoned. A game
    stopped before any deal was played to its end is abandoned: there is nothing to settle,
    and a rating won by stopping at once would be farmed."""
    match = table.match
    if kind == "leave" and match is not None and match.played:
        table.row = await svc.store.tables.finish_game(table.id, match.report()["settlement"])
        await play.game_over(svc, table, "stopped", out)
    else:
        table.row = await svc.store.tables.set_status(table.id, "aborted")
        await play.game_over(svc, table, "abandoned", out)
