"""Fixtures shared by the test packages; the longest tests first (tests/timing.py)."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests import timing
from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer

_durations: list[tuple[str, float]] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-durations", action="store_true",
                     help="update tests/durations.json with what each test run took")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount")
    if workers:
        items[:] = timing.longest_first(items, workers)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _durations.append((report.nodeid, report.duration))


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if config.getoption("store_durations") and not hasattr(config, "workerinput"):
        timing.store(_durations)


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A fake Telegram Bot API server on a free loopback port (see tests/fakebot)."""
    async with FakeTelegram() as tg:
        yield tg


@pytest.fixture(scope="session")
def postgres() -> Iterator[LazyServer]:
    """This test process's PostgreSQL server (tests/postgres.py), started on first use."""
    server = LazyServer()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def location(request: pytest.FixtureRequest, tmp_path: Path,
                   postgres: LazyServer) -> str:
    """A new database of each backend: a SQLite file, or a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "cardtable.db")
    return await postgres.new_database()
