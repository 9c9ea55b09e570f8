"""A single process's calls to groups kept for after a restart (storage/budgets.py), on both
backends: those of the last period are known by how long ago they were made, and old rows go
at the group's next call or at ``prune``."""

from __future__ import annotations

import pytest

from storage import NotFound, Storage
from storage.budgets import IN_FLIGHT_POLL, KEEP, GroupCalls, SharedBudget
from storage.sql import POSTGRES
from tests.postgres import LazyServer
from tests.storage.conftest import rows
from tests.storage.play import started_table

GROUP = -1001
OTHER = -1002


async def _made_long_ago(store: Storage, chat_id: int) -> None:
    await store.db.write(lambda conn: conn.execute(
        f"INSERT INTO chat_calls (chat_id, at) VALUES (?, {conn.dialect.now} - ?)",
        (chat_id, KEEP + 1)))


async def test_the_calls_of_the_last_period_by_how_long_ago(store: Storage) -> None:
    calls = GroupCalls(store.db)
    await _made_long_ago(store, GROUP)
    for chat_id in (GROUP, OTHER, GROUP):
        await calls.made(chat_id)
    recent = await calls.recent(60.0)
    assert sorted(recent) == [OTHER, GROUP] and len(recent[GROUP]) == 2
    oldest, newest = recent[GROUP]
    assert 60.0 > oldest >= newest >= 0.0


async def test_old_calls_go_at_the_group_s_next_call_or_at_prune(store: Storage) -> None:
    calls = GroupCalls(store.db)
    for chat_id in (GROUP, OTHER):
        await _made_long_ago(store, chat_id)
    await calls.made(GROUP)
    assert await rows(store, "SELECT chat_id FROM chat_calls ORDER BY chat_id DESC") == [
        (GROUP,), (OTHER,)]  # the group's new call, the other group's old one
    await calls.prune()
    assert await rows(store, "SELECT chat_id FROM chat_calls") == [(GROUP,)]


async def test_shared_calls_count_from_their_answer_told_alone_or_with_what_they_showed(
        postgres: LazyServer) -> None:
    """Several workers (PostgreSQL): a call taken from a chat's shared budget counts as in
    flight until the answer is told, alone or in the statement that stores what the call
    showed; a store refused (no such seat) tells nothing."""
    store = await Storage.open(await postgres.new_database())
    in_flight = f"SELECT id FROM chat_calls WHERE at > {POSTGRES.now} ORDER BY id"
    try:
        table = await started_table(store, GROUP, "preferans", {}, [1, 2, 3])
        budget = SharedBudget(store.db)
        first, second, third = [(await budget.take(GROUP, 3, 60.0))[0] for _ in range(3)]
        assert await budget.take(GROUP, 3, 60.0) == (None, IN_FLIGHT_POLL)  # all in flight
        await budget.answered([first])
        await store.tables.set_shown(table.id, 0, 77, "d0", answered=[second])
        with pytest.raises(NotFound):
            await store.tables.set_shown(table.id, 5, 78, "d5", answered=[third])
        assert await rows(store, in_flight) == [(third,)]
        seat = (await store.tables.get_table(table.id)).seats[0]
        assert (seat.panel_message_id, seat.shown_digest) == (77, "d0")
    finally:
        await store.close()
