"""Substitute robots at the table (issue 9): who is away, the robot's moves, coming back.

The robots are the engines' (``GameSpec.robot``): ``choose(view, rules, rng)`` for
a seat a robot plays, ``auto_action(view, rules)`` for a one-off timeout move.
Both read only the deciding seat's view. Their moves go through ``play.act`` like
a player's and are stored as the robot's (``robot=True`` with the seat's user),
so /history and the statistics mark them. A robot plays a seat until its player
presses a button of their panel; if every player would be away, the game pauses
instead (robots alone would play it out in a moment).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from bot.monitoring.metrics import ROBOT_SECONDS
from bot.service import events, play
from bot.service.outcome import Outcome
from bot.service.tables import Table
from bot.service.time_settings import time_is_up

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)


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


def waiting_players(table: Table) -> list[int]:
    """The seats of the players the table waits for (in open play, the whister's)."""
    state = table.match.state if table.match is not None else None
    return [] if state is None else sorted({state.controller(s) for s in waiting_for(table)})


def waiting_users(table: Table) -> list[int]:
    return [u for s in waiting_players(table) if (u := table.user_of(s))]


def away_seats(table: Table) -> list[int]:
    """Players' seats that are away: a robot plays them, or their turn's time ran out."""
    away = set(table.row.robot_seats())
    if time_is_up(table):
        away.update(waiting_players(table))
    return sorted(away)


async def robot_move(svc: Services, table: Table, seat: int, *, timeout: bool,
                     out: Outcome) -> Outcome:
    """The robot's action for ``seat`` (``timeout``: its one-off timeout move), applied and
    stored as the robot's. The table's lock is held."""
    match = table.match
    assert match is not None and match.state is not None
    player = match.state.controller(seat)
    user_id = table.user_of(player)
    assert user_id is not None
    robot = match.spec.robot
    view = play.seat_view(table, player)
    # A robot may think for a while: in a worker thread, reading only the view it was given.
    with ROBOT_SECONDS.labels(table.game).time():
        action = await (asyncio.to_thread(robot.auto_action, view, match.rules) if timeout else
                        asyncio.to_thread(robot.choose, view, match.rules, random.Random()))
    done = await play.act(svc, table, user_id, match.version, seat, action, robot=True, out=out)
    if done.refusal is not None:
        log.warning("table %s: the robot's %s for seat %s was refused: %s", table.id, action,
                    seat, done.refusal)
    return done


async def stand_in(svc: Services, table: Table, seat: int, out: Outcome) -> bool:
    """A robot starts playing ``seat``; False (and the game paused) if nobody would be left."""
    user_id = table.user_of(seat)
    if not table.present_users(besides=frozenset({user_id or 0})):
        await set_paused(svc, table, True, "everyone_away", out)
        return False
    table.row = await svc.store.tables.set_robot(table.id, seat, True)
    return True


async def take_back(svc: Services, table: Table, user_id: int, out: Outcome) -> bool:
    """The player is back: the robot leaves their seat. False if no robot played it.
    The table's lock is held."""
    seat = table.seat_of(user_id)
    if seat is None or seat not in table.row.robot_seats() or table.status not in (
            "playing", "paused"):
        return False
    table.row = await svc.store.tables.set_robot(table.id, seat, False)
    out.tell(events.PlayerBack(table, seat))
    await svc.timers.rearm(table)
    out.redraw(table)
    return True


async def back_press(svc: Services, table: Table, user_id: int) -> Outcome:
    """The panel's "I am back" button; the table's lock is held."""
    out = Outcome()
    if table.seat_of(user_id) is None:
        return out.refuse("not_playing")
    if await take_back(svc, table, user_id, out):
        return out.done("welcome_back")
    return out.done("playing_already")


async def set_paused(svc: Services, table: Table, paused: bool, why: str,
                     out: Outcome) -> None:
    """Pause or resume the game and tell the group why; the table's lock is held. A resumed
    game gives the player to act a fresh turn time."""
    table.row = await svc.store.tables.set_status(table.id, "paused" if paused else "playing")
    await svc.timers.rearm(table, fresh=True)
    out.tell(events.Paused(table, why))
    out.redraw(table, notify=() if paused else table.acting_users())
