"""A single process's calls to groups kept for after a restart (storage/budgets.py), on both
backends: those of the last period are known by how long ago they were made, and old rows go
at the group's next call or at ``prune``."""

from __future__ import annotations

from storage import Storage
from storage.budgets import KEEP, GroupCalls
from tests.storage.conftest import rows

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
