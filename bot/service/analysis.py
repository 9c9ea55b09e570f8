"""A finished deal's analysis, pressed for on its result (issue 34): every card against the
double-dummy solver (``engine.records.analyse``), computed in a worker thread, since a
misère may take a tenth of a second and the event loop serves every table.

Anyone may press: once a deal is over all its hands are public. The first press posts
the analysis in the table's group; later presses are answered that it is there. The
analyses are kept in memory (``bot.service.analysed``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from bot.service import events
from bot.service.outcome import Outcome, refused
from engine.games import get_game
from engine.records import analyse
from storage.errors import NotFound

if TYPE_CHECKING:
    from bot.service.ports import Services


async def of_deal(svc: Services, table_id: int, number: int) -> dict[str, Any] | None:
    """The analysis of the table's deal ``number`` (from 1), kept or computed; None for a
    deal still in play or entered by hand (no cards to analyse)."""
    key = (table_id, number)
    if key not in svc.analyses.found:
        record = await svc.store.log.record(table_id)
        found = (await asyncio.to_thread(analyse, record, number - 1))["deals"][number - 1]
        if found is None:
            return None
        svc.analyses.keep(key, found)
    return svc.analyses.found[key]


async def press(svc: Services, table_id: int, parts: tuple[str, ...]) -> Outcome:
    """A press of "🔍 Analysis" under the result of deal ``parts[0]`` (from 1)."""
    try:
        row = await svc.store.tables.get_table(table_id)
    except NotFound:
        return refused("table_closed")
    if (len(parts) != 1 or not parts[0].isdigit() or get_game(row.game).analyse is None
            or not 1 <= int(parts[0]) <= row.deal_count or row.players is None):
        return refused("bad_button")
    number = int(parts[0])
    key = (table_id, number)
    kept = svc.analyses
    if key in kept.posted:
        return Outcome().done("analysis_above")
    found = await of_deal(svc, table_id, number)
    if found is None:
        return refused("bad_button")
    if key in kept.posted:  # another press posted it meanwhile
        return Outcome().done("analysis_above")
    kept.posted.add(key)
    return Outcome().tell(events.DealAnalysed(row, number, found))
