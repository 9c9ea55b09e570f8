"""Fixtures of the bot's end-to-end tests."""

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """The fake Bot API with Telegram's limits; the bot runs at its production budgets and
    provokes no 429 (a test may force one)."""
    async with FakeTelegram() as fake:
        yield fake
        assert not fake.world.flood.refused, f"{fake.world.flood.refused} calls answered 429"
