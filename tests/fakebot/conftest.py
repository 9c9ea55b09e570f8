"""Fixtures of the fake server's own tests."""

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from tests.fakebot import FakeTelegram


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    """A plain PTB Bot (no Application) talking to the fake server."""
    async with Bot(
        fake_telegram.token,
        base_url=fake_telegram.base_url,
        base_file_url=fake_telegram.base_file_url,
    ) as bot:
        yield bot


@pytest.fixture
def tg(fake_telegram: FakeTelegram) -> FakeTelegram:
    return fake_telegram
