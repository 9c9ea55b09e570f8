"""A fake Telegram Bot API server for end-to-end tests of the bot (see harness.FakeTelegram)."""

from tests.fakebot.errors import ApiError
from tests.fakebot.flood import EDITS, SENDS, FloodLimits, Limit
from tests.fakebot.harness import FakeTelegram
from tests.fakebot.model import ApiCall, CallbackAnswer, Chat, Message, User

__all__ = [
    "EDITS",
    "SENDS",
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "Chat",
    "FakeTelegram",
    "FloodLimits",
    "Limit",
    "Message",
    "User",
]
