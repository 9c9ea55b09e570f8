"""Lines under the table message and the panels: who a robot plays for, until when the
player to act has, whose time is up; and on a robot-played panel the button to come back."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bot import quiet
from bot.callbacks import pack
from bot.i18n import Translate
from bot.render.screen import Button, Screen
from bot.substitutes import waiting_for
from bot.tables import Table
from bot.time_settings import time_is_up, turn_deadline

if TYPE_CHECKING:
    from bot.hub import Hub


def _until(hub: Hub, table: Table, deadline: float) -> str:
    return quiet.local_time(hub.timers.chats.get(table.chat_id), deadline, time.time())


def _waiting_players(table: Table) -> list[int]:
    state = table.match.state if table.match is not None else None
    return [] if state is None else sorted({state.controller(s) for s in waiting_for(table)})


def _with(screen: Screen, lines: list[str], rows: tuple[tuple[Button, ...], ...] = ()) -> Screen:
    if not lines:
        return screen
    return Screen(screen.text + "\n\n" + "\n".join(lines), screen.rows + rows)


def table_note(hub: Hub, table: Table, screen: Screen, tr: Translate) -> Screen:
    lines = []
    robots = sorted(table.row.robot_seats())
    if robots and table.status == "playing":
        lines.append(tr("🤖 A robot plays for {names}.",
                        names=", ".join(hub.who(table, s) for s in robots)))
    waiting = ", ".join(hub.who(table, s) for s in _waiting_players(table))
    deadline = turn_deadline(table)
    if waiting and deadline is not None:
        lines.append(tr("⏳ {names}: until {time}.", names=waiting,
                        time=_until(hub, table, deadline)))
    elif waiting and time_is_up(table):
        lines.append(tr("⏰ Waiting for {names}: the time is up.", names=waiting))
    return _with(screen, lines)


def panel_note(hub: Hub, table: Table, seat: int, screen: Screen, tr: Translate) -> Screen:
    if table.status != "playing":
        return screen
    if seat in table.row.robot_seats():
        back = Button(tr("🙋 I am back"), pack("r", table.id))
        return _with(screen, [tr("🤖 A robot plays for you. Press a button to take your "
                                 "seat back.")], ((back,),))
    deadline = turn_deadline(table)
    if seat in _waiting_players(table) and deadline is not None:
        return _with(screen, [tr("⏳ Your turn: until {time}.",
                                 time=_until(hub, table, deadline))])
    return screen
