"""SQL of chats, users, tables and seats. Each function runs on a connection the caller holds."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from storage.budgets import ANSWERED
from storage.errors import BadInput, NotFound, TableExists, WrongStatus
from storage.rows import OPEN_STATUSES, UNSET, ChatRow, SeatRow, TableRow, Unset, UserRow, dumps
from storage.sql import POSTGRES, Conn

OPEN = "(" + ", ".join(f"'{s}'" for s in OPEN_STATUSES) + ")"
# The table's messages all show it as it was at a time (the first and third parameters), if
# its row (the second) is still as it was then (``TableStore.mark_shown``).
MARK_SHOWN = "UPDATE game_tables SET shown_at = ? WHERE id = ? AND updated_at = ?"
T = TypeVar("T")
_QUIET_HOURS = re.compile(r"([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d")


def changes(**values: Any) -> dict[str, Any]:
    """The update arguments that were given (not UNSET)."""
    return {k: v for k, v in values.items() if v is not UNSET}


async def update(
    conn: Conn, table: str, key: int, values: Mapping[str, Any]
) -> None:
    """``UPDATE table SET ...`` of the given columns (names come from code, never from input)."""
    columns = {**values, "updated_at": time.time()}
    assignments = ", ".join(f"{name} = ?" for name in columns)
    await conn.execute(f"UPDATE {table} SET {assignments} WHERE id = ?", (*columns.values(), key))


async def store_draft(conn: Conn, table_id: int, draft: Mapping[str, Any]) -> None:
    """The scorekeeper's deal being entered (the service's draft as JSON data), written in the
    transaction of the change that made it (the caller marks the table changed)."""
    await conn.execute("UPDATE game_tables SET draft = ? WHERE id = ?",
                       (json_object("the draft", draft), table_id))


async def store_picks(conn: Conn, table_id: int, seat: int, picks: Collection[str]) -> None:
    """A seat's picks before its player confirms (none: cleared), written in the transaction
    of the press or action that changes them."""
    await conn.execute("UPDATE seats SET picks = ? WHERE table_id = ? AND seat = ?",
                       (dumps(sorted(picks)) if picks else None, table_id, seat))


async def set_shown(conn: Conn, table_id: int, seat: int | None, message_id: int | None,
                    digest: str | None, answered: Sequence[int], drawn: float | None) -> bool:
    """``TableStore.set_shown``: one statement on PostgreSQL (the shared budget's answered
    calls and the table marked shown in its WITH); SQLite, which has no writes in a WITH,
    marks the table in a second."""
    ctes: list[str] = []
    values: list[Any] = []
    if answered:
        ctes.append(f"answered AS ({ANSWERED})")
        values.append(list(answered))
    if seat is None:  # one row: marked shown in the same UPDATE
        update = ("UPDATE game_tables SET table_message_id = ?, shown_digest = ?,"
                  " shown_at = CASE WHEN updated_at = ? THEN ? ELSE shown_at END"
                  " WHERE id = ? RETURNING updated_at = ?")
        values += [message_id, digest, drawn, drawn, table_id, drawn]
    else:
        marks = drawn is not None and conn.dialect is POSTGRES
        if marks:
            ctes.append(f"marked AS ({MARK_SHOWN} RETURNING id)")
            values += [drawn, table_id, drawn]
        update = ("UPDATE seats SET panel_message_id = ?, shown_digest = ?"
                  " WHERE table_id = ? AND seat = ? RETURNING "
                  + ("EXISTS (SELECT 1 FROM marked)" if marks else "false"))
        values += [message_id, digest, table_id, seat]
    row = await conn.fetchone(
        ("WITH " + ", ".join(ctes) + " " if ctes else "") + update, values)
    if row is None:
        raise NotFound(f"no table {table_id}" if seat is None
                       else f"table {table_id} has no seat {seat}")
    if seat is not None and drawn is not None and conn.dialect is not POSTGRES:
        return bool(await conn.execute(MARK_SHOWN, (drawn, table_id, drawn)))
    return bool(row[0])


def json_object(name: str, value: Any) -> str:
    if not isinstance(value, Mapping):
        raise BadInput(f"{name} must be a JSON object")
    try:
        return dumps(value)
    except (TypeError, ValueError) as exc:
        raise BadInput(f"{name} is not JSON: {exc}") from None


# Chats and users ---------------------------------------------------------------------------


def chat_values(
    language: str | Unset | None, time_zone: str | Unset | None,
    quiet_hours: str | Unset | None, table_defaults: Mapping[str, Any] | Unset,
) -> dict[str, Any]:
    """Validated chat columns of an update."""
    if isinstance(time_zone, str):
        try:
            ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise BadInput(
                f"unknown time zone {time_zone!r} (expected e.g. 'Europe/Moscow')") from None
    if isinstance(quiet_hours, str) and not _QUIET_HOURS.fullmatch(quiet_hours):
        raise BadInput(f"quiet hours {quiet_hours!r}: expected HH:MM-HH:MM, e.g. 23:00-08:00")
    values = changes(language=language, time_zone=time_zone, quiet_hours=quiet_hours)
    if table_defaults is not UNSET:
        values["table_defaults"] = json_object("table defaults", table_defaults)
    return values


async def save_chat(conn: Conn, chat_id: int, values: Mapping[str, Any]) -> ChatRow:
    now = time.time()
    await conn.execute(
        "INSERT INTO chats (id, created_at, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT(id) DO NOTHING",
        (chat_id, now, now),
    )
    await conn.fetchone(f"SELECT id FROM chats WHERE id = ?{conn.dialect.for_update}",
                        (chat_id,))  # a chat's changes (its new tables) queue
    if values:
        await update(conn, "chats", chat_id, values)
    return await load_chat(conn, chat_id)


async def load_chat(conn: Conn, chat_id: int) -> ChatRow:
    return await _load(conn, "chats", chat_id, ChatRow.of)


async def save_user(conn: Conn, user_id: int, values: Mapping[str, Any]) -> UserRow:
    name = values.get("display_name")
    if "display_name" in values and not (isinstance(name, str) and name.strip()):
        raise BadInput("a user's display name must be a non-empty string")
    if name is not None:  # two lanes may see a new user at once (his /start, his group)
        now = time.time()
        await conn.execute(
            "INSERT INTO users (id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(id) DO NOTHING",
            (user_id, name, now, now),
        )
    elif await conn.fetchone("SELECT 1 FROM users WHERE id = ?", (user_id,)) is None:
        raise NotFound(f"no user {user_id}: a new user needs a display name")
    if values:
        await update(conn, "users", user_id, values)
    return await load_user(conn, user_id)


async def load_user(conn: Conn, user_id: int) -> UserRow:
    return await _load(conn, "users", user_id, UserRow.of)


async def _load(conn: Conn, table: str, key: int, of: Callable[[Any], T]) -> T:
    row = await conn.fetchone(f"SELECT * FROM {table} WHERE id = ?", (key,))
    if row is None:
        raise NotFound(f"no {table[:-1]} {key}")
    return of(row)


# Tables and seats --------------------------------------------------------------------------


async def load_table(conn: Conn, table_id: int) -> TableRow:
    tables = await load_tables(conn, "id = ?", (table_id,))
    if not tables:
        raise NotFound(f"no table {table_id}")
    return tables[0]


async def load_tables(
    conn: Conn, where: str, params: tuple[Any, ...]
) -> list[TableRow]:
    """Tables matching ``where`` (SQL from code) with their seats, by id."""
    rows = list(await conn.fetch(
        f"SELECT * FROM game_tables WHERE {where} ORDER BY id", params))
    seats: dict[int, list[SeatRow]] = {row["id"]: [] for row in rows}
    seat_rows = await conn.fetch(
        f"SELECT s.* FROM seats s JOIN game_tables t ON t.id = s.table_id WHERE {where} "
        "ORDER BY s.table_id, s.seat", params)
    for s in seat_rows:
        seats[s["table_id"]].append(
            SeatRow.of(s))
    return [TableRow.of(row, tuple(seats[row["id"]])) for row in rows]


async def count_open(conn: Conn) -> dict[tuple[str, str], int]:
    rows = await conn.fetch(f"SELECT game, status, COUNT(*) AS n FROM game_tables"
                            f" WHERE status IN {OPEN} GROUP BY game, status")
    return {(row["game"], row["status"]): int(row["n"]) for row in rows}


async def open_tables(conn: Conn, chat_id: int | None = None,
                      user_id: int | None = None) -> list[TableRow]:
    """The open tables (of a chat, or where a user sits)."""
    where, params = f"status IN {OPEN}", []
    if chat_id is not None:
        where, params = where + " AND chat_id = ?", [*params, chat_id]
    if user_id is not None:
        where += " AND id IN (SELECT table_id FROM seats WHERE user_id = ?)"
        params.append(user_id)
    return await load_tables(conn, where, tuple(params))


async def open_table_id(conn: Conn, chat_id: int,
                        thread_id: int | None = 0) -> int | None:
    """The open table of the chat's topic (``thread_id`` None: of any topic)."""
    if thread_id is None:
        row = await conn.fetchone(f"SELECT id FROM game_tables WHERE chat_id = ? AND status IN"
                        f" {OPEN} ORDER BY id LIMIT 1", (chat_id,))
    else:
        row = await conn.fetchone(f"SELECT id FROM game_tables WHERE chat_id = ? AND thread_id = ?"
                        f" AND status IN {OPEN}", (chat_id, thread_id))
    return None if row is None else row["id"]


async def refuse_second_table(conn: Conn, chat_id: int,
                              thread_id: int = 0) -> None:
    existing = await open_table_id(conn, chat_id, thread_id)
    if existing is not None:
        raise TableExists(chat_id, existing)


async def table_in(conn: Conn, table_id: int, *statuses: str) -> TableRow:
    """The table, if its status is one of ``statuses``; WrongStatus otherwise."""
    table = await load_table(conn, table_id)
    if table.status not in statuses:
        raise WrongStatus(f"table {table_id} is {table.status}, not {' or '.join(statuses)}")
    return table
