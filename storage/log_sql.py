"""SQL of the action log, deal results, statistics lines and game results."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from storage import timers
from storage.errors import BadInput, DuplicateSeq, NotFound, SeqConflict, SeqGap, WrongStatus
from storage.rows import Entry, StatLine
from storage.sql import POSTGRES, Conn, Row
from storage.tables_sql import json_object, refuse_second_table, store_draft

log = logging.getLogger(__name__)


async def locked_table(conn: Conn, table_id: int) -> Row:
    """The table's row, locked until the transaction ends (concurrent appends queue)."""
    table = await conn.fetchone(
        f"SELECT * FROM game_tables WHERE id = ?{conn.dialect.for_update}", (table_id,))
    if table is None:
        raise NotFound(f"no table {table_id}")
    return table


def entry_values(entry: Entry, seat_count: int | None) -> tuple[str, str]:
    """Checked (kind, payload JSON) of an entry, its seat against the table's ``seat_count``
    (None: not known yet, any seat number); BadInput names what is wrong."""
    if entry.kind not in ("deal", "action"):
        raise BadInput(f"a log entry is a deal or an action, not {entry.kind!r}")
    payload = json_object(f"the {entry.kind} entry", entry.payload)
    if entry.kind == "action":
        seat = entry.seat
        if type(seat) is not int or seat < 0 or (seat_count is not None and seat >= seat_count):
            seats = "" if seat_count is None else f" 0-{seat_count - 1}"
            raise BadInput(f"an action needs a seat number{seats}, not {seat!r}")
    elif entry.payload.get("actions", []) != []:
        raise BadInput("a deal entry holds the deal with its actions list emptied")
    return entry.kind, payload


async def append(
    conn: Conn,
    table_id: int,
    seq: int,
    entry: Entry,
    result: Mapping[str, Any] | None,
    stats: Sequence[StatLine],
    settlement: Sequence[float] | None,
    snapshot: Mapping[str, Any] | None = None,
    draft: Mapping[str, Any] | None = None,
) -> float:
    """One append and what it ends: the acting seat's picks, the deal's result and
    statistics, the game's settlement, the match's snapshot; the scorekeeper's next draft;
    the table's new ``updated_at``."""
    now = time.time()
    try:
        kind, payload = entry_values(entry, None)
    except BadInput:
        await _refuse_append(conn, table_id, seq, entry)  # what is wrong with the table first
    table = await _move_on(conn, table_id, seq, entry, kind, payload, now)
    if table is None:
        await _refuse_append(conn, table_id, seq, entry)
    entry_values(entry, table["seat_count"])  # its seat, once the table's is known
    deals = table["deal_count"]
    if result is not None:
        await store_result(conn, table_id, table["game"], deals - 1, result, stats)
    if settlement is not None:
        await finish(conn, table_id, table["seat_count"], settlement, now)
    if snapshot is not None:
        await store_snapshot(conn, table_id, snapshot, now)
    if draft is not None:
        await store_draft(conn, table_id, draft)
    return now


