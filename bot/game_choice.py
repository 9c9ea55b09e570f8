"""/newgame alone: one button per game; a press opens that game's lobby in the chat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import lobby
from bot.answers import OK, Answer
from bot.games.registry import GAME_UIS
from bot.i18n import Translate
from bot.render.screen import Button, Screen, rows_of
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

PREFIX = "g:"  # callback data of a game button: "g:seep" (the chat is the button's)
PATTERN = rf"^{PREFIX}"


def screen(tr: Translate) -> Screen:
    """The question, with one button per game the bot hosts."""
    buttons = [Button(tr(ui.title), PREFIX + ui.name) for ui in GAME_UIS.values()]
    return Screen(tr("Which game shall we play?"), tuple(rows_of(buttons, 3)))


async def press(hub: Hub, chat_id: int, user: UserRow, data: str) -> Answer:
    """Open a lobby of the chosen game here (the question stays: it can open the next one)."""
    tr = hub.tr_user(user.id)
    ui = GAME_UIS.get(data.removeprefix(PREFIX))
    if ui is None or chat_id > 0:
        return Answer.refuse(tr("That button is not one of your choices."))
    if await lobby.open_table(hub, chat_id, user, ui.name) is None:
        return Answer.refuse(tr("This chat already has a table. Finish or cancel it first."))
    return OK
