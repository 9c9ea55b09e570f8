"""Quiet hours of a chat: no ping from the bot's timers at night in the chat's time zone.

A chat keeps its time zone and quiet hours (``"23:00-08:00"``, across midnight
when the end comes first) in storage. During quiet hours the timers' messages
(reminders, notes of a timeout) are sent without a notification sound; moves
and timeouts go on as usual.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.i18n import Translate
from storage.errors import BadInput
from storage.rows import ChatRow

if TYPE_CHECKING:
    from bot.hub import Hub

OFF = ("off", "none", "-")


def zone(chat: ChatRow | None) -> tzinfo:
    """The chat's time zone (UTC until one is set)."""
    return ZoneInfo(chat.time_zone) if chat is not None and chat.time_zone else UTC


def is_quiet(chat: ChatRow | None, now: float) -> bool:
    """Whether ``now`` (Unix seconds) falls in the chat's quiet hours."""
    if chat is None or not chat.quiet_hours:
        return False
    start, end = (time.fromisoformat(part) for part in chat.quiet_hours.split("-"))
    local = datetime.fromtimestamp(now, zone(chat)).time()
    if start <= end:
        return start <= local < end
    return local >= start or local < end


def zone_name(chat: ChatRow | None) -> str:
    return chat.time_zone if chat is not None and chat.time_zone else "UTC"


def local_time(chat: ChatRow | None, moment: float, now: float) -> str:
    """``moment`` as the chat's clock shows it: ``14:35``, or ``06.01 14:35`` on another day,
    with the zone's name."""
    tz = zone(chat)
    when, today = datetime.fromtimestamp(moment, tz), datetime.fromtimestamp(now, tz)
    shown = when.strftime("%H:%M" if when.date() == today.date() else "%d.%m %H:%M")
    return f"{shown} {zone_name(chat)}"


def describe(chat: ChatRow | None, tr: Translate) -> str:
    if chat is None or not chat.quiet_hours:
        return tr("No quiet hours (time zone {zone}).", zone=zone_name(chat))
    return tr("Quiet hours: {hours} ({zone}). Timer messages make no sound then.",
              hours=chat.quiet_hours, zone=zone_name(chat))


async def command(hub: Hub, chat_id: int, args: list[str], tr: Translate) -> str:
    """``/quiet`` shows the setting; ``/quiet 23:00-08:00 [Europe/Moscow]`` sets it (and the
    time zone); ``/quiet off`` ends it; ``/quiet Europe/Moscow`` sets the zone alone."""
    if not args:
        return describe(await hub.storage.get_chat(chat_id), tr) + "\n" + tr(
            "Change: /quiet 23:00-08:00 Europe/Moscow, or /quiet off.")
    if len(args) > 2:
        return tr("Example: /quiet 23:00-08:00 Europe/Moscow")
    hours = args[0] if args[0][:1].isdigit() or args[0].lower() in OFF else None
    zone_name = args[-1] if len(args) == 2 or hours is None else None
    changes: dict[str, Any] = {}
    if hours is not None:
        changes["quiet_hours"] = None if hours.lower() in OFF else hours
    if zone_name is not None:
        changes["time_zone"] = zone_name
    try:
        chat = await hub.storage.save_chat(chat_id, **changes)
    except BadInput:
        return tr("I cannot read that. Example: /quiet 23:00-08:00 Europe/Moscow (hours as "
                  "HH:MM-HH:MM, a time zone as Region/City), or /quiet off.")
    hub.timers.chats[chat_id] = chat
    return describe(chat, tr)
