"""The longest tests first: the suite's wall time on a few cores is its tests' time shared out
among the workers, unless a long test starts when the others are nearly done.

``durations.json`` holds what each test took (the tests over a second), measured on a loaded
two-core machine by ``python -m tests --store-durations [tests]``: ``tests/conftest.py``
updates the file with the tests run, at the run's end. Workers take the tests in that order,
one at a time, each holding the next while it runs one (``--dist load --maxschedchunk 1``);
so the first tests go two to a worker, and the longest are dealt out one to each worker,
each beside one of the quickest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
KEPT = 1.0  # seconds: a test that took less is left out of the file (counted as instant)


def known() -> dict[str, float]:
    """Each test's seconds, from the file (nothing if there is none)."""
    try:
        return json.loads(DURATIONS.read_text())
    except FileNotFoundError:
        return {}


def longest_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The tests by their known durations, longest first; the first ``2 * workers`` places
    alternate the ``workers`` longest with quick ones, as each worker is handed two."""
    seconds = known()
    ordered = sorted(items, key=lambda item: -seconds.get(item.nodeid, 0.0))
    if len(ordered) < 2 * workers:
        return ordered
    longest, quick = ordered[:workers], ordered[-workers:]
    start = [item for pair in zip(longest, quick, strict=True) for item in pair]
    return start + ordered[workers:-workers]


def store(durations: Iterable[tuple[str, float]]) -> None:
    """Update the file with the durations of a run (a test's setup, call and teardown
    summed)."""
    total: dict[str, float] = {}
    for nodeid, seconds in durations:
        total[nodeid] = total.get(nodeid, 0.0) + seconds
    kept = known() | {nodeid: round(s, 1) for nodeid, s in total.items()}
    kept = {nodeid: s for nodeid, s in sorted(kept.items()) if s >= KEPT}
    DURATIONS.write_text(json.dumps(kept, indent=0) + "\n")
