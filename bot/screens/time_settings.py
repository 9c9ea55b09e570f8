"""Time settings as players read them: in the lobby's buttons, /timer, the table's notes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.service.lobby import shown_index
from bot.service.quiet import zone, zone_name
from bot.service.tables import Table
from bot.service.time_settings import KEYS, TimeSettings, encode
from bot.ui.callbacks import pack
from bot.ui.i18n import Translate
from bot.ui.screen import Button, Screen
from storage.rows import ChatRow


def label(key: str, tr: Translate) -> str:
    return {"turn_time": tr("⏱ Turn time"), "reminders": tr("🔔 Reminders"),
            "timeout": tr("⌛ On timeout"), "ping": tr("📨 New message after")}[key]


def value_name(key: str, value: Any, tr: Translate) -> str:
    if key == "turn_time":
        return {0: tr("off"), 300: tr("5 min"), 3600: tr("1 h"), 43200: tr("12 h"),
                86400: tr("24 h")}[value]
    if key == "reminders":
        return tr("on") if value else tr("off")
    if key == "ping":
        return {60: tr("1 min idle"), 30: tr("30 s idle"), 300: tr("5 min idle"),
                0: tr("never")}[value]
    return {"wait": tr("wait"), "auto": tr("auto move"), "robot": tr("robot plays")}[value]


def setting_text(key: str, value: Any, tr: Translate) -> str:
    """``⏱ Turn time: 5 min``."""
    return f"{label(key, tr)}: {value_name(key, value, tr)}"


def summary(settings: TimeSettings, tr: Translate) -> str:
    return " · ".join(setting_text(k, settings.value(k), tr) for k in KEYS)


def lobby_buttons(table: Table, tr: Translate) -> list[Button]:
    """One button per setting showing its value; a press moves it on from the value shown
    (``l:T:time:key:i``, see ``lobby.shown_index``)."""
    settings = TimeSettings.of(table.row.settings)
    return [Button(setting_text(k, settings.value(k), tr),
                   pack("l", table.id, "time", k,
                        shown_index(settings.values(k), settings.value(k)))) for k in KEYS]


def screen(table: Table, tr: Translate) -> Screen:
    """``/timer``: the table's time settings; during a game, a button per value to propose it."""
    settings = TimeSettings.of(table.row.settings)
    lines = [tr("<b>Time settings</b>"), summary(settings, tr)]
    if table.status == "lobby":
        lines.append(tr("Change them with the lobby's buttons."))
        return Screen("\n".join(lines))
    lines.append(tr("A player proposes a change with a button; the other players vote."))
    rows = tuple(tuple(Button(("• " if v == settings.value(k) else "") + value_name(k, v, tr),
                              pack("t", table.id, k, encode(v)))
                       for v in settings.values(k)) for k in KEYS)
    return Screen("\n".join(lines), rows)


def time_left(seconds: float, tr: Translate) -> str:
    """``6 h`` or ``25 min`` (at least a minute)."""
    if seconds >= 3600:
        return tr("{n} h", n=round(seconds / 3600))
    return tr("{n} min", n=max(1, round(seconds / 60)))


def local_time(chat: ChatRow | None, moment: float, now: float) -> str:
    """``moment`` as a ``date_time`` entity (HTML): each reader's app shows it in their own
    time zone; its text, for older apps, is the chat's clock: ``14:35``, or ``06.01 14:35``
    on another day, with the zone's name."""
    tz = zone(chat)
    when, today = datetime.fromtimestamp(moment, tz), datetime.fromtimestamp(now, tz)
    same_day = when.date() == today.date()
    shown = when.strftime("%H:%M" if same_day else "%d.%m %H:%M")
    return (f'<tg-time unix="{int(moment)}" format="{"t" if same_day else "dt"}">'
            f"{shown} {zone_name(chat)}</tg-time>")


def quiet_text(chat: ChatRow | None, tr: Translate) -> str:
    """A chat's quiet hours, as ``/quiet`` tells them."""
    if chat is None or not chat.quiet_hours:
        return tr("No quiet hours (time zone {zone}).", zone=zone_name(chat))
    return tr("Quiet hours: {hours} ({zone}). Timer messages make no sound then.",
              hours=chat.quiet_hours, zone=zone_name(chat))
