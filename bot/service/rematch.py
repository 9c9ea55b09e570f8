"""Play again: the players of a game that ended open a lobby with the same rules and
conventions (and table settings), each seated one seat on, and each confirms with one
press; the game starts when all have.

The final message's button and the lobby's carry the ended table's id (``p:OLD``): the
first press opens the lobby, and every press of either button confirms the presser. Who
has confirmed is stored in the lobby's settings (``REMATCH``), so that the buttons work
after a restart. A player who leaves makes it an ordinary lobby (``lobby.leave``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import loading, lobby, queries
from bot.service.outcome import Outcome, refused
from bot.service.queries import Place
from bot.service.tables import REMATCH, Table, keeps_score
from storage.errors import NotFound, TableExists
from storage.rows import TableRow, UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def press(svc: Services, old_id: int, user: UserRow) -> Outcome:
    """A press of "Play again" (or of the rematch lobby's confirmation) by ``user``."""
    try:
        old = await svc.store.tables.get_table(old_id)
    except NotFound:
        return refused("table_closed")
    if (old.status not in ("finished", "aborted") or old.players is None
            or keeps_score(old.settings)):
        return refused("bad_button")
    if old.seat_of(user.id) is None:
        return refused("players_only")
    if await queries.last_played(svc, Place(old.chat_id, old.thread_id), None) != old.id:
        return refused("rematch_stale")  # a later game ended here: its players, its seating
    table = (await loading.topic_table(svc, old.chat_id, old.thread_id)
             or await _open(svc, old, user))
    if table is None:
        return refused("table_exists_here")
    async with table.lock:
        if table.rematch_of != old_id or table.status != "lobby":
            return refused("table_exists", table=table.id, game=table.game, status=table.status)
        return await confirm(svc, table, user)


def seat_after(old: TableRow, seat: int) -> int:
    """Where the player of ``seat`` sits in the rematch: one seat on, round the table."""
    return (seat + 1) % old.seat_count


async def _open(svc: Services, old: TableRow, user: UserRow) -> Table | None:
    """The rematch lobby with the old game's players seated; None if another table was
    opened in the topic meanwhile (it is then the one the press is about)."""
    settings = {**old.settings, REMATCH: {"of": old.id, "ready": []}}
    try:
        row = await svc.store.tables.create_table(
            old.chat_id, old.game, creator_id=user.id, rules=old.rules,
            seat_count=old.seat_count, settings=settings, thread_id=old.thread_id)
    except TableExists:
        return await loading.topic_table(svc, old.chat_id, old.thread_id)
    table = svc.tables.adopt(row)
    async with table.lock:  # taken at once: nobody can confirm before everyone is seated
        for seat in old.seats:
            if seat.user_id is not None:
                row = await svc.store.tables.seat_user(table.id, seat.user_id,
                                                       seat_after(old, seat.seat))
        table.row = row
    return table


async def confirm(svc: Services, table: Table, user: UserRow) -> Outcome:
    """The user plays again; the last to confirm starts the game (the lock is held)."""
    if table.seat_of(user.id) is None:
        return refused("not_at_table")
    if user.id in table.ready:
        return refused("ready_already")
    ready = sorted(table.ready | {user.id})
    table.row = await svc.store.tables.update_settings(
        table.id, {**table.row.settings, REMATCH: {"of": table.rematch_of, "ready": ready}})
    seated = {s.user_id for s in table.row.seats}
    if len(table.row.seats) == table.row.seat_count and seated <= table.ready:
        return await lobby.start(svc, table)
    return Outcome().redraw(table).done("ready")
