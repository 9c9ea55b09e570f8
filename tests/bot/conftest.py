"""Fixtures of the bot's end-to-end tests."""

from collections.abc import AsyncIterator

import pytest

from tests.fakebot import FakeTelegram
from tests.fakebot.flood import FloodLimits


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API with Telegram's limits; the bot runs at its production budgets and
    provokes no 429 (a test may force one). A test marked ``telegram_clock(speed)`` has the
    chats' flood windows pass that many times faster, on both sides (a sped-up clock for what
    waits on a chat's budget; the limits themselves are Telegram's)."""
    marker = request.node.get_closest_marker("telegram_clock")
    flood = None if marker is None else FloodLimits.sped_up(marker.args[0])
    async with FakeTelegram(flood=flood) as fake:
        yield fake
        assert not fake.world.flood.refused, f"{fake.world.flood.refused} calls answered 429"
