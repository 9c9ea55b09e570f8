"""What a worker tends besides its own units of work: the rows of old calls pruned, the dead
workers' lanes adopted and the one-off calls they committed made, and what an outage of the
database left (bot/telegram/worker.py)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service.ports import Services
from bot.telegram import heartbeat
from bot.telegram.calls import Call
from bot.telegram.presenter import Presenter
from storage import inbox
from storage.budgets import SharedBudget
from storage.postgres import PostgresDatabase
from storage.sends import Kept, SendQueue


class Worker(Protocol):
    """What of a worker (bot/telegram/worker.py) this tends."""

    id: str
    db: PostgresDatabase
    pruned_at: float | None
    doubts: list[tuple[str, list[int]]]

    @property
    def svc(self) -> Services: ...

    @property
    def presenter(self) -> Presenter: ...

    async def in_lane(self, lane: str, work: Callable[[], Awaitable[None]], *,
                      adopt: bool) -> bool: ...


PRUNE_EVERY = 60.0  # seconds between two prunes of the shared budget's and kept calls' rows


async def tend(worker: Worker) -> None:
    """At each heartbeat: prune; adopt the dead workers' lanes and resume their kept calls,
    but not until every live worker had time to beat after an outage of the database (they
    all look dead then, and may owe marks of calls they made: ``SendQueue.done``)."""
    if worker.db.outage.back_for() > inbox.DEAD_AFTER + 2 * heartbeat.EVERY:
        await prune(worker)
        await adopt(worker)
        await resume(worker)


async def prune(worker: Worker) -> None:
    """Each ``PRUNE_EVERY`` seconds, the rows of calls older than kept are forgotten."""
    now = time.monotonic()
    if worker.pruned_at is not None and now - worker.pruned_at < PRUNE_EVERY:
        return
    worker.pruned_at = now
    outbox = worker.presenter.outbox
    if isinstance(outbox.budgets.shared, SharedBudget):
        await outbox.budgets.shared.prune()
    if isinstance(outbox.queue, SendQueue):
        await outbox.queue.prune()


async def resume(worker: Worker) -> None:
    """Make the one-off calls that dead workers committed but left unanswered."""
    queue = worker.presenter.outbox.queue
    if isinstance(queue, SendQueue):
        await _make(worker, await queue.claim(dead_after=inbox.DEAD_AFTER))


async def adopt(worker: Worker) -> None:
    """Take over the dead workers' lanes that are this worker's now and whose tables have
    work to do (the unit that takes a lane over does it: ``Worker._catch_up``)."""
    async with worker.db.reading() as conn:
        lanes = await inbox.orphans(conn, worker.id, dead_after=inbox.DEAD_AFTER)
    lane_of = {table_id: lane for lane, ids in lanes.items() for table_id in ids}
    rows = await worker.svc.store.tables.waking(list(lane_of))
    for lane in dict.fromkeys(lane_of[row.id] for row in rows):
        await worker.in_lane(lane, _taken_over, adopt=True)


async def settle(worker: Worker) -> None:
    """What an outage left, before any other unit of work: the marks of calls made
    meanwhile are written; the calls of a unit whose COMMIT went unanswered are made if
    it was committed after all (only a dead worker's are made again), its lane caught up."""
    queue = worker.presenter.outbox.queue
    if not isinstance(queue, SendQueue):
        return
    await queue.settle()
    while worker.doubts:
        lane, tokens = worker.doubts.pop(0)  # once, though a unit's own settle may run now
        try:
            kept = await queue.mine(tokens) if tokens else []
        except BaseException:
            worker.doubts.insert(0, (lane, tokens))
            raise
        await _make(worker, kept)
        await worker.in_lane(lane, _taken_over, adopt=False)


async def _make(worker: Worker, calls: list[Kept]) -> None:
    for kept in calls:
        await worker.presenter.outbox.resume(kept.chat_id, Call.of(kept.call, kept.file),
                                             kept.id, kept.age)


async def _taken_over() -> None:
    """The work of a unit that only takes its lane over (``Worker._catch_up`` did it)."""
