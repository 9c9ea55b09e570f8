"""Finished deals' analyses (issue 34), cached with the deal's result: a deal's analysis
never changes, so it is computed once, at the first press, by whichever process serves it,
and read from here after that, restarts included. Deals are numbered from 1, as players
count them (``deal_results.deal_no`` from 0)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from storage.sql import Conn, Database
from storage.tables_sql import json_object


class AnalysisStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, table_id: int, number: int) -> dict[str, Any] | None:
        """Deal ``number``'s stored analysis; None if none is stored yet."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(
                "SELECT analysis FROM deal_results WHERE table_id = ? AND deal_no = ?",
                (table_id, number - 1))
        return None if row is None or row["analysis"] is None else json.loads(row["analysis"])

    async def keep(self, table_id: int, number: int, analysis: Mapping[str, Any]) -> None:
        """Store deal ``number``'s analysis with its result (the first one stored stays)."""
        text = json_object("an analysis", analysis)

        async def keep(conn: Conn) -> None:
            await conn.execute(
                "UPDATE deal_results SET analysis = ? WHERE table_id = ? AND deal_no = ?"
                " AND analysis IS NULL", (text, table_id, number - 1))

        await self._db.write(keep)

    async def post(self, table_id: int, number: int) -> bool:
        """Mark deal ``number``'s analysis posted in the group; False if it already was
        (by another press, maybe in another process)."""
        async def post(conn: Conn) -> int:
            return await conn.execute(
                "UPDATE deal_results SET analysis_posted = 1 WHERE table_id = ? AND deal_no = ?"
                " AND analysis_posted = 0", (table_id, number - 1))

        return await self._db.write(post) == 1
