"""The lobby of a scorekept table: players by Telegram or by typed name, the rules, Start.

The ordinary lobby turns into this one with its "Keep score only" button.
Nobody needs the bot's private chat: Telegram users join with a press, anyone
else is added by name (``/add Ann, Bob``). Seats follow the order players are
added: clockwise round the real table. The rules change as in the ordinary lobby.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.service import lobby
from bot.service.drafts import Keeper
from bot.service.names import clean, likeness
from bot.service.outcome import Outcome
from bot.service.tables import SCOREKEEPER, Table
from storage.errors import StorageError
from storage.rows import UserRow
from storage.tables import MAX_NAME

if TYPE_CHECKING:
    from bot.service.ports import Services

OPS = ("mode", "join", "free", "start")
_SEPARATORS = re.compile(r"[,;\n]+")


def may_keep(table: Table, user_id: int) -> bool:
    """Who runs a scorekept table: whoever opened it and every player on Telegram."""
    return user_id == table.row.creator_id or table.seat_of(user_id) is not None


async def press(svc: Services, table: Table, user: UserRow, op: str,
                args: tuple[str, ...]) -> Outcome:
    """A lobby button of scorekeeper mode (and the ordinary lobby's mode switch)."""
    out = Outcome()
    if table.status != "lobby":
        return out.refuse("lobby_closed")
    if op == "join":
        return await _join(svc, table, user)
    if not may_keep(table, user.id):
        return out.refuse("creator_only")
    if op == "mode":
        return await _switch_mode(svc, table)
    if op == "free" and len(args) == 1 and args[0].isdigit():
        try:
            table.row = await svc.store.tables.free_seat(table.id, int(args[0]))
        except StorageError:
            return out.refuse("seat_free_already")
        return out.redraw(table)
    if op == "start":
        return await _start(svc, table)
    return out.refuse("bad_button")


async def _switch_mode(svc: Services, table: Table) -> Outcome:
    settings = dict(table.row.settings)
    if table.keeps_score:
        if any(s.user_id is None for s in table.row.seats):
            return Outcome().refuse("guests_cannot_deal")
        settings.pop("mode", None)
    else:
        settings["mode"] = SCOREKEEPER
    table.row = await svc.store.tables.update_lobby(table.id, settings=settings)
    table.page = "main"
    return Outcome().redraw(table)


async def _join(svc: Services, table: Table, user: UserRow) -> Outcome:
    out = Outcome()
    if not table.keeps_score:
        return out.refuse("bad_button")
    if table.seat_of(user.id) is not None:
        return out.done("joined_already")
    if likeness(user.display_name) in (likeness(n) for n in await lobby.seat_names(svc,
                                                                                     table)):
        return out.refuse("same_name")
    try:
        table.row = await svc.store.tables.seat_user(table.id, user.id)
    except StorageError:
        return out.refuse("table_full")
    return out.redraw(table).done("joined", n=len(table.row.seats), total=table.row.seat_count)


async def _start(svc: Services, table: Table) -> Outcome:
    # deal 1's dealer is asked with its entry; until then the match waits at seat 0
    out = await lobby.begin(svc, table, first_dealer=0)
    if out.ok:
        table.keeper = Keeper()
        out.redraw(table)
    return out


async def add_names(svc: Services, table: Table, user: UserRow, text: str) -> Outcome:
    """``/add Ann, Bob``: seat players by name (commas or new lines between names; one
    line without commas is one name per word). Called with the table's lock held. The
    outcome's ``note`` is ``added`` with the names seated and the problems of the others."""
    out = Outcome()
    if table.status != "lobby" or not table.keeps_score:
        return out.refuse("add_where")
    if not may_keep(table, user.id):
        return out.refuse("creator_only")
    parts = _SEPARATORS.split(text) if _SEPARATORS.search(text) else text.split()
    names = [clean(p, None) for p in parts if p.strip()]
    if not names:
        return out.refuse("add_how")
    added: list[str] = []
    problems: list[tuple[str, str]] = []
    for name in names:
        problem = _bad_name(name, await lobby.seat_names(svc, table))
        if problem is None:
            try:
                table.row = await svc.store.tables.seat_guest(table.id, name)
            except StorageError:
                problem = "table_full_for"
        if problem is None:
            added.append(name)
        else:
            problems.append((problem, name))
    if added:
        out.redraw(table)
    return out.done("added", names=added, problems=problems, limit=MAX_NAME)


def _bad_name(name: str, seated: list[str]) -> str | None:
    """Why a typed name cannot be a player's: the deal's text form must tell players apart."""
    if not name:
        return "name_empty"
    if len(name) > MAX_NAME:
        return "name_too_long"
    if likeness(name) in (likeness(n) for n in seated):
        return "name_taken"
    if name[0].isdigit() or name.startswith(("#", "-")):
        return "name_start"
    return None
