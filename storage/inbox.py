"""Several workers on PostgreSQL: the inbox of updates, lanes, workers' heartbeats.

The receiver stores each update once (``update_id`` is the key: a redelivered update is not
stored again, and a done one stays, marked, for a day) in its *lane*: the chat topic of the
table it concerns (``table_lane``), or a private chat. Each lane has a *home*, the live
worker that takes its updates: a lane without one (new, idle for ``IDLE`` seconds, or its
home dead) goes to the worker that worked there last if it lives (its tables are loaded
there), or else to the live worker whose hash with the lane is the highest (rendezvous
hashing), which becomes its home at its first unit of work there; and at each heartbeat a
worker that holds fewer than its equal share of the lanes worked in lately takes the
missing ones from those that hold more than theirs (``heartbeat``): hashing alone leaves
one of three workers a quarter of 60 lanes in a third of the cases, and a lane stays home
until its worker dies, goes idle or is taken for a share. A worker claims a pending update
of its own lanes (or of any lane whose update waited ``steal_after`` seconds: a frozen
worker's), the lane's oldest, in one statement that takes the lane's advisory lock
(``pg_try_advisory_xact_lock``) and the update's row (``FOR UPDATE SKIP LOCKED``) and marks
it done, all in the unit's transaction: one lane's updates are done in order, one at a time,
and different lanes at once; a worker killed at any moment lets both go with its connection,
the mark is undone and the update is pending again. Each unit of work in a lane adds one to
the lane's version and names its worker (``advance``): a worker whose remembered version of
a lane is not the one before knows that another worked there since, and reloads what it
holds of it. A worker sends the screens of a lane's tables holding the lane's row shared
(``FOR SHARE``), and only if the lane's version is still its own (``sending``); ``advance``
updates that row, so a unit of work waits for the sends under way and every send waits for
the unit: what an overtaken worker drew never reaches Telegram after what the next one drew.

Time is the server's clock (``NOW``), the same for every process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from storage.rows import ChatRow, UserRow
from storage.sql import POSTGRES, Conn

NOW = POSTGRES.now
DEAD_AFTER = 3.0  # seconds without a heartbeat after which a worker is taken for dead
LOCK_SEED = 7118  # hashtextextended's seed for the lanes' advisory lock keys
CANDIDATES = 8  # lanes looked at per claim
KEEP_DONE = 86_400.0  # seconds a done update is kept (Telegram redelivers within a day)
KEEP_DEAD = 7 * 86_400.0  # seconds an update set aside is kept (to be looked at)
LIVE = f"SELECT id FROM workers WHERE seen_at > {NOW} - ?"
# Someone waits for the answer to a press or a Mini App's tap (Telegram takes a press's for
# 15 s): one stored longer ago than LATE is not done, only answered "not saved"; whoever
# answers so without the database (it is out of reach) waits MARGIN more (a unit's length).
LATE = 10.0
MARGIN = 2.0


IDLE = 60.0  # seconds without a unit of work after which a lane has no home


def _home(lane: str, home: str, owner: str) -> str:
    """SQL of the live worker whose lanes include ``lane``: its ``home`` (SQL expressions)
    if that is live, or else the worker that worked there last (``owner``: an idle lane
    goes on where its tables are loaded) if live, or else the live worker whose hash with it
    is the highest; its three parameters the seconds after which a worker is dead."""
    return (f"COALESCE((SELECT w.id FROM workers w WHERE w.id IN ({home}, {owner})"
            f" AND w.seen_at > {NOW} - ? ORDER BY w.id = {home} DESC LIMIT 1),"
            f" (SELECT w.id FROM workers w WHERE w.seen_at > {NOW} - ?"
            f" ORDER BY hashtextextended({lane} || '/' || w.id, 0) DESC, w.id LIMIT 1))")


def table_lane(chat_id: int, thread_id: int) -> str:
    """The lane of a table (its chat topic): a group's updates and its players' presses."""
    return f"c{chat_id}:{thread_id}"


def private_lane(chat_id: int) -> str:
    """The lane of a private chat's updates that concern no table."""
    return f"p{chat_id}"


def lane_chat(lane: str) -> int:
    """The chat of a lane (a group's, or in a private lane the user's)."""
    return int(lane[1:].partition(":")[0])


