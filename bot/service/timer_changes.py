"""Time settings during a game: a player proposes a value, the other players vote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import events, votes
from bot.service.outcome import Outcome
from bot.service.tables import Table
from bot.service.time_settings import TimeSettings, decode, store
from storage.rows import ACTIVE_STATUSES, UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def propose(svc: Services, table: Table, user: UserRow, parts: tuple[str, ...]) -> Outcome:
    """A player proposes a value (``key``, ``value`` as callback text); the lock is held."""
    out = Outcome()
    current = TimeSettings.of(table.row.settings)
    try:
        key, text = parts
        wanted = current.changed(key, decode(key, text))
    except (ValueError, KeyError):
        return out.refuse("bad_button")
    if table.status not in ACTIVE_STATUSES:
        return out.refuse("game_ended")
    if table.seat_of(user.id) is None:
        return out.refuse("players_only")
    if wanted == current:
        return out.done("setting_already")
    asked = await votes.ask(svc, table, user.id, "timer",
                            {"key": key, "value": wanted.value(key)}, out)
    if asked is None:
        return out
    if asked:
        await change(svc, table, key, wanted.value(key), out)
        return out.done("done_alone")
    return out.done("proposed")


async def change(svc: Services, table: Table, key: str, value: object, out: Outcome) -> None:
    now = TimeSettings.of(table.row.settings).changed(key, value)
    await store(svc, table, now)
    if table.status == "playing":
        await svc.timers.rearm(table, fresh=True)
    out.tell(events.TimeSettingsChanged(table, dict(table.row.settings)))
    out.redraw(table)
