"""Bot API method handlers; importing this package registers them all."""

from tests.fakebot.methods import callbacks, chats, commands, messages, updates

__all__ = ["callbacks", "chats", "commands", "messages", "updates"]
