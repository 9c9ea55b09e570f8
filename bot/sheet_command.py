"""/sheet: the scoresheet as a picture (the pulya, the Joker table, the Seep ledger).

The picture is drawn in a worker thread so that other tables go on meanwhile;
the table's lock is held while it is drawn, so the match cannot change under
the drawing. Photos go through the outbox like every other send (the group's
budget holds).

``/sheet on`` (``off``) is a table setting: the picture follows every deal's
result (``attach``, called where the result is announced), the last one
showing the game over.
"""

from __future__ import annotations

import asyncio
from io import BytesIO
from typing import TYPE_CHECKING

from telegram import InputFile

from bot.i18n import Translate
from bot.pictures import draw_sheet
from bot.tables import Table
from engine.match import Match
from storage.errors import StorageError

if TYPE_CHECKING:
    from bot.hub import Hub

RECENT = 10  # ended tables looked through for the last game that started (not a lobby)
SHEET_SETTING = "attach_sheet"  # table setting: send the picture after each deal and game
_sending: set[asyncio.Future[None]] = set()  # attached pictures queued, not awaited


async def picture(match: Match, tr: Translate) -> bytes:
    return await asyncio.to_thread(draw_sheet, match, tr)


def caption(match: Match, tr: Translate) -> str:
    return tr("Scoresheet · deals played: {n}", n=len(match.outputs))


async def send(hub: Hub, chat_id: int, png: bytes, text: str) -> None:
    """Post a picture with a caption to a chat, within its budget."""
    await hub.outbox.call(chat_id, lambda: hub.bot.send_photo(
        chat_id, InputFile(BytesIO(png), filename="scoresheet.png"), caption=text))


async def sheet(hub: Hub, chat_id: int, tr: Translate, target: int) -> str | None:
    """Send the group's current game's sheet (or its last game's) to ``target``; a message
    instead if there is none."""
    table = hub.table_in(chat_id)
    if table is not None and table.match is not None:
        async with table.lock:
            match = table.match
            png = await picture(match, tr)
            text = caption(match, tr)
    else:
        games = await hub.storage.recent_games(chat_id, RECENT)
        last = next((game for game in games if game.started_at is not None), None)
        if last is None:
            return tr("No game has been played here yet. Send /newgame to open a table.")
        try:
            match = await hub.storage.load_match(last.table_id)
        except StorageError:
            return tr("The last game's record cannot be read, so I cannot draw its sheet.")
        png = await picture(match, tr)
        text = caption(match, tr)
    await send(hub, target, png, text)
    return None


async def setting(hub: Hub, chat_id: int, user_id: int, word: str, tr: Translate) -> str:
    """``/sheet on`` or ``/sheet off``: whether the table's results come with the picture."""
    if word not in ("on", "off"):
        return tr("Send /sheet for the picture, /sheet on to get it after every deal, "
                  "/sheet off to stop that.")
    table = hub.table_in(chat_id)
    if table is None:
        return tr("No table is open here. Send /newgame to open one.")
    if table.seat_of(user_id) is None and user_id != table.row.creator_id:
        return tr("Only the players of this game can do that.")
    async with table.lock:
        settings = {**table.row.settings, SHEET_SETTING: word == "on"}
        table.row = await hub.storage.update_settings(table.id, settings)
    return (tr("From now on every deal's result comes with the scoresheet picture.")
            if word == "on" else tr("Deal results come without the picture from now on."))


def attach(hub: Hub, table: Table) -> None:
    """After a deal's result (called with the table's lock held): the picture as well, if
    the table asks for it. Drawn now, queued in the outbox after the result, not awaited."""
    match = table.match
    if match is None or not table.row.settings.get(SHEET_SETTING):
        return
    tr = hub.tr_chat(table.chat_id)
    queued = asyncio.ensure_future(send(hub, table.chat_id, draw_sheet(match, tr),
                                        caption(match, tr)))
    _sending.add(queued)
    queued.add_done_callback(_sending.discard)
