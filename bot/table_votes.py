"""Asking a table's players to agree: pause, resume, replacing a player, time settings.

The answers come back through ``commands.vote_press`` (callback ``v:T:id:y|n``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.callbacks import pack
from bot.render.screen import Button, Screen
from bot.tables import Table
from bot.votes import Vote

if TYPE_CHECKING:
    from bot.hub import Hub


def present_players(table: Table, *, besides: frozenset[int] = frozenset()) -> frozenset[int]:
    """The users seated at the table whom no robot stands in for, except ``besides``."""
    return frozenset(s.user_id for s in table.row.seats
                     if s.user_id is not None and not s.robot and s.user_id not in besides)


async def ask(hub: Hub, table: Table, initiator: int, kind: str, question: str,
              on_passed: Callable[[], Awaitable[None]],
              voters: frozenset[int] | None = None) -> bool:
    """Put ``question`` (HTML) to ``voters`` (default: the other present players) with
    Agree/Refuse buttons; with nobody to ask it passes at once. True if it passed now.
    Called with the table's lock held."""
    if voters is None:
        voters = present_players(table, besides=frozenset({initiator}))
    if not voters:
        await on_passed()
        return True
    vote = hub.votes.open(Vote(table.id, kind, initiator, voters, on_passed))
    tr = hub.tr_chat(table.chat_id)
    buttons = ((Button(tr("✅ Agree"), pack("v", table.id, vote.id, "y")),
                Button(tr("❌ Refuse"), pack("v", table.id, vote.id, "n"))),)
    hub.outbox.post(table.chat_id, Screen(question + "\n" + tr("The other players decide."),
                                          buttons))
    return False
