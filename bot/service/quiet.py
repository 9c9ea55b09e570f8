"""Quiet hours of a chat: no ping from the bot's timers at night in the chat's time zone.

A chat keeps its time zone and quiet hours (``"23:00-08:00"``, across midnight
when the end comes first) in storage. During quiet hours the timers' messages
(reminders, notes of a timeout) are sent without a notification sound; moves
and timeouts go on as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.service.outcome import Outcome
from storage.errors import BadInput
from storage.rows import ChatRow

if TYPE_CHECKING:
    from bot.service.ports import Services

OFF = ("off", "none", "-")


def zone(chat: ChatRow | None) -> tzinfo:
    """The chat's time zone (UTC until one is set)."""
    return ZoneInfo(chat.time_zone) if chat is not None and chat.time_zone else UTC


def zone_name(chat: ChatRow | None) -> str:
    return chat.time_zone if chat is not None and chat.time_zone else "UTC"


def is_quiet(chat: ChatRow | None, now: float) -> bool:
    """Whether ``now`` (Unix seconds) falls in the chat's quiet hours."""
    if chat is None or not chat.quiet_hours:
        return False
    start, end = (time.fromisoformat(part) for part in chat.quiet_hours.split("-"))
    local = datetime.fromtimestamp(now, zone(chat)).time()
    if start <= end:
        return start <= local < end
    return local >= start or local < end


@dataclass(frozen=True)
class QuietAnswer:
    """What ``/quiet`` answers: the chat's setting, or a refusal (``outcome``); ``shown``:
    whether the answer is the setting as it was (no change asked)."""

    outcome: Outcome
    chat: ChatRow | None
    shown: bool = False


async def command(svc: Services, chat_id: int, args: list[str]) -> QuietAnswer:
    """``/quiet`` shows the setting; ``/quiet 23:00-08:00 [Europe/Moscow]`` sets it (and the
    time zone); ``/quiet off`` ends it; ``/quiet Europe/Moscow`` sets the zone alone."""
    if not args:
        return QuietAnswer(Outcome(), await svc.store.chats.get_chat(chat_id), shown=True)
    if len(args) > 2:
        return QuietAnswer(Outcome().refuse("quiet_example"), None)
    hours = args[0] if args[0][:1].isdigit() or args[0].lower() in OFF else None
    name = args[-1] if len(args) == 2 or hours is None else None
    changes: dict[str, Any] = {}
    if hours is not None:
        changes["quiet_hours"] = None if hours.lower() in OFF else hours
    if name is not None:
        changes["time_zone"] = name
    try:
        chat = await svc.store.chats.save_chat(chat_id, **changes)
    except BadInput:
        return QuietAnswer(Outcome().refuse("quiet_unreadable"), None)
    svc.users.chats[chat_id] = chat
    return QuietAnswer(Outcome(), chat)
