"""The crash test's writer: plays games into a database, printing each acknowledged entry.

    python -m tests.storage.crash_writer DB ROUND

Resumes the games already in the database (each from its snapshot), keeps
``GAMES`` of them going at once from one event loop (a snapshot with the entry that ends
a deal) and, after each append has
returned (committed), prints ``[table_id, seq, kind, payload]`` as a JSON line.
It runs until it is killed.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.service import records as stored
from engine.match import Match
from engine.records import new_match
from storage import Entry, Storage
from storage.rows import TableRow
from tests.storage.play import lines, random_step, started_table

GAMES = 4
RULES = {"variant": "sochi", "pool": 2}


def acknowledge(table_id: int, seq: int, entry: Entry) -> None:
    print(json.dumps([table_id, seq, entry.kind, entry.payload]), flush=True)


async def play(store: Storage, table: TableRow, match: Match, rng: random.Random) -> None:
    """Play this table to its end, then keep opening new ones in the same chat."""
    while True:
        if match.over or table.status == "finished":
            table = await started_table(store, table.chat_id, "preferans", RULES, [1, 2, 3])
            match = new_match(table.header())
        result = settlement = None
        if match.in_deal:
            entry, result, settlement = random_step(table, match, rng, {2})
        else:
            match.start_deal(seed=rng.randrange(1 << 30))
            entry = Entry.deal(match.deals[-1])
        await store.log.append(table.id, match.version, entry, result=result,
                           stats=lines(match, result), settlement=settlement,
                           snapshot=None if result is None else match.snapshot())
        acknowledge(table.id, match.version, entry)
        if settlement is not None:
            table = await store.tables.get_table(table.id)


async def main(path: str, round_no: int) -> None:
    rng = random.Random(round_no)
    store = await Storage.open(path)
    for user_id in (1, 2, 3):
        await store.chats.save_user(user_id, display_name=f"U{user_id}")
    players = []
    for found in [await stored.load(store, t.id) for t in await store.tables.open_tables()]:
        assert found.problem is None, found.problem
        table = found.row
        if table.status == "lobby":  # killed while seating: start that chat's table afresh
            await store.tables.set_status(table.id, "aborted")
            table = await started_table(store, table.chat_id, "preferans", RULES, [1, 2, 3])
            players.append((table, new_match(table.header())))
        else:
            assert found.match is not None
            players.append((table, found.match))
    chats = {table.chat_id for table, _ in players}
    for chat_id in range(-1, -GAMES - 1, -1):
        if chat_id not in chats:
            table = await started_table(store, chat_id, "preferans", RULES, [1, 2, 3])
            players.append((table, new_match(table.header())))
    await asyncio.gather(*(play(store, t, m, random.Random(rng.random())) for t, m in players))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
