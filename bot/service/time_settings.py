"""A table's time settings: turn time, reminders and the timeout policy (issue 9).

They are table settings, not engine rules: kept in the table's ``settings``
JSON, chosen in the lobby by whoever manages it, and changed during a game by
the players' vote.

- turn time: off, 5 min, 1 h, 12 h or 24 h for each decision;
- reminders: a private nudge at half time, and one message in the group at the end;
- on timeout: ``wait`` (nothing more), ``auto`` (the robot's timeout move: a pass in
  the auction and whisting, a sensible legal card in play) or ``robot`` (a substitute
  robot plays the seat until its player presses a button of their panel);
- ping: a player whose turn comes after this many seconds without a press gets his
  panel as a new message, which notifies him (0: never); one who plays on gets edits.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.service.tables import Table

if TYPE_CHECKING:
    from bot.service.ports import Services

TURN_TIMES = (0, 300, 3600, 43200, 86400)  # seconds; 0 is no timer
POLICIES = ("wait", "auto", "robot")
PINGS = (60, 30, 300, 0)  # seconds without a press after which a turn notifies; 0: never
KEYS = ("turn_time", "reminders", "timeout", "ping")


@dataclass(frozen=True)
class TimeSettings:
    turn_time: int = 0
    reminders: bool = True
    timeout: str = "wait"
    ping: int = 60

    @classmethod
    def of(cls, settings: dict[str, Any]) -> TimeSettings:
        """The table's time settings; anything missing or unknown takes the default."""
        default = cls()
        turn_time = settings.get("turn_time", default.turn_time)
        reminders = settings.get("reminders", default.reminders)
        timeout = settings.get("timeout", default.timeout)
        ping = settings.get("ping", default.ping)
        return cls(turn_time if turn_time in TURN_TIMES else default.turn_time,
                   reminders if isinstance(reminders, bool) else default.reminders,
                   timeout if timeout in POLICIES else default.timeout,
                   ping if ping in PINGS else default.ping)

    @property
    def timed(self) -> bool:
        """Whether a turn's time running out does anything at all."""
        return self.turn_time > 0 and (self.reminders or self.timeout != "wait")

    def value(self, key: str) -> Any:
        return asdict(self)[key]

    @staticmethod
    def values(key: str) -> tuple[Any, ...]:
        return {"turn_time": TURN_TIMES, "reminders": (True, False), "timeout": POLICIES,
                "ping": PINGS}[key]

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
    return int(text) if key in ("turn_time", "ping") else text


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


async def store(svc: Services, table: Table, settings: TimeSettings) -> None:
    table.row = await svc.store.tables.update_settings(
        table.id, {**table.row.settings, **asdict(settings)})
