"""/replace: a new player takes an absent one's seat, by the other players' vote.

``/replace @new`` names the newcomer (or reply to one of their messages with
``/replace``); the seat is the one that is away (a robot plays it, or its time
is up). ``/replace @old @new`` names the seat's player too. The newcomer must
have started the bot. The game record keeps the seat's name as it was at the
start (records are about seats); the group is told who plays it now, and the
statistics of deals finished from now on, and the game's result, go to the newcomer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import events, loading, votes
from bot.service.outcome import Outcome
from bot.service.substitutes import away_seats
from bot.service.tables import Table
from bot.service.users import Person
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def named_users(svc: Services, named: list[Person | str]) -> list[UserRow] | Outcome:
    """The users a command names (Telegram users as shown, or ``@usernames``), in order; a
    refusal if a username is unknown."""
    found = []
    for who in named:
        if isinstance(who, Person):
            found.append(await svc.users.seen(who))
            continue
        user = await svc.store.chats.find_user(who)
        if user is None:
            return Outcome().refuse("unknown_user", name=who)
        found.append(user)
    return found


async def request(svc: Services, chat_id: int, thread_id: int, user: UserRow,
                  named: list[Person | str]) -> Outcome:
    table = await loading.topic_table(svc, chat_id, thread_id)
    if table is None or table.status == "lobby":
        return Outcome().refuse("no_game_here")
    users = await named_users(svc, named)
    if isinstance(users, Outcome):
        return users
    if not 1 <= len(users) <= 2:
        return Outcome().refuse("replace_how")
    async with table.lock:
        if table.seat_of(user.id) is None:
            return Outcome().refuse("players_only")
        new = users[-1]
        away = away_seats(table)
        if len(users) == 2:
            seat = table.seat_of(users[0].id)
            if seat is None:
                return Outcome().refuse("not_a_player", name=users[0].display_name)
        elif len(away) == 1:
            seat = away[0]
        else:
            return Outcome().refuse("replace_whose", name=new.display_name)
        if table.seat_of(new.id) is not None:
            return Outcome().refuse("plays_already", name=new.display_name)
        if not new.has_started_bot:
            return Outcome().refuse("must_start", name=new.display_name, table=table.id)
        old = table.user_of(seat)
        besides = frozenset({user.id, old or 0}) if seat in away else frozenset({user.id})
        out = Outcome()
        svc.users.users[new.id] = new
        if await votes.ask(svc, table, user.id, "replace", {"seat": seat, "user": new.id,
                                                         "name": new.display_name}, out,
                           voters=table.present_users(besides=besides)):
            await replace(svc, table, seat, new.id, out)
        return out


async def replace(svc: Services, table: Table, seat: int, new_id: int, out: Outcome) -> None:
    """Seat user ``new_id`` at ``seat``; the table's lock is held."""
    old = table.user_of(seat)
    new = await svc.users.load(new_id)
    assert new is not None
    table.row = await svc.store.tables.replace_player(table.id, seat, new.id)
    table.selection.pop(seat, None)
    out.tell(events.Replaced(table, seat, new.display_name, old))
    state = table.match.state if table.match is not None else None
    to_act = state is not None and any(state.controller(s) == seat for s in state.to_act)
    await svc.timers.rearm(table, fresh=to_act)  # the newcomer gets a whole turn's time
    out.redraw(table, notify=(new.id,))
