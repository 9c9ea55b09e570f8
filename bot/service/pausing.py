"""/pause and /resume: by the players' vote. A paused table takes no moves and runs no
timers; resuming gives the player to act a fresh turn time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import loading, votes
from bot.service.outcome import Outcome
from bot.service.substitutes import set_paused
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def request(svc: Services, chat_id: int, thread_id: int, user: UserRow,
                  paused: bool) -> Outcome:
    """A player asks to pause (or resume) the game; the others vote."""
    table = await loading.topic_table(svc, chat_id, thread_id)
    if table is None or table.status == "lobby":
        return Outcome().refuse("no_game_here")
    async with table.lock:
        if table.seat_of(user.id) is None:
            return Outcome().refuse("players_only")
        if paused and table.status == "paused":
            return Outcome().refuse("paused_already")
        if not paused and table.status == "playing":
            return Outcome().refuse("not_paused")
        out = Outcome()
        if await votes.ask(svc, table, user.id, "pause", {"paused": paused}, out):
            await set_paused(svc, table, paused, "asked" if paused else "resumed", out)
        return out
