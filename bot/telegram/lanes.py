"""Which lane an update belongs to (storage/inbox.py), from its JSON as Telegram sent it.

A group's updates go to its chat topic's lane; a button in a private chat names its
table in its callback data (bot/ui/callbacks.py), and ``/start j<table>``, ``k<table>``
or ``t<table>`` names one too: those go to that table's lane, so that one worker at a time
does everything that touches a table. Whatever else a private chat sends is its own lane.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.bounds import MAX_ID, ident
from bot.ui.callbacks import BadCallback, unpack
from storage.inbox import private_lane, table_lane

TableLane = Callable[[int], Awaitable[str | None]]  # a table's lane (None: no such table)


def _thread(message: Mapping[str, Any]) -> int:
    """As ``bot.telegram.common.thread_of``, on the JSON."""
    return int(message.get("message_thread_id") or 0) if message.get("is_topic_message") else 0


def _named_table(update: Mapping[str, Any]) -> int | None:
    """The table a private chat's update names: a button's, or a /start link's."""
    query = update.get("callback_query")
    if query is not None:
        try:
            return unpack(query.get("data")).table
        except BadCallback:
            return None
    text = (update.get("message") or {}).get("text") or ""
    command, _, payload = text.partition(" ")
    payload = payload.strip()
    if command.split("@")[0] == "/start" and payload[:1] in ("j", "k", "t"):
        return ident(payload[1:])
    return None


def sender_lane(update: Mapping[str, Any]) -> str:
    """The private lane of whoever sent an update (``p0`` if it names nobody): where an
    update goes whose own lane cannot be found."""
    for value in update.values():
        sender = value.get("from") if isinstance(value, Mapping) else None
        user_id = sender.get("id") if isinstance(sender, Mapping) else None
        if type(user_id) is int and 0 < user_id <= MAX_ID:
            return private_lane(user_id)
    return private_lane(0)


async def lane_of(update: Mapping[str, Any], table_lane_of: TableLane) -> str:
    query = update.get("callback_query")
    message = (query or {}).get("message") or update.get("message") \
        or update.get("edited_message")
    chat = (message or {}).get("chat") or (update.get("my_chat_member") or {}).get("chat") \
        or (update.get("chat_member") or {}).get("chat")
    if chat is None:
        user = (query or {}).get("from") or {}
        return private_lane(int(user.get("id", 0)))
    chat_id = int(chat["id"])
    if chat_id < 0:
        return table_lane(chat_id, _thread(message or {}))
    table = _named_table(update)
    lane = None if table is None else await table_lane_of(table)
    return lane or private_lane(chat_id)
