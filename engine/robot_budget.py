"""How much thought one robot decision gets: a number of sampled deals, and a clock.

The Monte-Carlo robots deal the cards their seat has not seen, solve each deal
with every card open, and average. More deals decide better and take longer;
the clock keeps a decision short on a loaded machine, and ``seconds=None``
makes the decision depend on the random generator alone. The clock is the wall
clock (a player waits for the robot); a benchmark sharing its machine may count
the thread's CPU time instead (``time.thread_time``), so that its robots think
as long as on a core of their own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
FEWEST = 2  # deals looked at whatever the clock says


@dataclass(frozen=True)
class Budget:
    """At most ``samples`` deals, and none that would end after ``seconds``."""

    samples: int = 24
    seconds: float | None = 0.3
    clock: Callable[[], float] = time.perf_counter

    def deals(self, deal: Callable[[random.Random], T | None], rng: random.Random,
              hidden: bool = True) -> Iterator[T]:
        """Deals from ``deal`` (None: no deal fits, stop); one when nothing is ``hidden``.
        The time spent between two deals is the caller's work on the last one."""
        start = self.clock()
        for number in range(self.samples if hidden else 1):
            spent = self.clock() - start
            # Stop when the next deal, as long as the average one, would end past the time.
            if (number >= FEWEST and self.seconds is not None
                    and spent * (number + 1) / number > self.seconds):
                return
            sample = deal(rng)
            if sample is None:
                return
            yield sample


DEFAULT = Budget()
