"""A table's time settings: turn time, reminders and the timeout policy (issue 9).

They are table settings, not engine rules: kept in the table's ``settings``
JSON, chosen with the lobby's buttons by whoever manages the lobby, and
changed during a game by the players' vote (``/timer``, callback ``t:T:key:value``).

- turn time: off, 5 min, 1 h, 12 h or 24 h for each decision;
- reminders: a private nudge at half time, and one message in the group at the end;
- on timeout: ``wait`` (nothing more), ``auto`` (the robot's timeout move: a pass in
  the auction and whisting, a sensible legal card in play) or ``robot`` (a substitute
  robot plays the seat until its player presses a button of their panel).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from bot import table_votes
from bot.answers import OK, Answer
from bot.callbacks import pack
from bot.i18n import Translate
from bot.render.screen import Button, Screen
from bot.tables import Table
from storage.rows import ACTIVE_STATUSES, UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

TURN_TIMES = (0, 300, 3600, 43200, 86400)  # seconds; 0 is no timer
POLICIES = ("wait", "auto", "robot")
KEYS = ("turn_time", "reminders", "timeout")


@dataclass(frozen=True)
class TimeSettings:
    turn_time: int = 0
    reminders: bool = True
    timeout: str = "wait"

    @classmethod
    def of(cls, settings: dict[str, Any]) -> TimeSettings:
        """The table's time settings; anything missing or unknown takes the default."""
        default = cls()
        turn_time = settings.get("turn_time", default.turn_time)
        reminders = settings.get("reminders", default.reminders)
        timeout = settings.get("timeout", default.timeout)
        return cls(turn_time if turn_time in TURN_TIMES else default.turn_time,
                   reminders if isinstance(reminders, bool) else default.reminders,
                   timeout if timeout in POLICIES else default.timeout)

    @property
    def timed(self) -> bool:
        """Whether a turn's time running out does anything at all."""
        return self.turn_time > 0 and (self.reminders or self.timeout != "wait")

    def value(self, key: str) -> Any:
        return asdict(self)[key]

    def values(self, key: str) -> tuple[Any, ...]:
        return {"turn_time": TURN_TIMES, "reminders": (True, False), "timeout": POLICIES}[key]

    def changed(self, key: str, value: Any) -> TimeSettings:
        if key not in KEYS or value not in self.values(key):
            raise ValueError(f"no time setting {key}={value!r}")
        return replace(self, **{key: value})

    def cycled(self, key: str) -> TimeSettings:
        """The setting with ``key`` at its next value (the lobby's buttons cycle)."""
        values = self.values(key)
        return self.changed(key, values[(values.index(self.value(key)) + 1) % len(values)])


def encode(value: Any) -> str:
    """A value in callback data."""
    return str(int(value)) if isinstance(value, bool | int) else str(value)


def decode(key: str, text: str) -> Any:
    if key == "reminders":
        return {"1": True, "0": False}[text]
    return int(text) if key == "turn_time" else text


def label(key: str, tr: Translate) -> str:
    return {"turn_time": tr("⏱ Turn time"), "reminders": tr("🔔 Reminders"),
            "timeout": tr("⌛ On timeout")}[key]


def value_name(key: str, value: Any, tr: Translate) -> str:
    if key == "turn_time":
        return {0: tr("off"), 300: tr("5 min"), 3600: tr("1 h"), 43200: tr("12 h"),
                86400: tr("24 h")}[value]
    if key == "reminders":
        return tr("on") if value else tr("off")
    return {"wait": tr("wait"), "auto": tr("auto move"), "robot": tr("robot plays")}[value]


def summary(settings: TimeSettings, tr: Translate) -> str:
    return " · ".join(f"{label(k, tr)}: {value_name(k, settings.value(k), tr)}" for k in KEYS)


def turn_deadline(table: Table) -> float | None:
    """When the current turn's time runs out, if a timer runs for it."""
    match = table.match
    if table.status != "playing" or match is None or table.row.timer_version != match.version:
        return None
    return table.row.timer_deadline


def time_is_up(table: Table) -> bool:
    """The current turn's time ran out and the table waits for the player (``wait``)."""
    match = table.match
    return (table.status == "playing" and match is not None and match.in_deal
            and table.row.timer_version == match.version and table.row.timer_deadline is None
            and TimeSettings.of(table.row.settings).timed)


# -- the lobby ------------------------------------------------------------------------------

def lobby_buttons(table: Table, tr: Translate) -> list[Button]:
    """One button per setting showing its value; a press moves it on (``l:T:time:key``)."""
    settings = TimeSettings.of(table.row.settings)
    return [Button(f"{label(k, tr)}: {value_name(k, settings.value(k), tr)}",
                   pack("l", table.id, "time", k)) for k in KEYS]


async def cycle_in_lobby(hub: Hub, table: Table, key: str, tr: Translate) -> Answer:
    """A lobby button (the caller checked who may press it); the table's lock is held."""
    if key not in KEYS:
        return Answer.refuse(tr("That button is not one of your choices."))
    await _store(hub, table, TimeSettings.of(table.row.settings).cycled(key))
    hub.redraw(table)
    return OK


# -- during a game: /timer and the players' vote ----------------------------------------------

def screen(table: Table, tr: Translate) -> Screen:
    """The table's time settings; during a game, a button per value to propose it."""
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


async def press(hub: Hub, table: Table, user: UserRow, parts: tuple[str, ...]) -> Answer:
    """A player proposes a value (``t:T:key:value``); the table's lock is held."""
    tr = hub.tr_user(user.id)
    current = TimeSettings.of(table.row.settings)
    try:
        key, text = parts
        wanted = current.changed(key, decode(key, text))
    except (ValueError, KeyError):
        return Answer.refuse(tr("That button is not one of your choices."))
    if table.status not in ACTIVE_STATUSES:
        return Answer.refuse(tr("This game is over."))
    seat = table.seat_of(user.id)
    if seat is None:
        return Answer.refuse(tr("Only the players of this game can do that."))
    if wanted == current:
        return Answer.note(tr("That is the setting already."))
    group_tr = hub.tr_chat(table.chat_id)
    setting = f"{label(key, group_tr)}: {value_name(key, wanted.value(key), group_tr)}"
    question = group_tr("{name} proposes: {setting}.", name=hub.who(table, seat),
                        setting=setting)

    async def change() -> None:
        now = TimeSettings.of(table.row.settings).changed(key, wanted.value(key))
        await _store(hub, table, now)
        if table.status == "playing":
            await hub.timers.rearm(table, fresh=True)
        hub.outbox.post(table.chat_id, Screen(group_tr("Time settings now: {summary}",
                                                       summary=summary(now, group_tr))))
        hub.redraw(table)

    if await table_votes.ask(hub, table, user.id, "timer", question, change):
        return Answer.note(tr("Done: nobody else had to agree."))
    return Answer.note(tr("Proposed; the other players vote."))


async def _store(hub: Hub, table: Table, settings: TimeSettings) -> None:
    table.row = await hub.storage.update_settings(
        table.id, {**table.row.settings, **asdict(settings)})
