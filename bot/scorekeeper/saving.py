"""Saving an entered deal: durably first, then told in the group.

A deal is scored on a copy of the match, stored (one log entry with its
result, and the settlement if it ends the game), and only then becomes the
table's match and is announced as a played deal is (``play.announce_deal``),
then the table's message comes anew below it for the next deal (or the game
ends).
"""

from __future__ import annotations

import copy
import logging
from typing import TYPE_CHECKING, Any

from bot.i18n import Translate
from bot.play import announce_deal, finish_announced, hub_reason
from bot.scorekeeper.keeper import keeper_of, next_match
from bot.scorekeeper.registry import ENTRY_UIS
from bot.scorekeeper.screen import screen
from bot.tables import Table
from engine.base import ActionError
from engine.manual import add_entry, form_for
from storage.rows import Entry

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)


async def save_deal(hub: Hub, table: Table, user_id: int, entry: Any,
                    tr: Translate) -> str | None:
    """Score ``entry`` as the next deal, store it, then announce it; the reason if not."""
    keeper = keeper_of(table)
    base = next_match(table, keeper.draft)
    assert base is not None
    match = copy.deepcopy(base)
    form = form_for(match)
    try:
        events = add_entry(match, entry)
    except ActionError as exc:
        return tr("Not entered: {reason}", reason=hub_reason(exc, tr, table.names))
    output = events[0].data["output"]
    over = match.over
    try:
        await hub.storage.append(
            table.id, match.version, Entry("deal", match.deals[-1], user_id), result=output,
            settlement=match.report()["settlement"] if over else None)
    except Exception:
        log.exception("table %s: cannot store entered deal %s", table.id, match.version)
        table.match = await hub.storage.load_match(table.id)  # in case it was stored after all
        return tr("The deal could not be saved. Please try again.")
    table.match = match
    keeper.enterers.append(user_id)
    keeper.restart()
    announce_deal(hub, table, output, ENTRY_UIS[table.row.game].final_view(form, entry))
    await show_next(hub, table)
    return None


async def show_next(hub: Hub, table: Table) -> None:
    """After a stored change was told: the game's end, or the table's message anew below."""
    assert table.match is not None and table.slot is not None
    if table.match.over:
        table.row = await hub.storage.get_table(table.id)
        await finish_announced(hub, table)
    else:
        hub.outbox.show(table.slot, screen(hub, table, hub.tr_chat(table.chat_id)), renew=True)
