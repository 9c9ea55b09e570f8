"""/sheet: the scoresheet as a picture (the pulya, the Joker table, the Seep ledger).

The picture is drawn in a worker thread so that other tables go on meanwhile;
the table's lock is held while it is drawn, so the match cannot change under
the drawing. Photos go through the outbox like every other send (the group's
budget holds).
"""

from __future__ import annotations

import asyncio
from io import BytesIO
from typing import TYPE_CHECKING

from telegram import InputFile

from bot.i18n import Translate
from bot.pictures import draw_sheet
from engine.match import Match
from storage.errors import StorageError

if TYPE_CHECKING:
    from bot.hub import Hub

RECENT = 10  # ended tables looked through for the last game that started (not a lobby)
SHEET_SETTING = "attach_sheet"  # table setting: send the picture after each deal and game


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