async def _move_on(conn: Conn, table_id: int, seq: int, entry: Entry, kind: str,
                   payload: str, now: float) -> Row | None:
    """The table moved on to ``seq`` if the entry is its next (None: it is not, nothing
    written): the entry logged, the timers set for an earlier version void, the acting seat's
    picks cleared. On PostgreSQL one statement (a worker's update costs statements: issue 30);
    SQLite, which has no writes in a WITH (and no round trips), runs them one by one."""
    is_deal = int(kind == "deal")
    move = ("UPDATE game_tables SET last_seq = ?, deal_count = deal_count + ?, updated_at = ?"
            " WHERE id = ? AND last_seq = ? AND status = 'playing' AND deal_count + ? > 0"
            " RETURNING game, seat_count, deal_count")
    moving = (seq, is_deal, now, table_id, seq - 1, is_deal)
    insert = ("INSERT INTO log_entries (table_id, seq, kind, deal_no, seat, payload, user_id,"
           " robot, created_at)")
    logged = (table_id, seq, kind, entry.seat, payload, entry.user_id, int(entry.robot), now)
    clear = "UPDATE seats SET picks = NULL WHERE table_id = ? AND seat = ? AND picks IS NOT NULL"
    if conn.dialect is POSTGRES:
        cleared = "" if entry.seat is None else f", cleared AS ({clear})"
        return await conn.fetchone(
            f"WITH moved AS ({move}),"
            f" void AS ({timers.MOVED_ON} AND EXISTS (SELECT 1 FROM moved)){cleared},"
            f" logged AS ({insert} SELECT ?, ?, ?, deal_count - 1, ?, ?, ?, ?, ? FROM moved)"
            " SELECT * FROM moved",
            (*moving, table_id, seq, *(() if entry.seat is None else (table_id, entry.seat)),
             *logged))
    table = await conn.fetchone(move, moving)
    if table is None:
        return None
    await conn.execute(f"{insert} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (*logged[:3], table["deal_count"] - 1, *logged[3:]))
    await conn.execute(timers.MOVED_ON, (table_id, seq))
    if entry.seat is not None:
        await conn.execute(clear, (table_id, entry.seat))
    return table


async def _refuse_append(conn: Conn, table_id: int, seq: int, entry: Entry) -> NoReturn:
    """Why the entry is not the table's next one: the error that says it."""
    table = await locked_table(conn, table_id)
    last = table["last_seq"]
    if seq <= last:
        raise DuplicateSeq(table_id, seq, last)
    if seq > last + 1:
        raise SeqGap(table_id, seq, last)
    if table["status"] != "playing":
        raise WrongStatus(f"table {table_id} is {table['status']}: no actions are taken")
    entry_values(entry, table["seat_count"])
    raise BadInput(f"table {table_id}: an action before the first deal")


async def store_snapshot(conn: Conn, table_id: int, snapshot: Mapping[str, Any],
                         now: float) -> None:
    """The table's snapshot (``Match.snapshot``), taken after the entry of its version."""
    await conn.execute(
        "INSERT INTO snapshots (table_id, seq, data, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT(table_id) DO UPDATE SET seq = excluded.seq, data = excluded.data,"
        " created_at = excluded.created_at",
        (table_id, snapshot.get("version"), json_object("a snapshot", snapshot), now))


async def replace_entered(
    conn: Conn,
    table_id: int,
    from_deal: int,
    expected_last: int,
    deals: Sequence[Mapping[str, Any]],
    outputs: Sequence[Mapping[str, Any]],
    stats: Sequence[Sequence[StatLine]],
    settlement: Sequence[float] | None,
    draft: Mapping[str, Any] | None = None,
) -> None:
    """Scorekeeper undo and edit: deals from ``from_deal`` on, all entered by hand, are
    replaced by ``deals`` with their ``outputs``; a finished game is reopened first; the
    next ``draft`` is stored with them.

    The one place where the log is rewritten: an entered deal is a single
    entry with no actions, so the log still numbers one entry per match version.
    """
    table = await locked_table(conn, table_id)
    if table["last_seq"] != expected_last:
        raise SeqConflict(table_id, expected_last, table["last_seq"],
                          "is not the last: the table changed since")
    if table["status"] not in ("playing", "finished"):
        raise WrongStatus(f"table {table_id} is {table['status']}: its deals cannot change")
    if not 0 <= from_deal <= table["deal_count"] or not len(deals) == len(outputs) == len(stats):
        raise BadInput(f"replace deals from 0-{table['deal_count']}, one output and its"
                       " statistics per deal")
    played = conn.dialect.json_has("payload", "actions")
    if any("actions" in deal for deal in deals) or await conn.fetchone(
            "SELECT 1 FROM log_entries WHERE table_id = ? AND deal_no >= ? AND"
            f" (kind = 'action' OR {played}) LIMIT 1",
            (table_id, from_deal)):
        raise BadInput("only deals entered by hand can be undone or corrected")
    if table["status"] == "finished":
        await refuse_second_table(conn, table["chat_id"])
        await conn.execute("DELETE FROM game_results WHERE table_id = ?", (table_id,))
    start = (await conn.fetchone("SELECT COALESCE(MIN(seq), ?) FROM log_entries"
                       " WHERE table_id = ? AND deal_no >= ?",
                       (table["last_seq"] + 1, table_id, from_deal)))[0]
    for name in ("deal_stats", "deal_results"):
        await conn.execute(f"DELETE FROM {name} WHERE table_id = ? AND deal_no >= ?",
                           (table_id, from_deal))
    await conn.execute("DELETE FROM log_entries WHERE table_id = ? AND seq >= ?",
                       (table_id, start))
    await conn.execute("DELETE FROM snapshots WHERE table_id = ? AND seq >= ?", (table_id, start))
    await conn.execute(
        "UPDATE game_tables SET last_seq = ?, deal_count = ?, status = 'playing',"
        " finished_at = NULL WHERE id = ?", (start - 1, from_deal, table_id))
    for n, (deal, output, lines) in enumerate(zip(deals, outputs, stats, strict=True)):
        await append(conn, table_id, start + n, Entry.deal(deal), output, lines,
                     settlement if n == len(deals) - 1 else None)
    if not deals and settlement is not None:
        await finish(conn, table_id, table["seat_count"], settlement)
    if draft is not None:
        await store_draft(conn, table_id, draft)


async def store_result(
    conn: Conn, table_id: int, game: str, deal_no: int,
    result: Mapping[str, Any], lines: Sequence[StatLine],
) -> None:
    """A finished deal's output object and its statistics lines (one per seat that has
    one; the game computes them from the output, ``GameSpec.seat_stats``)."""
    text = json_object("a deal result", result)
    if await conn.fetchone("SELECT 1 FROM deal_results WHERE table_id = ? AND deal_no = ?",
                 (table_id, deal_no)):
        raise BadInput(f"table {table_id}: deal {deal_no} already has a result")
    await conn.execute(
        "INSERT INTO deal_results (table_id, deal_no, result, finished_at) VALUES (?, ?, ?, ?)",
        (table_id, deal_no, text, time.time()),
    )
    users = {row["seat"]: row["user_id"] for row in await conn.fetch(
        "SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))}
    robots = {row["user_id"] for row in await conn.fetch(
        "SELECT DISTINCT user_id FROM log_entries WHERE table_id = ? AND deal_no = ? AND robot = 1",
        (table_id, deal_no))}
    await conn.executemany(
        "INSERT INTO deal_stats (table_id, deal_no, seat, user_id, game, kind, role, contract,"
        " level, made, tricks, won, lost, robot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(table_id, deal_no, line.seat, users.get(line.seat), game, line.kind, line.role,
          line.contract, line.level, None if line.made is None else int(line.made), line.tricks,
          line.won, line.lost, int(users.get(line.seat) in robots - {None}))
         for line in lines],
    )


def places(balances: Sequence[float]) -> list[int]:
    """Each seat's place by balance, highest first; equal balances share the better place."""
    return [1 + sum(other > mine for other in balances) for mine in balances]


async def finish(
    conn: Conn, table_id: int, seat_count: int, settlement: Sequence[float],
    now: float | None = None,
) -> None:
    """Write the settlement (one balance per seat) and mark the table finished."""
    if len(settlement) != seat_count or not all(
        isinstance(b, int | float) and not isinstance(b, bool) and math.isfinite(b)
        for b in settlement
    ):
        raise BadInput(f"a settlement is one number per seat ({seat_count}), not {settlement!r}")
    users = {row["seat"]: row["user_id"] for row in await conn.fetch(
        "SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))}
    await conn.executemany(
        "INSERT INTO game_results (table_id, seat, user_id, balance, place) VALUES (?, ?, ?, ?, ?)",
        [(table_id, seat, users.get(seat), balance, place)
         for seat, (balance, place) in enumerate(zip(settlement, places(settlement), strict=True))],
    )
    now = time.time() if now is None else now
    await conn.execute(
        "UPDATE game_tables SET status = 'finished', finished_at = ?, updated_at = ?,"
        " timer_deadline = NULL WHERE id = ?",
        (now, now, table_id),
    )
    await timers.set_timer(conn, table_id, None)


async def insert_entries(
    conn: Conn, table_id: int, entries: Sequence[Entry], seat_count: int
) -> int:
    """Write a whole log at once (import); the number of deals."""
    now = time.time()
    rows = []
    deal_no = -1
    for seq, entry in enumerate(entries, start=1):
        kind, payload = entry_values(entry, seat_count)
        deal_no += kind == "deal"
        rows.append((table_id, seq, kind, deal_no, entry.seat, payload, entry.user_id,
                     int(entry.robot), now))
    await conn.executemany(
        "INSERT INTO log_entries (table_id, seq, kind, deal_no, seat, payload, user_id, robot,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    await conn.execute(
        "UPDATE game_tables SET last_seq = ?, deal_count = ? WHERE id = ?",
        (len(entries), deal_no + 1, table_id),
    )
    return deal_no + 1


async def log_of(conn: Conn, table_id: int, *,
                 after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """The table's log (the entries after number ``after``) as (kind, payload) pairs."""
    rows = await conn.fetch(
        "SELECT kind, payload FROM log_entries WHERE table_id = ? AND seq > ? ORDER BY seq",
        (table_id, after))
    return [(row["kind"], json.loads(row["payload"])) for row in rows]

