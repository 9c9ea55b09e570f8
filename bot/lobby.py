"""Lobby: open a table, join and leave, change the rules, start or cancel."""

from __future__ import annotations

import logging
import random
import secrets
from typing import TYPE_CHECKING

from bot import lobby_partners, time_settings
from bot.answers import OK, Answer
from bot.i18n import Translate
from bot.play import next_deal
from bot.render.screen import Screen
from bot.tables import Table
from engine.base import RulesError
from engine.games import get_game
from engine.match import Match
from storage.errors import StorageError
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)


async def open_table(hub: Hub, chat_id: int, creator: UserRow, game: str) -> Table | None:
    """A new lobby in the chat; None (and a pointer to it) if the chat already has a table."""
    tr = hub.tr_chat(chat_id)
    existing = hub.table_in(chat_id)
    if existing is not None:
        text = tr("This chat already has a {game} table ({status}). Finish or cancel it first.",
                  game=tr(existing.ui.title), status=tr(existing.status))
        await _reply_near(hub, existing, text)
        return None
    rules = get_game(game).rules.from_dict({})
    row = await hub.storage.create_table(chat_id, game, creator_id=creator.id, rules={},
                                         seat_count=rules.players)
    table = hub.adopt(row)
    if creator.has_started_bot:
        hub.update_row(table, await hub.storage.seat_user(table.id, creator.id))
    hub.redraw(table)
    return table


async def _reply_near(hub: Hub, table: Table, text: str) -> None:
    """Answer in the group, as a reply to the table's message when it has one."""
    message_id = table.slot.message_id if table.slot else None
    await hub.outbox.call(table.chat_id, lambda: hub.bot.send_message(
        table.chat_id, text, reply_to_message_id=message_id, allow_sending_without_reply=True))


def _may_manage(table: Table, user_id: int) -> bool:
    """The creator manages the lobby; if he is not seated, any seated player may."""
    creator = table.row.creator_id
    if user_id == creator:
        return True
    return table.seat_of(creator or 0) is None and table.seat_of(user_id) is not None


async def press(hub: Hub, table: Table, user: UserRow, parts: tuple[str, ...]) -> Answer:
    """A lobby button; called with the table's lock held."""
    tr = hub.tr_user(user.id)
    if table.status != "lobby":
        return Answer.refuse(tr("This table has already started or was cancelled."))
    op = parts[0] if parts else ""
    if op == "join":
        return await join(hub, table, user)
    if op == "leave":
        if table.seat_of(user.id) is None:
            return Answer.refuse(tr("You are not at this table."))
        hub.update_row(table, await hub.storage.unseat_user(table.id, user.id))
        hub.redraw(table)
        return Answer.note(tr("You left the table."))
    if op not in ("set", "page", "start", "cancel", "time", lobby_partners.OP):
        return Answer.refuse(tr("That button is not one of your choices."))
    if not _may_manage(table, user.id):
        return Answer.refuse(tr("Only the player who opened the table can do that."))
    if op == "page" and len(parts) == 2 and parts[1] in ("main", "conventions"):
        table.page = parts[1]
        hub.redraw(table)
        return OK
    if op == lobby_partners.OP:
        return await lobby_partners.rotate(hub, table, tr)
    if op == "time" and len(parts) == 2:
        return await time_settings.cycle_in_lobby(hub, table, parts[1], tr)
    if op == "set" and len(parts) == 2:
        return await _change_option(hub, table, parts[1], tr)
    if op == "start":
        return await start(hub, table, tr)
    if op == "cancel":
        table.row = await hub.storage.set_status(table.id, "aborted")
        hub.redraw(table)
        hub.forget(table)
        return Answer.note(tr("The table is cancelled."))
    return Answer.refuse(tr("That button is not one of your choices."))


async def join(hub: Hub, table: Table, user: UserRow) -> Answer:
    tr = hub.tr_user(user.id)
    if table.seat_of(user.id) is not None:
        return Answer.note(tr("You are already at this table."))
    if not user.has_started_bot:
        # Telegram opens the bot; its Start button brings "/start j<table>" back to us.
        return Answer(url=hub.deep_link(f"j{table.id}"))
    if len(table.row.seats) >= table.row.seat_count:
        return Answer.refuse(tr("The table is full."))
    try:
        hub.update_row(table, await hub.storage.seat_user(table.id, user.id))
    except StorageError as exc:
        log.info("table %s: cannot seat %s: %s", table.id, user.id, exc)
        return Answer.refuse(tr("You cannot join this table now."))
    hub.redraw(table)
    return Answer.note(tr("You joined the table."))


async def _change_option(hub: Hub, table: Table, key: str, tr: Translate) -> Answer:
    ui = table.ui
    option = next((o for o in (*ui.main_options, *ui.conventions) if o.key == key), None)
    if option is None:
        return Answer.refuse(tr("That button is not one of your choices."))
    spec = get_game(table.row.game)
    chosen = dict(table.row.rules)
    rules = spec.rules.from_dict(chosen)
    current = value = rules.to_dict()[key]
    refused: RulesError | None = None
    for _ in option.values:  # the next value these rules allow; the others are skipped
        value = option.after(value)
        try:
            rules = spec.rules.from_dict({**chosen, key: value})
        except RulesError as exc:
            refused = refused or exc
            continue
        break
    else:
        value = current
    if value == current and refused is not None:
        return Answer.refuse(tr("Not with these rules: {reason}", reason=str(refused)))
    chosen[key] = value
    try:
        row = await hub.storage.update_lobby(table.id, rules=chosen, seat_count=rules.players)
    except StorageError:
        return Answer.refuse(
            tr("Someone sits at a seat that would go away; they must leave first."))
    hub.update_row(table, row)
    hub.redraw(table)
    return OK


async def start(hub: Hub, table: Table, tr: Translate) -> Answer:
    row = table.row
    if len(row.seats) < row.seat_count:
        return Answer.refuse(tr("Waiting for {n} more players.", n=row.seat_count - len(row.seats)))
    spec = get_game(row.game)
    table.row = await hub.storage.start_game(table.id)
    rules = spec.rules.from_dict(table.row.rules)
    opener = table.seat_of(row.creator_id or 0) or 0
    first_dealer = spec.first_dealer(rules, opener, random.Random(secrets.randbits(64)))
    table.match = Match(spec, rules, table.names, first_dealer)
    tr_group = hub.tr_chat(table.chat_id)
    hub.outbox.post(table.chat_id, Screen(tr_group(
        "The game begins. Your cards are in your private chat with me.")))
    if not await next_deal(hub, table):
        return Answer.refuse(tr("The first deal could not be saved; it will be dealt later."))
    return OK
