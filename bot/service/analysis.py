"""A finished deal's analysis, pressed for on its result (issue 34): every card against the
double-dummy solver (``engine.records.analyse``), computed in a worker thread, since a
misère may take a tenth of a second and the event loop serves every table.

Anyone may press: once a deal is over all its hands are public. A press on the group's
result posts the analysis in the group, once; later presses are answered that it is there.
A press on a player's panel (``y:T:N:p``) sends it to whoever pressed, in his private chat.
The analysis is computed at the first press and stored with the deal's result
(``storage.analyses``): every later press, in any process or after a restart, reads it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from bot.service import events
from bot.service.outcome import Outcome, refused
from engine.games import get_game
from engine.records import analyse
from storage.errors import NotFound
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services

PRIVATE = "p"  # the last part of a panel's button: the analysis goes to the presser


async def of_deal(svc: Services, table_id: int, number: int) -> dict[str, Any] | None:
    """The analysis of the table's deal ``number`` (from 1), stored or computed (and
    stored); None for a deal still in play or entered by hand (no cards to analyse)."""
    found = await svc.store.analyses.get(table_id, number)
    if found is None:
        record = await svc.store.log.record(table_id)
        found = (await asyncio.to_thread(analyse, record, number - 1))["deals"][number - 1]
        if found is None:
            return None
        await svc.store.analyses.keep(table_id, number, found)
    return found


async def press(svc: Services, table_id: int, user: UserRow,
                parts: tuple[str, ...]) -> Outcome:
    """A press of "🔍 Analysis" under the result of deal ``parts[0]`` (from 1): in the
    group, or on a panel (``parts[1]`` is ``p``)."""
    try:
        row = await svc.store.tables.get_table(table_id)
    except NotFound:
        return refused("table_closed")
    if (not 1 <= len(parts) <= 2 or not parts[0].isdigit() or parts[1:] not in ((), (PRIVATE,))
            or get_game(row.game).analyse is None
            or not 1 <= int(parts[0]) <= row.deal_count or row.players is None):
        return refused("bad_button")
    number = int(parts[0])
    private = parts[1:] == (PRIVATE,)
    found = await of_deal(svc, table_id, number)
    if found is None:
        return refused("bad_button")
    if private:
        return Outcome().tell(events.DealAnalysed(row, number, found, to=user.id))
    if not await svc.store.analyses.post(table_id, number):
        return Outcome().done("analysis_above")
    return Outcome().tell(events.DealAnalysed(row, number, found))
