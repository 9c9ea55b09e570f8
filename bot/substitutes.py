"""Substitute robots at the table (issue 9): who is away, the robot's moves, coming back.

The robots are the engine's (``engine/<game>/robot``): ``choose(view, rules, rng)``
for a seat a robot plays, ``auto_action(view, rules)`` for a one-off timeout move.
Both read only the deciding seat's view. Their moves go through ``play.act`` like a
player's and are stored as the robot's (``robot=True`` with the seat's user), so
/history and the statistics mark them. A robot plays a seat until its player
presses a button of their panel; if every player would be away, the game pauses
instead (robots alone would play it out in a moment).
"""

from __future__ import annotations

import logging
import random
from types import ModuleType
from typing import TYPE_CHECKING

from bot import pause, play, table_votes
from bot.answers import Answer
from bot.render.screen import Screen
from bot.tables import Table
from bot.time_settings import time_is_up
from engine.joker import robot as joker_robot
from engine.preferans import robot as preferans_robot
from engine.seep import robot as seep_robot
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)

ROBOTS: dict[str, ModuleType] = {
    "preferans": preferans_robot, "joker": joker_robot, "seep": seep_robot}


def robot_turn(table: Table) -> int | None:
    """The seat to act now whose player a robot stands in for."""
    state = table.match.state if table.match is not None else None
    if state is None or state.finished:
        return None
    robots = table.row.robot_seats()
    return next((s for s in state.to_act if state.controller(s) in robots), None)


def waiting_for(table: Table) -> list[int]:
    """The seats to act now whose players are at the table (no robot stands in)."""
    state = table.match.state if table.match is not None else None
    if state is None or state.finished:
        return []
    robots = table.row.robot_seats()
    return [s for s in state.to_act if state.controller(s) not in robots]


def waiting_users(table: Table) -> list[int]:
    assert table.match is not None and table.match.state is not None
    state = table.match.state
    return [u for s in waiting_for(table) if (u := table.user_of(state.controller(s)))]


def away_seats(table: Table) -> list[int]:
    """Players' seats that are away: a robot plays them, or their turn's time ran out."""
    away = set(table.row.robot_seats())
    if time_is_up(table):
        assert table.match is not None and table.match.state is not None
        away.update(table.match.state.controller(s) for s in waiting_for(table))
    return sorted(away)


async def robot_move(hub: Hub, table: Table, seat: int, *, timeout: bool) -> Answer:
    """The robot's action for ``seat`` (``timeout``: its one-off timeout move), applied and
    stored as the robot's. The table's lock is held."""
    match = table.match
    assert match is not None and match.state is not None
    player = match.state.controller(seat)
    user_id = table.user_of(player)
    assert user_id is not None
    robot = ROBOTS[table.row.game]
    view = match.state.view(player)
    action = (robot.auto_action(view, match.rules) if timeout
              else robot.choose(view, match.rules, random.Random()))
    answer = await play.act(hub, table, user_id, match.version, seat, action, robot=True)
    if answer.alert:
        log.warning("table %s: the robot's %s for seat %s was refused: %s", table.id, action,
                    seat, answer.text)
    return answer


async def stand_in(hub: Hub, table: Table, seat: int) -> bool:
    """A robot starts playing ``seat``; False (and the game paused) if nobody would be left."""
    user_id = table.user_of(seat)
    if not table_votes.present_players(table, besides=frozenset({user_id or 0})):
        tr = hub.tr_chat(table.chat_id)
        await pause.set_paused(hub, table, True, tr(
            "⏸ Everybody is away, so the game is paused. /resume when you are back."))
        return False
    table.row = await hub.storage.set_robot(table.id, seat, True)
    return True


async def take_back(hub: Hub, table: Table, user_id: int) -> bool:
    """The player is back: the robot leaves their seat. False if no robot played it.
    The table's lock is held."""
    seat = table.seat_of(user_id)
    if seat is None or seat not in table.row.robot_seats() or table.status not in (
            "playing", "paused"):
        return False
    table.row = await hub.storage.set_robot(table.id, seat, False)
    tr = hub.tr_chat(table.chat_id)
    hub.outbox.post(table.chat_id, Screen(tr("🙋 {name} is back and plays again.",
                                             name=hub.who(table, seat))))
    await hub.timers.rearm(table)
    hub.redraw(table)
    return True


async def back_press(hub: Hub, table: Table, user: UserRow) -> Answer:
    """The panel's "I am back" button (``r:T``); the table's lock is held."""
    tr = hub.tr_user(user.id)
    if table.seat_of(user.id) is None:
        return Answer.refuse(tr("You are not playing at this table."))
    if await take_back(hub, table, user.id):
        return Answer.note(tr("Welcome back: you play your seat again."))
    return Answer.note(tr("You are playing your seat already."))
