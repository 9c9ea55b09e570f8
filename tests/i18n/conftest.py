"""The bot fixtures (the fake Bot API) for the language tests that run the bot."""

from tests.bot.conftest import tg

__all__ = ["tg"]
