"""The lobby of a scorekept table: players by Telegram or by typed name, the rules, Start.

The ordinary lobby turns into this one with its "Keep score only" button.
Nobody needs the bot's private chat: Telegram users join with a press, anyone
else is added by name (``/add Ann, Bob``). Seats follow the order players are
added: clockwise round the real table. The rules buttons are the ordinary
lobby's (same callbacks), so options change exactly as there.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from bot.answers import OK, Answer
from bot.callbacks import pack
from bot.i18n import Translate
from bot.lobby_screen import lobby_screen
from bot.render.screen import Button, Screen, rows_of
from bot.scorekeeper.keeper import Keeper
from bot.tables import Table
from engine.games import get_game
from engine.match import Match
from storage.errors import StorageError
from storage.rows import UserRow
from storage.store import MAX_NAME

if TYPE_CHECKING:
    from bot.hub import Hub

MODE = "scorekeeper"
_SEPARATORS = re.compile(r"[,;\n]+")


def may_keep(table: Table, user_id: int) -> bool:
    """Who runs a scorekept table: whoever opened it and every player on Telegram."""
    return user_id == table.row.creator_id or table.seat_of(user_id) is not None


def seat_names(hub: Hub, table: Table) -> list[str]:
    """The seated players' names in seat order (before the start fixes them)."""
    names = []
    for seat in sorted(table.row.seats, key=lambda s: s.seat):
        user = hub.users.get(seat.user_id) if seat.user_id is not None else None
        names.append(seat.guest_name or (user.display_name if user else "?"))
    return names


def screen(hub: Hub, table: Table, tr: Translate) -> Screen:
    row = table.row
    ordinary = lobby_screen(hub, table, tr)
    rules_rows = [r for r in ordinary.rows if all(_is_rules_button(table, b) for b in r)]
    lines = [tr("📝 <b>{game}: keep score only</b>", game=tr(table.ui.title)),
             tr("You play with your own cards; I keep the sheet."), "",
             table.ui.rules_summary(dict(row.rules), hub.context(table, tr)), "",
             tr("Players, clockwise ({n}/{total}): {names}", n=len(row.seats),
                total=row.seat_count,
                names=", ".join(escape(n) for n in seat_names(hub, table)) or "—")]
    if table.status != "lobby":
        lines += ["", tr("This table was cancelled.")]
        return Screen("\n".join(lines))
    lines.append(tr("Telegram users tap Join; add anyone else by name: /add Ann, Bob"))
    if table.page == "conventions":
        return Screen("\n".join(lines), tuple(rules_rows))

    def button(text: str, *parts: object) -> Button:
        return Button(text, pack("k", table.id, *parts))

    rows = [(button(tr("✋ Join"), "join"), Button(tr("Leave"), pack("l", table.id, "leave"))),
            *rules_rows]
    rows += rows_of([button(tr("✖ {name}", name=name), "free", s.seat)
                     for s, name in zip(sorted(row.seats, key=lambda s: s.seat),
                                        seat_names(hub, table), strict=True)], 3)
    rows.append((button(tr("▶ Start"), "start"),
                 Button(tr("✖ Cancel"), pack("l", table.id, "cancel"))))
    rows.append((button(tr("🃏 Deal the cards instead"), "mode"),))
    return Screen("\n".join(lines), tuple(rows))


def _is_rules_button(table: Table, button: Button) -> bool:
    """The ordinary lobby's rules buttons (an option, a page of options)."""
    return (button.data or "").startswith((f"l:{table.id}:set:", f"l:{table.id}:page:"))


async def press(hub: Hub, table: Table, user: UserRow, op: str, args: tuple[str, ...]) -> Answer:
    """A lobby button of scorekeeper mode (and the ordinary lobby's mode switch)."""
    tr = hub.tr_user(user.id)
    if table.status != "lobby":
        return Answer.refuse(tr("This table has already started or was cancelled."))
    if op == "join":
        return await _join(hub, table, user, tr)
    if not may_keep(table, user.id):
        return Answer.refuse(tr("Only the player who opened the table can do that."))
    if op == "mode":
        return await _switch_mode(hub, table, tr)
    if op == "free" and len(args) == 1 and args[0].isdigit():
        try:
            hub.update_row(table, await hub.storage.free_seat(table.id, int(args[0])))
        except StorageError:
            return Answer.refuse(tr("That seat is already free."))
        hub.redraw(table)
        return OK
    if op == "start":
        return await _start(hub, table, tr)
    return Answer.refuse(tr("That button is not one of your choices."))


