"""Links to a group's messages, as Telegram makes them (t.me)."""

from __future__ import annotations

SUPERGROUPS = -10**12  # a supergroup's chat id is -100 followed by its own id: below this


def message_link(chat_id: int, message_id: int | None, *, thread_id: int = 0,
                 username: str | None = None) -> str | None:
    """A link that opens a group's message: by a public group's username, else by the
    supergroup's own id (its chat id without -100); in a forum topic, with the topic. None
    for a basic group (its messages have no links) or a message not posted yet."""
    if message_id is None or chat_id > SUPERGROUPS:
        return None
    place = username or f"c/{SUPERGROUPS - chat_id}"
    topic = f"/{thread_id}" if thread_id else ""
    return f"https://t.me/{place}{topic}/{message_id}"
