"""A fake Telegram Bot API server for end-to-end tests of the bot.

The bot talks to it through PTB's real HTTP stack (base_url / base_file_url).
Typical use, with the `fake_telegram` fixture of tests/conftest.py::

    alice = tg.add_user("Alice", username="alice")
    group = tg.add_group("Table", [alice])            # the bot is already a member
    async with running(tg, application_builder(tg).build()):   # tests.fakebot.ptb
        tg.send(alice, group, "/newgame")              # an update for the bot
        await tg.idle()                                # it has handled everything
        answer = await tg.press(alice, tg.last_message(group), text="Join")
        tg.follow(alice, answer.url)                   # /start PAYLOAD in private
        await tg.idle()
    tg.messages(group), tg.calls_for("editMessageText", group), tg.seen_by(alice)

Modules: harness (FakeTelegram: users, actions, inspection, idle), server (HTTP,
dispatch, flood control, webhook delivery), world (the state and its rules),
methods/ (one module per group of Bot API methods), model (users, chats,
messages and their API shapes), formatting (HTML parse mode, entities, text
limits), keyboards (reply markup limits), flood (429 windows), errors (the real
server's error answers), params (request decoding), ptb (running a PTB
Application against the fake).
"""

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
