"""Loading the open tables: on first touch, and at start-up those with work to do at once.

Tables are loaded when first touched (a press, a command, a timer), not at
start-up: start-up reads a light row of each open table that may have work to
do (the database sifts them), loads only those with work to do at once (a deal
to deal, messages behind what is stored, a robot's seat, a record that did not
replay), and sets jobs for the stored timers due soon (the others get theirs
from the timers' poll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import play, records
from bot.service.drafts import stored_keeper
from bot.service.outcome import Outcome
from bot.service.tables import Table
from storage.errors import NotFound
from storage.rows import ACTIVE_STATUSES, OPEN_STATUSES, TableRow, Waking

if TYPE_CHECKING:
    from bot.service.ports import Services


async def table(svc: Services, table_id: int, *, ended: bool = False) -> Table | None:
    """An open table (None: closed or unknown); ``ended``: a game that has ended is
    given as it ended, a look only (not tracked, no timers: for a Mini App left open
    on it)."""
    found = svc.tables.get(table_id)
    if found is None:
        out = Outcome()
        found = await _load(svc, table_id, out, [], ended=ended)
        svc.publish(out)
    return found


async def look(svc: Services, table_id: int) -> Table | None:
    """A table as stored, a look only (not tracked, no timers, nothing dealt): for a reader in
    a process that may not hold the table (a worker serving the Mini App of a table another
    worker plays). None: unknown, or a game that has ended with no match."""
    try:
        found = await records.load(svc.store, table_id)
    except NotFound:
        return None
    if found.row.status not in OPEN_STATUSES and found.match is None:
        return None
    await _players(svc, found.row)
    return _kept(Table(found.row, selection={s.seat: s.picks for s in found.row.seats
                                             if s.picks}, match=found.match))


async def topic_table(svc: Services, chat_id: int, thread_id: int | None = 0) -> Table | None:
    """The open table of a chat's topic (``thread_id`` None: of any topic of the chat)."""
    found = svc.tables.in_topic(chat_id, thread_id)
    if found is None:
        row = await svc.store.tables.open_table(chat_id, thread_id)
        found = None if row is None else await table(svc, row.id)
    return found


async def user_tables(svc: Services, user_id: int) -> list[Table]:
    """The games (playing or paused) the user plays in."""
    rows = await svc.store.tables.open_tables(user_id=user_id)
    return await _tables(svc, [r.id for r in rows if r.status in ACTIVE_STATUSES])


async def chat_tables(svc: Services, chat_id: int) -> list[Table]:
    """The open tables of a group."""
    return await _tables(svc, [r.id for r in await svc.store.tables.open_tables(
        chat_id=chat_id)])


async def _tables(svc: Services, ids: list[int]) -> list[Table]:
    return [t for table_id in ids if (t := await table(svc, table_id)) is not None]


async def _load(svc: Services, table_id: int, out: Outcome, problems: list[str], *,
                ended: bool = False) -> Table | None:
    """Load a table with its match: deal a pending hand, set its timer; a table whose
    messages may be behind what is stored is redrawn, one whose messages show it is told
    ``as_shown`` (so that only what changes after is edited)."""
    async with svc.loading:  # two first touches at once make one table
        loaded = svc.tables.get(table_id)
        if loaded is not None:
            return loaded
        try:
            found = await records.load(svc.store, table_id)
        except NotFound:
            return None
        row = found.row
        if row.status not in OPEN_STATUSES:
            if not ended or found.match is None:
                return None
            await _players(svc, row)
            return _kept(Table(row, match=found.match))
        await svc.users.chat_language(row.chat_id)
        await svc.users.chat(row.chat_id)
        await _players(svc, row)
        loaded = svc.tables.adopt(row)
        loaded.match = found.match
        _kept(loaded)
    if found.problem is not None:
        problems.append(f"table {table_id}: {found.problem}")
        return loaded
    async with loaded.lock:
        if loaded.status == "playing":
            # A stop between storing a deal's end and dealing the next one: deal now.
            await play.next_deal(svc, loaded, out)
        await svc.timers.rearm(loaded)  # the stored timer, with the time that is left
    if not loaded.row.shown:  # its messages may be behind what is stored
        out.redraw(loaded)
    elif not loaded.may_show_deal_end:  # what they show is what is drawn now
        out.as_shown[loaded.id] = loaded
    return loaded


def _kept(loaded: Table) -> Table:
    """A scorekept table with its keeper (the stored draft), which its screens show."""
    if loaded.keeps_score and loaded.match is not None:
        loaded.keeper = stored_keeper(loaded.id, loaded.row.draft, loaded.match)
    return loaded


async def _players(svc: Services, row: TableRow) -> None:
    """The seated users' rows (their names and languages) loaded."""
    for seat in row.seats:
        if seat.user_id is not None:
            await svc.users.load(seat.user_id)


async def restore(svc: Services) -> tuple[Outcome, list[str]]:
    """Load the open tables that have work to do now and start the stored timers; an
    outcome that redraws what is behind, and the problems to report."""
    rows = await svc.store.tables.waking()
    out, problems = await wake(svc, rows)
    await svc.timers.start()
    return out, problems


async def wake(svc: Services, rows: list[Waking]) -> tuple[Outcome, list[str]]:
    """Load those of ``rows`` that have work to do now (start-up's; a worker's, for the
    tables of a worker that died)."""
    out = Outcome()
    problems: list[str] = []
    for row in rows:
        if _busy(row):
            await _load(svc, row.id, out, problems)
    return out, problems


def _busy(row: Waking) -> bool:
    """A table with work to do at start-up."""
    return (row.between_deals or not row.shown or (row.robot and row.status == "playing")
            or (row.attention_reason or "").startswith(records.REPLAY_FAILED))
