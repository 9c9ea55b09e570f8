"""Each game's entry screens, by game name."""

from __future__ import annotations

from bot.scorekeeper.entry_ui import EntryUI
from bot.scorekeeper.joker_ui import JokerEntry
from bot.scorekeeper.preferans_ui import PreferansEntry
from bot.scorekeeper.seep_ui import SeepEntry

ENTRY_UIS: dict[str, EntryUI] = {ui.game: ui for ui in (PreferansEntry(), JokerEntry(),
                                                         SeepEntry())}
