"""How the lanes are shared by the workers (storage/inbox.py), on PostgreSQL: one worker holds
every lane worked in lately; two join, and at their heartbeats each takes its equal share (not
what rendezvous hashing alone would give it); a worker's updates are claimed by it alone while
it lives; a dead worker's lanes go to the live ones; an idle lane goes on where it was."""

from __future__ import annotations

from collections import Counter

from storage import inbox
from storage.postgres import PgConn, PostgresDatabase
from storage.store import Storage
from tests.postgres import LazyServer

LANES = 60
DEAD_AFTER = 3.0


async def _beat(db: PostgresDatabase, worker: str, *, balance: bool = True) -> None:
    await db.write(lambda conn: inbox.heartbeat(conn, worker, counted_after=2 * DEAD_AFTER,
                                                dead_after=DEAD_AFTER, balance=balance))


async def _homes(db: PostgresDatabase) -> Counter[str]:
    async with db.reading() as conn:
        rows = await conn.fetch("SELECT home FROM lanes WHERE home IS NOT NULL")
    return Counter(row["home"] for row in rows)


async def _claim(db: PostgresDatabase, worker: str) -> str | None:
    """The lane of the update ``worker`` claims (and does: committed), if any."""
    async with db.connection() as raw, raw.transaction():
        claimed = await inbox.claim(PgConn(raw), worker, dead_after=DEAD_AFTER,
                                    steal_after=60.0)
    return None if claimed is None else claimed.lane


async def test_joining_workers_take_equal_shares(postgres: LazyServer) -> None:
    storage = await Storage.open(await postgres.new_database())
    db = storage.db
    assert isinstance(db, PostgresDatabase)
    try:
        await _beat(db, "a")
        for n in range(LANES):  # a worked in every lane: their home
            await db.write(lambda conn, n=n: inbox.advance(conn, f"c-{n + 1}:0", "a",
                                                            dead_after=DEAD_AFTER))
        assert await _homes(db) == {"a": LANES}
        await _beat(db, "b", balance=False)  # a worker starting takes nothing yet
        await _beat(db, "c", balance=False)
        assert await _homes(db) == {"a": LANES}
        for _ in range(3):
            for worker in ("a", "b", "c"):
                await _beat(db, worker)
        assert await _homes(db) == {"a": 20, "b": 20, "c": 20}

        # An update of each lane: claimed by its home alone, which stays its home.
        homes = {}
        async with db.reading() as conn:
            for row in await conn.fetch("SELECT lane, home FROM lanes"):
                homes[row["lane"]] = row["home"]
        async with db.connection() as raw:
            for n, lane in enumerate(homes):
                await inbox.put(PgConn(raw), n + 1, lane, "{}")
        claimed: dict[str, str] = {}
        for worker in ("a", "b", "c"):
            while (lane := await _claim(db, worker)) is not None:
                claimed[lane] = worker
        assert claimed == homes
        assert await _homes(db) == {"a": 20, "b": 20, "c": 20}

        # c leaves: its lanes' updates go to a and b, which become their homes.
        await db.write(lambda conn: inbox.leave(conn, "c"))
        async with db.connection() as raw:
            for n, lane in enumerate(homes):
                await inbox.put(PgConn(raw), LANES + n + 1, lane, "{}")
        assert await _claim(db, "c") is None
        for worker in ("a", "b"):
            while (lane := await _claim(db, worker)) is not None:
                assert homes[lane] in (worker, "c")
        shares = await _homes(db)
        assert set(shares) == {"a", "b"} and sum(shares.values()) == LANES
        for _ in range(2):
            for worker in ("a", "b"):
                await _beat(db, worker)
        assert await _homes(db) == {"a": 30, "b": 30}

        # A lane idle for a minute has no home: its next update goes to the worker that
        # worked there last (its tables are loaded there), whatever the hashes say.
        async with db.connection() as raw:
            lane, owner = await raw.fetchrow("SELECT lane, owner FROM lanes LIMIT 1")
            await raw.execute("UPDATE lanes SET worked_at = worked_at - $1 WHERE lane = $2",
                              inbox.IDLE + 1, lane)
        await _beat(db, "a")
        assert sum((await _homes(db)).values()) == LANES - 1
        async with db.connection() as raw:
            await inbox.put(PgConn(raw), 3 * LANES, lane, "{}")
        other = "b" if owner == "a" else "a"
        assert await _claim(db, other) is None
        assert await _claim(db, owner) == lane
    finally:
        await storage.close()