_LANE_SQL = "'c' || t.chat_id || ':' || t.thread_id"  # table_lane in SQL
_OPEN_SQL = "t.status IN ('lobby', 'playing', 'paused')"
# The rows of the claimed update's lane a unit of work reads anew (another worker may have
# changed them), as JSON arrays: ``users``, seated at its open tables (or its private chat's
# user), and ``chats``, its group.
_CHAT = "split_part(substr(claimed.lane, 2), ':', 1)::bigint"
_LANE_ROWS = (
    f"(SELECT {POSTGRES.json_array('u')} FROM users u WHERE claimed.lane LIKE 'p%'"
    f" AND u.id = {_CHAT} OR u.id IN (SELECT s.user_id FROM seats s JOIN game_tables t"
    f" ON t.id = s.table_id WHERE claimed.lane LIKE 'c%' AND t.chat_id = {_CHAT}"
    f" AND t.thread_id = NULLIF(split_part(claimed.lane, ':', 2), '')::bigint"
    f" AND {_OPEN_SQL})) AS users,"
    f" (SELECT {POSTGRES.json_array('c')} FROM chats c WHERE claimed.lane LIKE 'c%'"
    f" AND c.id = {_CHAT}) AS chats")


@dataclass(frozen=True)
class Claimed:
    update_id: int
    lane: str
    body: str
    attempts: int
    version: int  # the lane's, advanced
    age: float  # seconds since the receiver stored it
    more: bool  # other updates were pending that this worker may take (it looks again at once)
    # Read with it, in its transaction: the users seated at the lane's open tables (in a
    # private lane, its user) and the lane's group (``Users.reread``).
    users: dict[int, UserRow] = field(default_factory=dict)
    chats: dict[int, ChatRow] = field(default_factory=dict)


async def put(conn: Conn, update_id: int, lane: str, body: str) -> bool:
    """Store an update (False: it was stored before) and wake the workers, in one statement:
    the lane's home if it is live (the notice's payload: the others need not look), or else
    every worker (an empty payload)."""
    row = await conn.fetchone(
        "WITH added AS (INSERT INTO inbox (update_id, lane, body, received_at)"
        f" VALUES (?, ?, ?, {NOW}) ON CONFLICT (update_id) DO NOTHING RETURNING lane)"
        " SELECT pg_notify('cardtable_inbox', COALESCE((SELECT w.id FROM lanes l"
        f"  JOIN workers w ON w.id = l.home WHERE l.lane = added.lane AND w.seen_at > {NOW} - ?),"
        "  '')) FROM added", (update_id, lane, body, DEAD_AFTER))
    return row is not None


async def done(conn: Conn, update_ids: list[int]) -> set[int]:
    """Those of the updates that were done (or set aside)."""
    rows = await conn.fetch("SELECT update_id FROM inbox WHERE update_id = ANY(?::bigint[])"
                            " AND done_at IS NOT NULL", (update_ids,))
    return {row[0] for row in rows}


async def lane_of_table(conn: Conn, table_id: int) -> str | None:
    row = await conn.fetchone("SELECT chat_id, thread_id FROM game_tables WHERE id = ?",
                              (table_id,))
    return None if row is None else table_lane(row["chat_id"], row["thread_id"])


async def lock(conn: Conn, lane: str, *, wait: bool = False) -> bool:
    """The lane's advisory lock, till the transaction ends (``wait``: until it is free)."""
    if wait:
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, ?))",
                           (lane, LOCK_SEED))
        return True
    row = await conn.fetchone("SELECT pg_try_advisory_xact_lock(hashtextextended(?, ?))",
                              (lane, LOCK_SEED))
    return bool(row is not None and row[0])


async def claim(conn: Conn, worker: str, *, dead_after: float,
                steal_after: float) -> Claimed | None:
    """The oldest pending update of one of this worker's lanes (``_home``), or of a lane
    whose update waited ``steal_after`` seconds, that nobody else works in now: locked and
    marked done till the transaction ends (a rollback leaves it pending), and the lane
    advanced (``advance``), in one statement."""
    row = await conn.fetchone(
        "WITH heads AS MATERIALIZED (SELECT i.update_id, i.lane FROM inbox i"
        " LEFT JOIN lanes l ON l.lane = i.lane"
        " WHERE i.done_at IS NULL AND NOT EXISTS (SELECT 1 FROM inbox e WHERE e.lane = i.lane"
        "  AND e.done_at IS NULL AND e.update_id < i.update_id)"
        f" AND ({_home('i.lane', 'l.home', 'l.owner')} = ?"
        f"  OR i.received_at < {NOW} - ?)"
        " ORDER BY i.update_id LIMIT ?),"
        " taken AS (SELECT update_id FROM heads"
        "  WHERE pg_try_advisory_xact_lock(hashtextextended(lane, ?)) LIMIT 1),"
        " row AS (SELECT i.update_id FROM inbox i JOIN taken USING (update_id)"
        "  WHERE i.done_at IS NULL FOR UPDATE OF i SKIP LOCKED),"
        f" claimed AS (UPDATE inbox SET done_at = {NOW} FROM row"
        "  WHERE inbox.update_id = row.update_id"
        "  RETURNING inbox.update_id, inbox.lane, inbox.body, inbox.attempts,"
        f"  {NOW} - inbox.received_at AS age),"
        f" moved AS ({_advance(f'SELECT lane, 1, ?, ?, {NOW} FROM claimed')})"
        f" SELECT claimed.*, moved.version, {_LANE_ROWS}, (SELECT count(*) FROM heads) > 1"
        "  OR EXISTS (SELECT 1 FROM inbox e WHERE e.lane = claimed.lane AND e.done_at IS NULL"
        "  AND e.update_id > claimed.update_id) AS more FROM claimed, moved",
        (dead_after, dead_after, worker, steal_after, CANDIDATES, LOCK_SEED, worker, worker,
         dead_after))
    if row is None:
        return None
    return Claimed(row["update_id"], row["lane"], row["body"], row["attempts"], row["version"],
                   row["age"], row["more"],
                   {u["id"]: UserRow.of(u) for u in json.loads(row["users"])},
                   {c["id"]: ChatRow.of(c) for c in json.loads(row["chats"])})


