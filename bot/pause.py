"""/pause and /resume: by the players' vote. A paused table takes no moves and runs no
timers; resuming gives the player to act a fresh turn time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import table_votes
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub


async def set_paused(hub: Hub, table: Table, paused: bool, note: str) -> None:
    """Pause or resume the game and tell the group ``note``; the table's lock is held."""
    table.row = await hub.storage.set_status(table.id, "paused" if paused else "playing")
    await hub.timers.rearm(table, fresh=True)
    hub.outbox.post(table.chat_id, Screen(note))
    state = table.match.state if table.match is not None else None
    waiting = frozenset() if paused or state is None else frozenset(
        u for s in state.to_act if (u := table.user_of(state.controller(s))) is not None)
    hub.redraw(table, notify=waiting)


async def request(hub: Hub, chat_id: int, user: UserRow, paused: bool,
                  tr: Translate) -> str | None:
    """A player asks to pause (or resume) the game; the others vote."""
    table = hub.table_in(chat_id)
    if table is None or table.status == "lobby":
        return tr("No game is being played here.")
    async with table.lock:
        seat = table.seat_of(user.id)
        if seat is None:
            return tr("Only the players of this game can do that.")
        if paused and table.status == "paused":
            return tr("The game is paused already. /resume to go on.")
        if not paused and table.status == "playing":
            return tr("The game is not paused.")
        group_tr = hub.tr_chat(chat_id)
        name = hub.who(table, seat)
        if paused:
            question = group_tr("{name} wants to pause the game.", name=name)
            note = group_tr("⏸ The game is paused: no moves and no timers until /resume.")
        else:
            question = group_tr("{name} wants to go on with the game.", name=name)
            note = group_tr("▶ The game goes on.")
        await table_votes.ask(hub, table, user.id, "pause",
                              question, lambda: set_paused(hub, table, paused, note))
    return None
