"""The lobby: open a table, join and leave, change the rules, partners, start or cancel."""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

from bot.service import events, loading, play, time_settings
from bot.service.outcome import Outcome, Setting
from bot.service.tables import HINTS, PUBLIC, REMATCH, TOPIC, Table
from engine.base import RulesError, offered_values
from engine.games import get_game
from engine.match import Match
from storage.errors import StorageError, TableExists
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)

PAGES = ("main", "conventions")
MANAGE = ("set", "page", "start", "cancel", "time", "partners", "hints", "public")


async def refuse_if_open(svc: Services, chat_id: int, thread_id: int) -> Outcome | None:
    """Refused (``table_exists``, naming it) if the chat's topic has a table already."""
    existing = await loading.topic_table(svc, chat_id, thread_id)
    if existing is None:
        return None
    return Outcome().refuse("table_exists", table=existing.id, game=existing.game,
                            status=existing.status)


async def open_table(svc: Services, chat_id: int, thread_id: int, creator: UserRow,
                     game: str, topic: str | None = None) -> Outcome:
    """A new lobby in the chat's topic (named ``topic``, where known: its players' panels
    say which table of the group they belong to), owned by ``creator``; refused if the topic
    has a table already."""
    out = await refuse_if_open(svc, chat_id, thread_id)
    if out is not None:
        return out
    out = Outcome()
    rules = get_game(game).rules.from_dict({})
    try:
        row = await svc.store.tables.create_table(chat_id, game, creator_id=creator.id,
                                                  rules={}, seat_count=rules.players,
                                                  settings={TOPIC: topic} if topic else None,
                                                  thread_id=thread_id)
    except TableExists as exc:  # opened meanwhile by another process
        return out.refuse("table_exists", table=exc.table_id)
    table = svc.tables.adopt(row)
    if creator.has_started_bot:
        table.row = await svc.store.tables.seat_user(table.id, creator.id)
    return out.redraw(table)


def may_manage(table: Table, user_id: int) -> bool:
    """The creator manages the lobby; if he is not seated, any seated player may."""
    creator = table.row.creator_id
    if user_id == creator:
        return True
    return table.seat_of(creator or 0) is None and table.seat_of(user_id) is not None


async def press(svc: Services, table: Table, user: UserRow, parts: tuple[str, ...]) -> Outcome:
    """A lobby button; called with the table's lock held."""
    out = Outcome()
    if table.status != "lobby":
        return out.refuse("lobby_closed")
    op = parts[0] if parts else ""
    if op == "join":
        return await join(svc, table, user)
    if op == "leave":
        return await leave(svc, table, user.id)
    if op not in MANAGE or (table.rematch_of is not None and op != "cancel"):
        return out.refuse("bad_button")  # a rematch keeps the rules it was played with
    if not may_manage(table, user.id):
        return out.refuse("creator_only")
    if op == "page" and len(parts) == 2 and parts[1] in PAGES:
        table.page = parts[1]
        return out.redraw(table)
    if op == "partners":
        return await rotate_partners(svc, table)
    if op == "hints" and table.spec.hint is not None:
        return await flip(svc, table, HINTS)
    if op == "public":
        return await flip(svc, table, PUBLIC)
    if op == "time" and len(parts) in (2, 3) and parts[1] in time_settings.KEYS:
        return await change_time(svc, table, parts[1], parts[2:])
    if op == "set" and len(parts) in (2, 3):
        return await change_option(svc, table, parts[1], parts[2:])
    if op == "start":
        return await start(svc, table)
    if op == "cancel":
        return await cancel(svc, table)
    return out.refuse("bad_button")


async def leave(svc: Services, table: Table, user_id: int) -> Outcome:
    out = Outcome()
    if table.seat_of(user_id) is None:
        return out.refuse("not_at_table")
    table.row = await svc.store.tables.unseat_user(table.id, user_id)
    if table.rematch_of is not None:  # no longer the same players: an ordinary lobby
        settings = {k: v for k, v in table.row.settings.items() if k != REMATCH}
        table.row = await svc.store.tables.update_settings(table.id, settings)
    return out.redraw(table).done("left")


async def cancel(svc: Services, table: Table) -> Outcome:
    table.row = await svc.store.tables.set_status(table.id, "aborted")
    svc.tables.forget(table)
    return Outcome().redraw(table).done("cancelled")


async def join(svc: Services, table: Table, user: UserRow) -> Outcome:
    out = Outcome()
    if table.seat_of(user.id) is not None:
        return out.done("joined_already")
    if not user.has_started_bot:
        # Telegram opens the bot; its Start button brings "/start j<table>" back to us.
        out.link = f"j{table.id}"
        return out
    if len(table.row.seats) >= table.row.seat_count:
        return out.refuse("table_full")
    try:
        table.row = await svc.store.tables.seat_user(table.id, user.id)
    except StorageError as exc:
        log.info("table %s: cannot seat %s: %s", table.id, user.id, exc)
        return out.refuse("cannot_join")
    return out.redraw(table).done("joined", n=len(table.row.seats), total=table.row.seat_count)


