"""Fixtures of the bot's end-to-end tests."""

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram, FloodLimits


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """The fake Bot API without the group flood limit (the bot's own budget is raised in
    these tests so that games run fast); the flood tests set their own limits. The bot
    provokes no 429 (a test may force one)."""
    async with FakeTelegram(flood=FloodLimits(group_chat=None)) as fake:
        yield fake
        assert not fake.world.flood.refused, f"{fake.world.flood.refused} calls answered 429"
