"""``/undo`` and ``/edit N``: the sheet rebuilt from its entries, stored, then told.

Whoever entered a deal may remove or correct it at once; anyone else asks the
table (the other players on Telegram, and the deal's enterer) with a vote. A
vote carries the match version it was asked at: if another deal was entered
meanwhile, it changes nothing. The chat's last game, once finished, can still
be corrected: a correction that leaves some pool open reopens it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot import bounds
from bot.service import events, loading, records, votes
from bot.service.drafts import EntryRules, stored_keeper, taps_of
from bot.service.outcome import Outcome, Refusal
from bot.service.scorekeeping.keeper import keep_draft, keeper_of
from bot.service.scorekeeping.lobby import may_keep
from bot.service.scorekeeping.saving import show_next
from bot.service.tables import Table, keeps_score
from engine.base import ActionError
from engine.manual import edit, form_at, undo
from engine.match import Match
from storage.errors import StorageError, TableExists
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)


async def table_to_correct(svc: Services, chat_id: int, thread_id: int) -> Table | Outcome:
    """The topic's scorekept game: the open one, or the topic's last one if it is finished;
    or why there is none."""
    table = await loading.topic_table(svc, chat_id, thread_id)
    if table is not None:
        if not table.keeps_score:
            return Outcome().refuse("not_kept")
        return table if table.match is not None else Outcome().refuse("not_started")
    games = await svc.store.stats.recent_games(chat_id, 1, thread_id)
    if not games or games[0].status != "finished":
        return Outcome().refuse("not_kept")
    table = svc.tables.get(games[0].table_id)
    if table is None:
        row = await svc.store.tables.get_table(games[0].table_id)
        if not keeps_score(row.settings):
            return Outcome().refuse("not_kept")
        table = svc.tables.adopt(row)
        table.match = await records.load_match(svc.store, row.id)
        table.keeper = stored_keeper(table.id, row.draft, table.match)
    return table


async def undo_command(svc: Services, table: Table, user: UserRow) -> Outcome:
    """``/undo``: remove the last deal (now, or after a vote). Called with the lock held."""
    match = table.match
    assert match is not None
    out = Outcome()
    if not may_keep(table, user.id):
        return out.refuse("keepers_only")
    if not match.deals:
        return out.refuse("nothing_entered")
    number = len(match.deals)
    params = {"op": "undo", "number": number, "version": match.version}
    if await _with_consent(svc, table, user, number, params, out):
        await do_undo(svc, table, match.version, out)
    return out


async def do_undo(svc: Services, table: Table, version: int, out: Outcome) -> None:
    match = table.match
    assert match is not None
    if match.version != version:
        out.refuse("sheet_changed_undo")
        return
    number = len(match.deals)
    new = undo(match)
    if not await _store(svc, table, len(new.deals), new, version, out):
        return
    keeper_of(table).enterers.pop()
    out.tell(events.DealRemoved(table, number, match))
    await show_next(svc, table, out)


async def edit_command(svc: Services, table: Table, user: UserRow, text: str,
                       rules: EntryRules) -> Outcome:
    """``/edit N`` (the deal pre-filled on the message) or ``/edit N <one line>`` (at once).
    Called with the lock held."""
    match = table.match
    assert match is not None
    out = Outcome()
    if not may_keep(table, user.id):
        return out.refuse("keepers_only")
    head, *tail = text.split(maxsplit=1) or [""]
    rest = tail[0] if tail else ""
    number = bounds.number(head)
    if number is None:
        return out.refuse("which_deal", n=len(match.deals))
    try:
        form = form_at(match, number)
        if rest.strip():
            return await correct(svc, table, user, number, rules.parse(form, rest), out)
        old = form.from_dict(match.deals[number - 1]["entry"])
    except ActionError as exc:
        return out.refuse("not_corrected", reason=Refusal.of(exc))
    if table.status != "playing":
        return out.refuse("edit_in_one_line", n=number)
    draft = keeper_of(table).draft.restarted(number)
    draft.taps = taps_of(form, old)
    draft.keeper = user.id  # corrected in his private chat (the reply links to it)
    await keep_draft(svc, table, draft)
    return out.redraw(table).done("correct_in_private", n=number, table=table.id)


async def correct(svc: Services, table: Table, user: UserRow, number: int, entry: Any,
                  out: Outcome) -> Outcome:
    """Replace deal ``number`` by ``entry`` (now, or after a vote); refused with the reason."""
    match = table.match
    assert match is not None
    form = form_at(match, number)
    try:
        form.result(entry)
    except ActionError as exc:
        return out.refuse("not_corrected", reason=Refusal.of(exc))
    params = {"op": "edit", "number": number, "version": match.version,
              "entry": form.to_dict(entry)}
    if await _with_consent(svc, table, user, number, params, out):
        await do_edit(svc, table, user.id, number, entry, match.version, out)
    return out


async def do_edit(svc: Services, table: Table, user_id: int, number: int, entry: Any,
                  version: int, out: Outcome) -> None:
    match = table.match
    assert match is not None
    if match.version != version:
        out.refuse("sheet_changed_edit")
        return
    form = form_at(match, number)
    try:
        new = edit(match, number, entry)
    except ActionError as exc:
        out.refuse("not_corrected", reason=Refusal.of(exc))
        return
    if not await _store(svc, table, number - 1, new, version, out):
        return
    keeper_of(table).enterers[number - 1] = user_id
    out.tell(events.DealCorrected(table, number, number < len(new.deals),
                                  new.outputs[number - 1], (form, entry)))
    await show_next(svc, table, out)


async def passed(svc: Services, table: Table, initiator: int, params: dict[str, Any],
                 out: Outcome) -> None:
    """A passed vote for a correction: do it; a refusal is told in the group."""
    if params["op"] == "undo":
        await do_undo(svc, table, params["version"], out)
    else:
        assert table.match is not None
        try:
            entry = form_at(table.match, params["number"]).from_dict(params["entry"])
        except ActionError as exc:
            out.refuse("not_corrected", reason=Refusal.of(exc))
        else:
            await do_edit(svc, table, initiator, params["number"], entry, params["version"],
                          out)
    if out.refusal is not None:
        refusal, out.refusal = out.refusal, None
        out.tell(events.Refused(table, refusal))


async def _store(svc: Services, table: Table, first: int, new: Match, version: int,
                 out: Outcome) -> bool:
    """Replace the stored deals from ``first`` (0-based) by the new match's, with a new empty
    draft; on success the table takes the new match and the draft."""
    seats = len(new.players)
    keeper = keeper_of(table)
    after = keeper.draft.restarted()
    try:
        table.row = await svc.store.log.replace_entered_deals(
            table.id, first, new.deals[first:], new.outputs[first:],
            stats=[records.seat_stats(table.game, seats, o) for o in new.outputs[first:]],
            expected_last=version,
            settlement=new.report()["settlement"] if new.over else None,
            draft=after.to_data())
    except TableExists:
        out.refuse("cannot_reopen")
        return False
    except StorageError:
        log.exception("table %s: cannot replace deals from %s", table.id, first)
        out.refuse("sheet_not_changed")
        return False
    table.match = new
    keeper.draft = after
    return True


async def _with_consent(svc: Services, table: Table, user: UserRow, number: int,
                        params: dict[str, Any], out: Outcome) -> bool:
    """True: ``user`` entered deal ``number`` (or nobody else can be asked), do it now; False:
    the others were asked (or another vote is open: ``out`` says so)."""
    enterer = keeper_of(table).enterers[number - 1]
    seated = {s.user_id for s in table.row.seats if s.user_id is not None}
    voters = frozenset(u for u in seated | {enterer} if u is not None and u != user.id)
    if enterer == user.id or not voters:
        return True
    return bool(await votes.ask(svc, table, user.id, "correct", params, out, voters=voters))
