"""Per-chat call budgets shared by the worker processes, in PostgreSQL; a single process's
calls to groups, kept for the process after a restart (either backend).

Each call to a chat is a row (``chat_calls``): a sliding window counts the rows of the
last ``period`` seconds on the server's clock, under the chat's own advisory lock
(never one lock for every chat). A call counts from when it was answered; until then
from ``IN_FLIGHT`` seconds ahead, so that a worker killed before the answer leaves a
row that still counts, and then expires. A screen's call (a table message's, a panel's) is
taken by the statement that holds its table's lane for the send (``take`` with ``lane``),
in that send's transaction, which also stores what the call showed with its answer: its
row and the chat's lock are the others' once that commits (another worker's call to the
chat waits for it), and a worker killed during the call leaves no row: its lanes are
taken 3 s later, after a private chat's window, and a group's 18 calls a minute under
Telegram's 20 leave room for it, as for a single process.

PostgreSQL rather than Redis: the workers need PostgreSQL anyway, the budget is a few
dozen small transactions a second at Telegram's own limits (about 30 calls a second in
all), and one service fewer to run, secure and back up.

A single process writes alone to its groups: it need not take a call before making it,
only keep it (``GroupCalls.made``) once answered, on the database's clock. A call in
flight when the process died is not known after the restart: the bot's 18 calls a minute
under Telegram's 20 leave room for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.inbox import NOW, SENDING
from storage.sql import Conn, Database

IN_FLIGHT = 10.0
IN_FLIGHT_POLL = 0.05  # seconds to look again when the window is full of calls in flight
LOCK_CLASS = 7119  # the advisory locks' first key: (LOCK_CLASS, a chat's hash)
KEEP = 120.0  # seconds a call's row is kept (longer than any window)
# The shared budget's calls (its one parameter: their tokens, a list) were answered now: they
# count from now. Told alone, or with what a call showed (``TableStore.set_shown``).
ANSWERED = f"UPDATE chat_calls SET at = {NOW} WHERE id = ANY(?)"


class _ChatCalls:
    """The calls to chats in ``chat_calls``, the rows older than any window forgotten."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def prune(self) -> None:
        async def prune(conn: Conn) -> None:
            await conn.execute(f"DELETE FROM chat_calls WHERE at < {conn.dialect.now} - ?",
                               (KEEP,))

        await self.db.write(prune)


async def take(conn: Conn, chat_id: int, limit: int, period: float, *,
               lane: str | None = None) -> tuple[int | None, float, int | None]:
    """In one statement: the function ``take_call`` of the schema (storage/schema_pg.py),
    under the chat's advisory lock (``LOCK_CLASS``), till the transaction ends; ``lane``:
    with the lane's version, its row held shared (``inbox.sending``: the statement that
    holds a lane for a send counts the call too). (token, wait, version)."""
    version = f"({SENDING})" if lane is not None else "NULL::bigint"
    row = await conn.fetchone(f"SELECT token, wait, {version} AS version"
                              " FROM take_call(?, ?, ?, ?, ?)",
                              (*([lane] if lane is not None else []), chat_id, limit, period,
                               IN_FLIGHT, IN_FLIGHT_POLL))
    assert row is not None
    return row["token"], float(row["wait"]), row["version"]


class SharedBudget(_ChatCalls):
    """The outbox's ``SharedBudget`` on a PostgreSQL database."""

    async def take(self, chat_id: int, limit: int, period: float) -> tuple[int | None, float]:
        token, wait, _ = await self.db.write(lambda conn: take(conn, chat_id, limit, period))
        return token, wait

    async def answered(self, tokens: Sequence[int]) -> None:
        await self.db.write(lambda conn: conn.execute(ANSWERED, (list(tokens),)))


class GroupCalls(_ChatCalls):
    """The outbox's ``GroupCalls`` in the database, on either backend: a row per call once it
    was answered (one small write), so that the process after a restart knows them."""

    async def made(self, chat_id: int) -> None:
        async def made(conn: Conn) -> None:
            now = conn.dialect.now
            await conn.execute(f"INSERT INTO chat_calls (chat_id, at) VALUES (?, {now})",
                               (chat_id,))
            await conn.execute(f"DELETE FROM chat_calls WHERE chat_id = ? AND at < {now} - ?",
                               (chat_id, KEEP))

        await self.db.write(made)

    async def recent(self, period: float) -> dict[int, list[float]]:
        async with self.db.reading() as conn:
            now = conn.dialect.now
            rows = await conn.fetch(f"SELECT chat_id, {now} - at FROM chat_calls"
                                    f" WHERE at > {now} - ? ORDER BY at", (period,))
        calls: dict[int, list[float]] = {}
        for chat_id, age in rows:
            calls.setdefault(int(chat_id), []).append(max(0.0, float(age)))
        return calls