def _advance(rows: str) -> str:
    """SQL that adds one to the version of the lanes of ``rows`` (lane, 1, worker, worker,
    now), names the worker the lane's home if its home is not live (the next parameter: the
    seconds after which a worker is dead), and keeps when."""
    return ("INSERT INTO lanes (lane, version, owner, home, worked_at)"
            f" {rows} ON CONFLICT (lane) DO UPDATE SET version = lanes.version + 1,"
            " owner = EXCLUDED.owner, worked_at = EXCLUDED.worked_at,"
            " home = CASE WHEN EXISTS (SELECT 1 FROM workers w WHERE w.id = lanes.home"
            f"  AND w.seen_at > {NOW} - ?) THEN lanes.home ELSE EXCLUDED.home END"
            " RETURNING version")


async def advance(conn: Conn, lane: str, worker: str, *, dead_after: float) -> int:
    """One more unit of work in the lane, by ``worker`` (its lock held): the new version,
    once the screens being sent of the lane's tables are (their hold on the lane's row);
    the row is held till the transaction ends."""
    row = await conn.fetchone(_advance(f"VALUES (?, 1, ?, ?, {NOW})"),
                              (lane, worker, worker, dead_after))
    assert row is not None
    return int(row[0])


SENDING = "SELECT version FROM lanes WHERE lane = ? FOR SHARE"  # see ``sending``


async def sending(conn: Conn, lane: str) -> int | None:
    """The lane's version once no unit of work in it is under way, its row held shared till
    the transaction ends: no unit starts before (None: no unit was ever done in it)."""
    row = await conn.fetchone(SENDING, (lane,))
    return None if row is None else int(row["version"])


async def tables_of(conn: Conn, lane: str) -> list[int]:
    """The open tables of a lane (a private chat's lane has none)."""
    if not lane.startswith("c"):
        return []
    chat_id, _, thread_id = lane[1:].partition(":")
    rows = await conn.fetch(f"SELECT t.id FROM game_tables t WHERE t.chat_id = ?"
                            f" AND t.thread_id = ? AND {_OPEN_SQL} ORDER BY t.id",
                            (int(chat_id), int(thread_id)))
    return [row["id"] for row in rows]


async def owner(conn: Conn, lane: str, *, dead_after: float) -> str | None:
    """The live worker that worked in the lane last (None: none, or it is dead)."""
    row = await conn.fetchone(f"SELECT owner FROM lanes WHERE lane = ? AND owner IN ({LIVE})",
                              (lane, dead_after))
    return None if row is None else row["owner"]


async def failed(conn: Conn, update_id: int, error: str, *, give_up: int) -> bool:
    """An attempt at the update failed (rolled back); after ``give_up`` attempts it is set
    aside (a dead letter with its error: never tried again, the lane goes on). True: it was
    set aside now."""
    row = await conn.fetchone(
        "UPDATE inbox SET attempts = attempts + 1,"
        f" done_at = CASE WHEN attempts + 1 >= ? THEN {NOW} END"
        " WHERE update_id = ? RETURNING done_at, lane, body, attempts", (give_up, update_id))
    if row is None or row["done_at"] is None:
        return False
    await conn.execute(
        "INSERT INTO dead_letters (update_id, lane, body, attempts, error, set_aside_at)"
        f" VALUES (?, ?, ?, ?, ?, {NOW}) ON CONFLICT (update_id) DO NOTHING",
        (update_id, row["lane"], row["body"], row["attempts"], error))
    return True


