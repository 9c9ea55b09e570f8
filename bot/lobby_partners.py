"""Partnerships in the lobby (Seep, Joker in pairs): who plays with whom, and the button
that changes it.

Partners are decided by seats (the game's ``teams``: seats 0+2 against 1+3).
Each press moves the players of seats 1-3 round by one, so that the first
seat's partner is each of the others in turn; three presses bring the table
back to where it was.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from bot.answers import OK, Answer
from bot.callbacks import pack
from bot.i18n import Translate
from bot.render.screen import Button
from bot.tables import Table

if TYPE_CHECKING:
    from bot.hub import Hub

OP = "partners"


def teams(table: Table) -> list[list[int]]:
    ui = table.ui
    return ui.teams(dict(table.row.rules)) if ui.teams is not None else []


def lines(hub: Hub, table: Table, tr: Translate) -> list[str]:
    """"Partners: Ann & Cid against Bob & Dan" (an empty seat shows as "…")."""
    sides = teams(table)
    if not sides:
        return []

    def name(seat: int) -> str:
        user = hub.users.get(table.row.user_of(seat) or 0)
        return escape(user.display_name) if user else "…"

    one, other = (" &amp; ".join(name(s) for s in side) for side in sides)
    return [tr("Partners: {one} against {other}", one=one, other=other)]


def buttons(table: Table, tr: Translate) -> list[tuple[Button, ...]]:
    if not teams(table):
        return []
    return [(Button(tr("🤝 Change partners"), pack("l", table.id, OP)),)]


async def rotate(hub: Hub, table: Table, tr: Translate) -> Answer:
    """Seat the players of seats 1, 2, 3 at seats 3, 1, 2 (the lock is held)."""
    if not teams(table):
        return Answer.refuse(tr("That button is not one of your choices."))
    moves = {s.user_id: (s.seat - 2) % 3 + 1 for s in table.row.seats
             if s.seat > 0 and s.user_id is not None}
    for user_id in moves:
        await hub.storage.unseat_user(table.id, user_id)
    row = table.row
    for user_id, seat in moves.items():
        row = await hub.storage.seat_user(table.id, user_id, seat)
    hub.update_row(table, row)
    hub.redraw(table)
    return OK
