"""A scorekept table's state beside its match: the deal being entered, who entered each deal.

The forms come from the match: the next deal's (``form_for``), or a deal's
as it stood when it is corrected (``form_at``). Before the first deal the
table has no dealer yet: the first press answers who dealt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.scorekeeping.draft import Draft
from bot.service.tables import Table
from engine.manual import EntryForm, form_at, form_for
from engine.match import Match


@dataclass
class Keeper:
    draft: Draft = field(default_factory=Draft)
    enterers: list[int | None] = field(default_factory=list)  # per deal; None: not known

    def restart(self, number: int | None = None) -> Draft:
        """A new, empty draft (for deal ``number`` when correcting one)."""
        self.draft = Draft(revision=self.draft.revision + 1, number=number)
        return self.draft


def keeper_of(table: Table) -> Keeper:
    """The table's keeper; after a restart who entered the earlier deals is not known."""
    if table.keeper is None:
        deals = len(table.match.deals) if table.match is not None else 0
        table.keeper = Keeper(enterers=[None] * deals)
    keeper: Keeper = table.keeper
    return keeper


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
