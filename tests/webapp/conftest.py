"""Fixtures of the Mini App's tests: the fake Bot API as the bot's end-to-end tests use it."""

from tests.bot.conftest import tg

__all__ = ["tg"]
