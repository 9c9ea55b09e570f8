"""The longest tests first, one to each worker, each beside a quick one (tests/timing.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import timing


def items(*names: str) -> list[Any]:
    return [SimpleNamespace(nodeid=name) for name in names]


def test_the_longest_are_dealt_one_to_each_worker(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "DURATIONS", tmp_path / "durations.json")
    timing.DURATIONS.write_text(json.dumps({"a": 90.0, "b": 60.0, "c": 30.0, "d": 5.0}))
    ordered = timing.longest_first(items("q1", "d", "q2", "c", "a", "q3", "b"), 2)
    # each worker is handed two tests at first: the longest and a quick one
    assert [i.nodeid for i in ordered] == ["a", "q2", "b", "q3", "c", "d", "q1"]
    assert [i.nodeid for i in timing.longest_first(items("q1", "a", "b"), 2)] == ["a", "b", "q1"]


def test_a_run_updates_the_durations_it_measured(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "DURATIONS", tmp_path / "durations.json")
    assert timing.known() == {}
    timing.DURATIONS.write_text(json.dumps({"a": 90.0, "b": 60.0}))
    timing.store([("b", 0.5), ("b", 20.0), ("b", 0.1), ("c", 0.3), ("d", 2.0)])
    assert timing.known() == {"a": 90.0, "b": 20.6, "d": 2.0}
