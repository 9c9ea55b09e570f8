"""Saving an entered deal: durably first, then told in the group.

A deal is scored on a copy of the match, stored (one log entry with its result, the
settlement if it ends the game, and the next deal's empty draft), and only then becomes
the table's match and is told as a played deal is; the table's messages then show the next
deal (or the game ends).
"""

from __future__ import annotations

import copy
import logging
from typing import TYPE_CHECKING, Any

from bot.service import play, records, votes
from bot.service.drafts import next_match
from bot.service.outcome import Outcome, Refusal
from bot.service.scorekeeping.keeper import keeper_of
from bot.service.tables import Table
from engine.base import ActionError
from engine.manual import add_entry, form_for
from storage.rows import Entry

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)


async def save_deal(svc: Services, table: Table, user_id: int, entry: Any,
                    out: Outcome) -> Outcome:
    """Score ``entry`` as the next deal, store it, then tell it; refused with the reason."""
    keeper = keeper_of(table)
    assert table.match is not None
    base = next_match(table.match, keeper.draft)
    assert base is not None
    match = copy.deepcopy(base)
    form = form_for(match)
    try:
        evts = add_entry(match, entry)
    except ActionError as exc:
        return out.refuse("not_entered", reason=Refusal.of(exc))
    output = evts[0].data["output"]
    over = match.over
    after = keeper.draft.restarted()
    try:
        at = await svc.store.log.append(
            table.id, match.version, Entry("deal", match.deals[-1], user_id), result=output,
            stats=records.seat_stats(table.game, len(match.players), output),
            settlement=match.report()["settlement"] if over else None, draft=after.to_data())
    except Exception:
        log.exception("table %s: cannot store entered deal %s", table.id, match.version)
        table.match = await records.load_match(svc.store, table.id)  # stored after all?
        return out.refuse("deal_not_saved")
    table.match = match
    play.stored(table, at)
    keeper.enterers.append(user_id)
    keeper.draft = after
    play.deal_scored(table, output, {}, out, entered=(form, entry))
    return await show_next(svc, table, out)


async def show_next(svc: Services, table: Table, out: Outcome) -> Outcome:
    """After a stored change was told: a vote it made pointless lapses; the game's end, or
    the table's messages show the next deal (the group's edited once: the entry is in the
    keeper's private chat)."""
    assert table.match is not None
    await votes.void_pointless(svc, table, out)
    if table.match.over:
        table.row = await svc.store.tables.get_table(table.id)
        return await play.game_over(svc, table, "played", out)
    return out.redraw(table)
