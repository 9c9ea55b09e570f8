"""A scorekept table's keeper (``Table.keeper``): the deal being entered, who entered each deal.

The forms come from the match: the next deal's (``form_for``), or a deal's
as it stood when it is corrected (``form_at``). Before the first deal the
table has no dealer yet: the first press answers who dealt.

The draft is stored with each change, in the change's transaction (``keep_draft``; a saved,
removed or corrected deal stores the next draft with itself): a table loaded again (after a
restart, or by another worker) goes on from it (``loading`` gives it its keeper), and its
message's buttons still fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.drafts import Draft, Keeper
from bot.service.tables import Table

if TYPE_CHECKING:
    from bot.service.ports import Services


def keeper_of(table: Table) -> Keeper:
    """The keeper of a scorekept table whose game started (its lobby's start or its loading
    gave it one)."""
    assert table.keeper is not None, f"table {table.id} keeps no score"
    return table.keeper


async def keep_draft(svc: Services, table: Table, draft: Draft) -> None:
    """Store the table's changed draft, then hold it."""
    table.row = await svc.store.tables.set_draft(table.id, draft.to_data())
    keeper_of(table).draft = draft