def shown_index(values: tuple[object, ...], value: object) -> str:
    """How a lobby button names the value it shows (its place among the values; ``-``: none
    of them): a press moves on from it, a second press of a button not yet redrawn does
    not move on again."""
    return str(values.index(value)) if value in values else "-"


async def change_time(svc: Services, table: Table, key: str, shown: tuple[str, ...]) -> Outcome:
    """The time setting ``key`` at its next value, unless the press showed another value than
    it has now (the lobby not yet redrawn): then only its value is told."""
    settings = time_settings.TimeSettings.of(table.row.settings)
    now = settings.value(key)
    if shown and shown[0] != shown_index(settings.values(key), now):
        return Outcome().done("setting_is", setting=Setting(key, now))
    settings = settings.cycled(key)
    await time_settings.store(svc, table, settings)
    return Outcome().redraw(table).done("setting_set", setting=Setting(key, settings.value(key)))


async def change_option(svc: Services, table: Table, key: str,
                        shown: tuple[str, ...] = ()) -> Outcome:
    """The rules option ``key`` at its next value these rules allow (the others skipped);
    ``shown``: the value the pressed button showed (see ``shown_index``)."""
    out = Outcome()
    spec = table.spec
    values = offered_values(spec.rules, key) if key in spec.rules.__dataclass_fields__ else ()
    if len(values) < 2:
        return out.refuse("bad_button")
    chosen = dict(table.row.rules)
    rules = spec.rules.from_dict(chosen)
    current = value = rules.to_dict()[key]
    if shown and shown[0] != shown_index(values, current):
        return out.done("setting_is", setting=Setting(key, current, table.game))
    refused: RulesError | None = None
    for _ in values:
        i = values.index(value) if value in values else -1
        value = values[(i + 1) % len(values)]
        try:
            rules = spec.rules.from_dict({**chosen, key: value})
        except RulesError as exc:
            refused = refused or exc
            continue
        break
    else:
        value = current
    if value == current and refused is not None:
        return out.refuse("rules_refuse", reason=str(refused))
    chosen[key] = value
    try:
        table.row = await svc.store.tables.update_lobby(table.id, rules=chosen,
                                                        seat_count=rules.players)
    except StorageError:
        return out.refuse("seat_in_the_way")
    return out.redraw(table).done("setting_set", setting=Setting(key, value, table.game))


async def flip(svc: Services, table: Table, key: str) -> Outcome:
    """A yes-or-no setting of the table the other way: 💡 hints for learners (``HINTS``), who
    may watch in the Mini App (``PUBLIC``). The lock is held."""
    settings = {**table.row.settings, key: not table.row.settings.get(key)}
    table.row = await svc.store.tables.update_settings(table.id, settings)
    return Outcome().redraw(table)


async def rotate_partners(svc: Services, table: Table) -> Outcome:
    """Seat the players of seats 1, 2, 3 at seats 3, 1, 2: each press gives the first seat
    another partner; three bring the table back (the lock is held)."""
    if not table.spec.teams(table.spec.rules.from_dict(dict(table.row.rules))):
        return Outcome().refuse("bad_button")
    moves = {s.user_id: (s.seat - 2) % 3 + 1 for s in table.row.seats
             if s.seat > 0 and s.user_id is not None}
    for user_id in moves:
        await svc.store.tables.unseat_user(table.id, user_id)
    row = table.row
    for user_id, seat in moves.items():
        row = await svc.store.tables.seat_user(table.id, user_id, seat)
    table.row = row
    return Outcome().redraw(table)


async def seat_names(svc: Services, table: Table) -> list[str]:
    """The seated players' names in seat order (a guest's typed name)."""
    names = []
    for seat in sorted(table.row.seats, key=lambda s: s.seat):
        user = await svc.users.load(seat.user_id) if seat.user_id is not None else None
        names.append(seat.guest_name or (user.display_name if user else "?"))
    return names


async def begin(svc: Services, table: Table, first_dealer: int | None = None) -> Outcome:
    """Lobby -> playing: rules completed and checked, names fixed, the match made; refused
    when it cannot start. ``first_dealer`` None: as the rules choose him."""
    out = Outcome()
    row = table.row
    if len(row.seats) < row.seat_count:
        out.refuse("waiting_for", n=row.seat_count - len(row.seats))
        return out
    spec = table.spec
    try:
        rules = spec.rules.from_dict(row.rules)
    except RulesError as exc:
        return out.refuse("rules_refuse", reason=str(exc))
    opener = table.seat_of(row.creator_id or 0) or 0
    dealer = (spec.first_dealer(rules, opener, random.Random(svc.seed()))
              if first_dealer is None else first_dealer)
    table.row = await svc.store.tables.start_game(table.id, rules=rules.to_dict())
    table.match = Match(spec, rules, table.names, dealer)
    return out


async def start(svc: Services, table: Table) -> Outcome:
    out = await begin(svc, table)
    if not out.ok:
        return out
    out.tell(events.GameBegins(table))
    if not await play.next_deal(svc, table, out):
        return out.refuse("first_deal_not_saved")
    return out
