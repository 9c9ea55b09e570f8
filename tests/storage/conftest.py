from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "cardtable.db")


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(db_path)
    yield storage
    await storage.close()
