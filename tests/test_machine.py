"""python -m tests finds Chromium and PostgreSQL where the system put them, and names the one
command to run when it cannot install what is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import __main__ as run_tests
from tests.machine import find_chromium, missing


def executable(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_chromium_is_found_on_the_path_or_where_the_setting_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYWRIGHT_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_chromium() is None
    assert "chromium" in missing()
    ubuntu = executable(tmp_path, "chromium-browser")
    assert find_chromium() == str(ubuntu)
    monkeypatch.setenv("PLAYWRIGHT_CHROMIUM", "/opt/chrome/chrome")
    assert find_chromium() == "/opt/chrome/chrome"


def test_postgresql_is_found_by_pg_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYWRIGHT_CHROMIUM", "/usr/bin/chromium")
    monkeypatch.setenv("PG_BIN", str(tmp_path))
    assert missing() == []


def test_a_user_who_is_not_root_is_told_the_one_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("PLAYWRIGHT_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert run_tests.main(["--co"]) == 1
    told = capsys.readouterr().err
    assert "sudo apt-get update && sudo apt-get install -y chromium" in told


def test_four_workers_a_core_unless_the_arguments_say(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert run_tests.workers(["tests/bot"]) == ["-n", "8"]
    assert run_tests.workers(["-n", "2", "tests/bot"]) == []
    assert run_tests.workers(["--numprocesses=3"]) == []
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)))
    assert run_tests.workers([]) == ["-n", str(run_tests.MAX_WORKERS)]
