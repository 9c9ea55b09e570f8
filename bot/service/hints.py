"""Hints for learners (issue 34): at a table with the ``hints`` setting (chosen in the
lobby; such a game is not rated, so a rated game never gives one) a player's panel has
"💡": the robot's suggestion for his decision and one line of why (``GameSpec.hint``,
which reads only his view). It is computed in a worker thread and kept with the table
for the match's version it was asked at: his panel shows it until the game moves on.
"""

from __future__ import annotations

import asyncio
import random

from bot.service import play
from bot.service.outcome import Outcome, refused
from bot.service.tables import Table, gives_hints


async def press(table: Table, user_id: int, parts: tuple[str, ...]) -> Outcome:
    """"💡" on a panel: ``parts`` are the version and the seat the player acts for."""
    if not gives_hints(table.row.settings) or table.spec.hint is None:
        return refused("hints_off")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return refused("bad_button")
    version, seat = int(parts[0]), int(parts[1])
    refusal = play.check_turn(table, user_id, version, seat)
    if refusal is not None:
        return play.refused(table, user_id, refusal)
    match = table.match
    assert match is not None and match.state is not None
    player = match.state.controller(seat)  # in open play the whister asks for the passer
    view = match.state.view(player)
    found = await asyncio.to_thread(table.spec.hint, view, match.rules, random.Random())
    table.hints[player] = (version, found)
    return Outcome().redraw(table)
