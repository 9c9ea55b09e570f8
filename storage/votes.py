"""Votes of a table's players, stored so that their buttons work after a restart.

At most one vote is open per table (a unique index): opening a second one raises
VoteOpen. ``agree`` records one voter's consent; ``close`` ends the vote as passed,
refused or void (its question no longer applies).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from storage import log_sql
from storage import tables_sql as sql
from storage.errors import NotFound, VoteOpen, WrongStatus
from storage.rows import VoteRow, VoteStatus, dumps
from storage.sql import Conn, Database


class VoteStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def open_vote(self, table_id: int, kind: str, initiator: int,
                        voters: Iterable[int], params: Mapping[str, Any]) -> VoteRow:
        params_text = sql.json_object("vote params", params)

        async def create(conn: Conn) -> VoteRow:
            await log_sql.locked_table(conn, table_id)
            existing = await conn.fetchone("SELECT id FROM votes WHERE table_id = ? AND"
                                     " status = 'open'", (table_id,))
            if existing is not None:
                raise VoteOpen(table_id, existing["id"])
            vote_id = await conn.insert(
                "INSERT INTO votes (table_id, kind, initiator, voters, params, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, kind, initiator, dumps(sorted(voters)), params_text, time.time()))
            return await _load(conn, vote_id)

        return await self._db.write(create)

    async def get(self, vote_id: int) -> VoteRow | None:
        async with self._db.reading() as conn:
            try:
                return await _load(conn, vote_id)
            except NotFound:
                return None

    async def open_of(self, table_id: int) -> VoteRow | None:
        """The table's open vote, if any."""
        async with self._db.reading() as conn:
            row = await conn.fetchone("SELECT * FROM votes WHERE table_id = ? AND"
                                " status = 'open'", (table_id,))
            return None if row is None else VoteRow.of(row)

    async def agree(self, vote_id: int, user_id: int) -> VoteRow:
        async def change(conn: Conn) -> VoteRow:
            vote = await _open(conn, vote_id)
            agreed = sorted(vote.agreed | {user_id})
            await conn.execute("UPDATE votes SET agreed = ? WHERE id = ?",
                               (json.dumps(agreed), vote_id))
            return await _load(conn, vote_id)

        return await self._db.write(change)

    async def close(self, vote_id: int, status: VoteStatus) -> VoteRow:
        async def change(conn: Conn) -> VoteRow:
            await _open(conn, vote_id)
            await conn.execute("UPDATE votes SET status = ?, closed_at = ? WHERE id = ?",
                               (status, time.time(), vote_id))
            return await _load(conn, vote_id)

        return await self._db.write(change)

    async def set_message(self, vote_id: int, message_id: int | None,
                          question: str | None = None) -> None:
        """The message that asks the vote: its id, and what it asks (HTML, as posted)."""
        await self._db.write(lambda conn: conn.execute(
            "UPDATE votes SET message_id = ?, question = ? WHERE id = ?",
            (message_id, question, vote_id)))


async def _load(conn: Conn, vote_id: int) -> VoteRow:
    row = await conn.fetchone("SELECT * FROM votes WHERE id = ?", (vote_id,))
    if row is None:
        raise NotFound(f"no vote {vote_id}")
    return VoteRow.of(row)


async def _open(conn: Conn, vote_id: int) -> VoteRow:
    vote = await _load(conn, vote_id)
    if vote.status != "open":
        raise WrongStatus(f"vote {vote_id} is {vote.status}")
    return vote
