"""What one update costs a worker in SQL on PostgreSQL: every statement a worker's connections
run while it does the presses of a Preferans deal and sends what they showed, counted by
asyncpg's query logger on each connection of its pool (transaction control apart), the calls
to chats the presses make included (how many depends on the outbox's folding)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import asyncpg
import pytest

from bench.bot_bench import next_move
from bot.telegram.worker import Worker
from bot.ui.callbacks import action_data
from storage import postgres
from tests.bot.test_handover import open_with, two_workers
from tests.bot.test_workers import Played
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer

PRESSES = 12
# Statements an update may cost, everything counted: the unit of work (claim, reads, writes,
# the press's answer kept and marked done) and the calls to chats it makes (each its budget,
# its lane's hold, its answer, the digest of the screen it shows) (issue 30: from ~32).
PER_UPDATE = 12
# Transaction control: round trips, but no statement of the work.
_CONTROL = re.compile(r"(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT)\b")


async def _press(tg: FakeTelegram, played: Played, worker: Worker) -> None:
    """The player to act presses his first legal action; ``worker``, alone live, does it,
    having beaten once (counted: more often than each second, as a worker beats)."""
    await worker.beat()
    (table,) = worker.svc.tables.values()
    move = next_move(worker.app.bot_data, table.id)
    assert move is not None
    version, seat, player, action = move
    user = played.users[player]
    query = tg.press_nowait(user, tg.last_message(user),
                            data=action_data(table.id, version, seat, action), forge=True)
    await tg.idle()
    assert await worker.step()
    assert not (await tg.answer_to(query)).show_alert


@contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Inside: the statements of each pool opened from now on (in the order they were
    opened), in order."""
    pools: list[list[str]] = []
    create_pool = asyncpg.create_pool

    async def init(run: list[str], raw: asyncpg.Connection) -> None:
        raw.add_query_logger(lambda query: run.append(query.query))

    def counting(*args: Any, **kwargs: Any) -> Any:
        pools.append([])
        return create_pool(*args, init=partial(init, pools[-1]), **kwargs)

    monkeypatch.setattr(postgres.asyncpg, "create_pool", counting)
    yield pools


async def test_an_update_costs_a_worker_few_statements(
        tg: FakeTelegram, postgres: LazyServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = await postgres.new_database()
    users = [tg.add_user(f"p{i}") for i in range(3)]
    played = Played("preferans", tg.add_group("preferans", users), users)
    with _counted(monkeypatch) as pools:
        async with two_workers(tg, url) as (a, _):
            run = pools[0]  # worker a's (b's is the second, the receiver's the third)
            await open_with(tg, played, a)
            await tg.settled()
            before = len(run)
            for _ in range(PRESSES):
                await _press(tg, played, a)
            await tg.settled()
            statements = run[before:]
    work = [s for s in statements if not _CONTROL.match(s)]
    calls = sum("take_call" in s for s in work)
    said = (f"{len(work) / PRESSES:.1f} statements an update ({len(statements) / PRESSES:.1f}"
            f" round trips), {calls} calls to chats")
    print(said, *work, sep="\n")
    assert len(work) <= PER_UPDATE * PRESSES, said
