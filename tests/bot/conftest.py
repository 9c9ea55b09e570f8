"""Fixtures of the bot's end-to-end tests."""

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram
from tests.fakebot.flood import FloodLimits


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API with Telegram's limits; the bot runs at its production budgets and
    provokes no 429 (a test may force one). A test marked ``group_minute(seconds)`` has the
    groups' minute last that long, on both sides (a sped-up clock for what waits on a
    group's budget; the limits themselves are Telegram's)."""
    marker = request.node.get_closest_marker("group_minute")
    flood = None if marker is None else FloodLimits.group_minute(marker.args[0])
    async with FakeTelegram(flood=flood) as fake:
        yield fake
        assert not fake.world.flood.refused, f"{fake.world.flood.refused} calls answered 429"
