"""Which tables changed: the Mini App is a sink of the service's ``publish`` (``published``;
with workers, each worker hears of the others' changes through PostgreSQL: ``relay``), and
each open Mini App waits for its table's next change to draw it anew."""

from __future__ import annotations

import asyncio

from bot.service.outcome import Outcome


class Watch:
    def __init__(self) -> None:
        self.ticks: dict[int, int] = {}  # table -> changes seen
        self._wakers: dict[int, asyncio.Event] = {}

    def published(self, outcome: Outcome) -> None:
        """The sink: every table the outcome shows anew has changed."""
        for table_id in outcome.changed:
            self.changed(table_id)

    def changed(self, table_id: int) -> None:
        self.ticks[table_id] = self.ticks.get(table_id, 0) + 1
        waker = self._wakers.pop(table_id, None)
        if waker is not None:
            waker.set()

    def all_changed(self) -> None:
        """Every table may have changed (changes were not heard for a while)."""
        for table_id in {*self.ticks, *self._wakers}:
            self.changed(table_id)

    def tick(self, table_id: int) -> int:
        return self.ticks.get(table_id, 0)

    async def after(self, table_id: int, tick: int, timeout: float) -> bool:
        """Wait until the table changes after ``tick``; False if ``timeout`` passed first."""
        if self.tick(table_id) != tick:
            return True
        waker = self._wakers.setdefault(table_id, asyncio.Event())
        try:
            await asyncio.wait_for(waker.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def wake_all(self) -> None:
        """Everyone waiting stops waiting (the server is stopping)."""
        for waker in self._wakers.values():
            waker.set()
        self._wakers.clear()
