"""A scorekept table's state beside its match: the deal being entered, who entered each deal.

The forms come from the match: the next deal's (``form_for``), or a deal's
as it stood when it is corrected (``form_at``). Before the first deal the
table has no dealer yet: the first press answers who dealt.

The draft is stored with each change, in the change's transaction (``keep_draft``; a saved,
removed or corrected deal stores the next draft with itself): a table loaded again (after a
restart, or by another worker) goes on from it, and its message's buttons still fit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.service.scorekeeping.draft import Draft, plan
from bot.service.tables import Table
from engine.base import ActionError
from engine.manual import EntryForm, form_at, form_for
from engine.match import Match

if TYPE_CHECKING:
    from bot.service.services import Services

log = logging.getLogger(__name__)


@dataclass
class Keeper:
    draft: Draft = field(default_factory=Draft)
    enterers: list[int | None] = field(default_factory=list)  # per deal; None: not known


def keeper_of(table: Table) -> Keeper:
    """The table's keeper, with the draft stored; after a restart who entered the earlier
    deals is not known."""
    if table.keeper is None:
        deals = len(table.match.deals) if table.match is not None else 0
        table.keeper = Keeper(_stored_draft(table), [None] * deals)
    keeper: Keeper = table.keeper
    return keeper


async def keep_draft(svc: Services, table: Table, draft: Draft) -> None:
    """Store the table's changed draft, then hold it."""
    table.row = await svc.store.tables.set_draft(table.id, draft.to_data())
    keeper_of(table).draft = draft


def _stored_draft(table: Table) -> Draft:
    """The draft as the table's row stored it; a new one if its presses no longer fit the
    sheet (the game's entry steps changed since it was stored)."""
    data = table.row.draft
    if data is None or table.match is None:
        return Draft()
    draft = Draft.from_data(data)
    try:
        form = form_of(table, draft)
        if form is not None:
            plan(form, draft.taps, lambda *_: False)  # only whether the presses fit
    except ActionError as exc:
        log.warning("table %s: the stored draft no longer fits (%s): it is dropped", table.id,
                    exc)
        return draft.restarted()
    return draft


def next_match(table: Table, draft: Draft) -> Match | None:
    """The match the draft's new deal is added to (not to be changed: copy it first);
    None while deal 1's dealer is unknown."""
    match = table.match
    assert match is not None
    if match.deals:
        return match
    if draft.dealer is None:
        return None
    return Match(match.spec, match.rules, match.players, draft.dealer)


def form_of(table: Table, draft: Draft) -> EntryForm | None:
    """The form the draft fills; None while deal 1's dealer is unknown."""
    assert table.match is not None
    if draft.number is not None:
        return form_at(table.match, draft.number)
    match = next_match(table, draft)
    return None if match is None else form_for(match)
