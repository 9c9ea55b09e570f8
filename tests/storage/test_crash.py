"""SIGKILL a writer at random moments: every acknowledged entry survives, none is doubled,
every game replays, and results are never out of step with the actions that ended deals."""

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

from bot.service import records as stored
from engine.records import replay
from storage import Storage

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 7


async def _run_and_kill(db_path: str, round_no: int, rng: random.Random) -> list[list]:
    """Start the writer, kill it after a random number of acknowledgements (or at once)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.storage.crash_writer", db_path, str(round_no),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    acks: list[list] = []
    wanted = 0 if round_no == 1 else rng.randint(1, 1500)  # round 1 dies during start-up

    async def read() -> None:
        assert proc.stdout is not None
        async for line in proc.stdout:
            acks.append(json.loads(line))

    reader = asyncio.create_task(read())
    while len(acks) < wanted and proc.returncode is None:
        await asyncio.sleep(0.002)
    await asyncio.sleep(rng.uniform(0, 0.3 if wanted == 0 else 0.02))
    assert proc.returncode is None, "the writer stopped by itself"
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    await reader
    assert proc.returncode == -signal.SIGKILL
    return acks


async def test_sigkill_loses_no_acknowledged_entry_and_doubles_none(tmp_path: Path) -> None:
    db_path = str(tmp_path / "crash.db")
    rng = random.Random(os.environ.get("CRASH_SEED", "cardtable"))
    acked: dict[tuple[int, int], tuple[str, dict]] = {}
    for round_no in range(ROUNDS):
        for table_id, seq, kind, payload in await _run_and_kill(db_path, round_no, rng):
            assert (table_id, seq) not in acked, f"entry {table_id}/{seq} acknowledged twice"
            acked[table_id, seq] = (kind, payload)
        _check_log(db_path, acked)
        await _check_replays(db_path)
    assert len(acked) > 1000 and len({t for t, _ in acked}) > 4


def _check_log(db_path: str, acked: dict[tuple[int, int], tuple[str, dict]]) -> None:
    with sqlite3.connect(db_path) as raw:
        stored = {(t, s): (k, json.loads(p)) for t, s, k, p in raw.execute(
            "SELECT table_id, seq, kind, payload FROM log_entries")}
        heads = dict(raw.execute("SELECT id, last_seq FROM game_tables"))
    for key, entry in acked.items():
        assert stored.get(key) == entry, f"acknowledged entry {key} is lost or changed"
    for table_id, last in heads.items():
        seqs = sorted(s for t, s in stored if t == table_id)
        assert seqs == list(range(1, last + 1)), f"table {table_id}: log is not 1-{last}"


async def _check_replays(db_path: str) -> None:
    """Every started table replays; its deal results and settlement match the replay."""
    async with await Storage.open(db_path) as store:
        with sqlite3.connect(db_path) as raw:
            tables = raw.execute("SELECT id, status FROM game_tables WHERE players IS NOT NULL")
            results = dict(raw.execute(
                "SELECT table_id, COUNT(*) FROM deal_results GROUP BY table_id"))
            settled = dict(raw.execute(
                "SELECT table_id, COUNT(*) FROM game_results GROUP BY table_id"))
            for table_id, status in tables.fetchall():
                match = await stored.load_match(store, table_id)  # from its snapshot
                full = replay(await store.log.record(table_id))
                assert match.report() == full.report() and match.version == full.version
                assert results.get(table_id, 0) == len(match.outputs)
                assert (status == "finished") == match.over
                assert settled.get(table_id, 0) == (len(match.players) if match.over else 0)
