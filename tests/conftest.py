"""Fixtures shared by the test packages."""

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A fake Telegram Bot API server on a free loopback port (see tests/fakebot)."""
    async with FakeTelegram() as tg:
        yield tg