async def _switch_mode(hub: Hub, table: Table, tr: Translate) -> Answer:
    settings = dict(table.row.settings)
    if table.keeps_score:
        if any(s.user_id is None for s in table.row.seats):
            return Answer.refuse(tr("Players added by name cannot play with dealt cards: "
                                    "remove them first."))
        settings.pop("mode", None)
    else:
        settings["mode"] = MODE
    hub.update_row(table, await hub.storage.update_lobby(table.id, settings=settings))
    table.page = "main"
    hub.redraw(table)
    return OK


async def _join(hub: Hub, table: Table, user: UserRow, tr: Translate) -> Answer:
    if not table.keeps_score:
        return Answer.refuse(tr("That button is not one of your choices."))
    if table.seat_of(user.id) is not None:
        return Answer.note(tr("You are already at this table."))
    if user.display_name.casefold() in (n.casefold() for n in seat_names(hub, table)):
        return Answer.refuse(tr("A player with your name is already at the table."))
    try:
        hub.update_row(table, await hub.storage.seat_user(table.id, user.id))
    except StorageError:
        return Answer.refuse(tr("The table is full."))
    hub.redraw(table)
    return Answer.note(tr("You joined the table."))


async def _start(hub: Hub, table: Table, tr: Translate) -> Answer:
    row = table.row
    if len(row.seats) < row.seat_count:
        return Answer.refuse(tr("Waiting for {n} more players.", n=row.seat_count - len(row.seats)))
    table.row = await hub.storage.start_game(table.id)
    spec = get_game(row.game)
    # deal 1's dealer is asked with its entry; until then the match waits at seat 0
    table.match = Match(spec, spec.rules.from_dict(table.row.rules), table.names, 0)
    table.keeper = Keeper()
    hub.redraw(table)
    return OK


async def add_names(hub: Hub, table: Table, user: UserRow, text: str, tr: Translate) -> str:
    """``/add Ann, Bob``: seat players by name (commas or new lines between names; one
    line without commas is one name per word). Called with the table's lock held."""
    if table.status != "lobby" or not table.keeps_score:
        return tr("Players are added by name in a lobby that keeps score only: /newgame, "
                  "then “Keep score only”.")
    if not may_keep(table, user.id):
        return tr("Only the player who opened the table can do that.")
    parts = _SEPARATORS.split(text) if _SEPARATORS.search(text) else text.split()
    names = [" ".join(p.split()) for p in parts if p.strip()]
    if not names:
        return tr("Write the names after the command: /add Ann, Bob")
    added, problems = [], []
    for name in names:
        problem = _bad_name(hub, table, name, tr)
        if problem is None:
            try:
                hub.update_row(table, await hub.storage.seat_guest(table.id, name))
            except StorageError:
                problem = tr("{name}: the table is full.", name=escape(name))
        if problem is None:
            added.append(escape(name))
        else:
            problems.append(problem)
    if added:
        hub.redraw(table)
    lines = [tr("Added: {names}", names=", ".join(added))] if added else []
    return "\n".join(lines + problems)


def _bad_name(hub: Hub, table: Table, name: str, tr: Translate) -> str | None:
    """Why a typed name cannot be a player's: the deal's text form must tell players apart."""
    if len(name) > MAX_NAME:
        return tr("{name}: a name has at most {n} characters.", name=escape(name[:20]) + "…",
                  n=MAX_NAME)
    if name.casefold() in (n.casefold() for n in seat_names(hub, table)):
        return tr("{name} is already at the table.", name=escape(name))
    if name[0].isdigit() or name.startswith(("#", "-")):
        return tr("{name}: a name cannot start with a digit, # or -.", name=escape(name))
    return None