async def dead_letters(conn: Conn) -> int:
    """Updates set aside (kept for the operator, ``KEEP_DEAD`` seconds)."""
    row = await conn.fetchone("SELECT count(*) FROM dead_letters")
    return int(row[0]) if row is not None else 0


async def pending(conn: Conn) -> int:
    row = await conn.fetchone("SELECT count(*) FROM inbox WHERE done_at IS NULL")
    return int(row[0]) if row is not None else 0


async def heartbeat(conn: Conn, worker: str, *, counted_after: float, dead_after: float,
                    balance: bool = True) -> tuple[int, int]:
    """The worker is alive; the number of workers seen in the last ``counted_after`` seconds,
    and of the lanes it took.
    Lanes idle for ``IDLE`` seconds lose their home; if this worker holds fewer than
    ``floor(lanes / workers)`` of the lanes worked in lately (homes of the workers seen in
    ``dead_after`` seconds), and ``balance``, it takes the missing ones from those that hold
    more than ``ceil(lanes / workers)`` (not those a unit of work or a send holds now: again
    at the next beat). Done updates older than a day are forgotten, and dead letters older
    than a week. One statement (a worker beats each second: issue 30); its writes are not
    seen by its reads, hence the others' and its own."""
    row = await conn.fetchone(
        f"WITH beat AS (INSERT INTO workers (id, seen_at) VALUES (?, {NOW})"
        " ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at),"
        f" done AS (DELETE FROM inbox WHERE done_at < {NOW} - ?),"
        f" gone AS (DELETE FROM workers WHERE seen_at < {NOW} - ? AND id <> ?),"
        f" dead AS (DELETE FROM dead_letters WHERE set_aside_at < {NOW} - ?),"
        " idle AS (UPDATE lanes SET home = NULL WHERE lane IN (SELECT lane FROM lanes"
        f"  WHERE home IS NOT NULL AND worked_at < {NOW} - ? FOR UPDATE SKIP LOCKED)),"
        f" alive AS (SELECT id FROM workers WHERE seen_at > {NOW} - ? AND id <> ?"
        "  UNION ALL SELECT ?),"
        " held AS (SELECT a.id, count(l.lane) AS n FROM alive a LEFT JOIN lanes l"
        f"  ON l.home = a.id AND l.worked_at >= {NOW} - ? GROUP BY a.id),"
        " share AS (SELECT floor(sum(n) / count(*)) AS fair, ceil(sum(n) / count(*)) AS most"
        "  FROM held),"
        " took AS (UPDATE lanes SET home = ? WHERE ? = 1 AND lane IN (SELECT l.lane FROM lanes l"
        "  JOIN held h ON h.id = l.home, share"
        f"  WHERE h.n > share.most AND l.worked_at >= {NOW} - ?"
        "  ORDER BY hashtextextended(l.lane || '/' || ?, 0)"
        "  LIMIT (SELECT greatest(0, share.fair - h.n)::bigint FROM held h, share WHERE h.id = ?)"
        "  FOR UPDATE OF l SKIP LOCKED) RETURNING lane)"
        f" SELECT count(*) + 1, (SELECT count(*) FROM took) FROM ({LIVE}) AS live"
        " WHERE live.id <> ?",
        (worker, KEEP_DONE, KEEP_DONE, worker, KEEP_DEAD, IDLE, dead_after, worker, worker,
         IDLE, worker, balance, IDLE, worker, worker, counted_after, worker))
    return (int(row[0]), int(row[1])) if row is not None else (1, 0)


async def leave(conn: Conn, worker: str) -> None:
    """The worker stops: its lanes are free at once."""
    await conn.execute("DELETE FROM workers WHERE id = ?", (worker,))


async def orphans(conn: Conn, worker: str, *, dead_after: float) -> dict[str, list[int]]:
    """The open tables of this worker's lanes (``_home``) that no live worker worked in
    last, by lane: their messages may be behind, a deal may be due, their timers armed
    nowhere."""
    rows = await conn.fetch(
        f"SELECT t.id, {_LANE_SQL} AS lane FROM game_tables t"
        f" LEFT JOIN lanes l ON l.lane = {_LANE_SQL}"
        f" WHERE {_OPEN_SQL} AND (l.owner IS NULL OR l.owner NOT IN ({LIVE}))"
        f" AND {_home(_LANE_SQL, 'l.home', 'l.owner')} = ? ORDER BY t.id",
        (dead_after, dead_after, dead_after, worker))
    found: dict[str, list[int]] = {}
    for row in rows:
        found.setdefault(row["lane"], []).append(row["id"])
    return found
