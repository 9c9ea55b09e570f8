"""Fixtures shared by the test packages."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.fakebot import FakeTelegram
from tests.postgres import LazyServer


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
