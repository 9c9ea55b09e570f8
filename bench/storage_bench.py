"""Storage: durable appends/s (a commit per action, and group commit) and import of active
games (restore time and memory: bench/restore_bench.py)."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from typing import Any

from bench.figures import Figure
from bot.service import records as stored
from engine.__main__ import play_random
from engine.games import GAMES
from engine.records import new_match
from storage import Storage
from storage.record_log import entries_of
from storage.rows import TableRow

# Deals dealt so far in an active game, per game: a random count up to this (the last
# one cut at a random action, as a game in progress is).
MAX_DEALS = {"preferans": 6, "joker": 12, "seep": 6}


def active_record(game: str, seed: int) -> dict[str, Any]:
    """A record of a game in progress: some deals played, the last one cut short (inside it,
    as the bot deals the next hand as soon as one ends)."""
    rng = random.Random(seed)
    record = play_random(game, seed, rng.randint(1, MAX_DEALS.get(game, 6)), play=True)
    last = record["deals"][-1]
    last["actions"] = last["actions"][: rng.randrange(max(1, len(last["actions"])))]
    return record


async def _table(store: Storage, chat_id: int, record: dict[str, Any]) -> TableRow:
    """A started table whose players and rules are the record's (user ids from the chat id)."""
    seats = len(record["players"])
    users = [chat_id * 10 - seat for seat in range(seats)]
    for user in users:
        await store.chats.save_user(user, display_name=f"U{user}")
    table = await store.tables.create_table(chat_id, record["game"], creator_id=users[0],
                                     rules=new_match(record).rules.to_dict(), seat_count=seats)
    for user in users:
        await store.tables.seat_user(table.id, user)
    return await store.tables.start_game(table.id)


async def _append_all(store: Storage, table: TableRow, record: dict[str, Any], count: int) -> int:
    """Append the record's first ``count`` entries one by one, each awaited (committed)."""
    entries = entries_of(record)[:count]
    for seq, entry in enumerate(entries, start=1):
        await store.log.append(table.id, seq, entry)
    return len(entries)


async def _appends_per_second(path: str, games: int, per_game: int, deals: int) -> float:
    """``games`` games appending at once, each its entries in order (from records of
    ``deals`` random deals); appends/s overall."""
    game_names = sorted(GAMES)
    records = [play_random(game_names[g % len(game_names)], g, deals, play=True)
               for g in range(games)]
    async with await Storage.open(path) as store:
        tables = [await _table(store, -1 - g, record) for g, record in enumerate(records)]
        start = time.perf_counter()
        counts = await asyncio.gather(*(_append_all(store, t, r, per_game)
                                        for t, r in zip(tables, records, strict=True)))
        return sum(counts) / (time.perf_counter() - start)


async def _populate(path: str, records: list[dict[str, Any]]) -> None:
    """Import the records as active games, 200 at a time, each in its own chat."""
    async with await Storage.open(path) as store:
        for start in range(0, len(records), 200):
            await asyncio.gather(*(stored.import_record(store, -1 - n, records[n])
                                   for n in range(start, min(len(records), start + 200))))


def run(quick: bool) -> list[Figure]:
    games, distinct_records = (100, 50) if quick else (10_000, 1_000)
    one, each = (150, 10) if quick else (600, 40)  # appends: of the one game, of each of 100
    with tempfile.TemporaryDirectory(prefix="storage_bench") as tmp:
        single = asyncio.run(_appends_per_second(f"{tmp}/one.db", 1, one, 40))
        grouped = asyncio.run(_appends_per_second(f"{tmp}/group.db", 100, each,
                                                  2 if quick else 40))
        names = sorted(GAMES)
        distinct = [active_record(names[g % len(names)], g) for g in range(distinct_records)]
        records = [distinct[g % len(distinct)] for g in range(games)]
        start = time.perf_counter()
        asyncio.run(_populate(f"{tmp}/import.db", records))
        populate = time.perf_counter() - start
    return [
        Figure("storage", "durable appends/s, a commit per action", single, "appends/s",
               f"one game, {one} appends each awaited; WAL, synchronous=FULL"),
        Figure("storage", "durable appends/s, group commit, 100 games", grouped, "appends/s",
               f"100 games appending {each} entries each at once from one event loop"),
        Figure("storage", f"import of {games:,} active games", games / populate, "games/s",
               "replay to validate, then one executemany per log;"
               f" {distinct_records:,} distinct records"),
    ]
