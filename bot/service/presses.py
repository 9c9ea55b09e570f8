"""A press of a button that names a table: checked and carried out under the table's lock.

Callback data carries the table, a kind and its parts (``bot.ui.callbacks``);
the front end parses it and passes what is game-specific in its own terms
(``Front``: each game's UI steps and entry words).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from bot.monitoring.metrics import PRESSES
from bot.service import (
    analysis,
    decisions,
    hints,
    loading,
    lobby,
    play,
    rematch,
    substitutes,
    timer_changes,
)
from bot.service.drafts import EntryRules
from bot.service.outcome import Outcome
from bot.service.play import Stepper
from bot.service.scorekeeping import entering
from bot.service.tables import Table
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


class Front(Protocol):
    """What a front end tells the use cases about a game it shows."""

    def stepper(self, game: str) -> Stepper: ...

    def entry_rules(self, game: str) -> EntryRules: ...


async def press(svc: Services, table_id: int, user: UserRow, kind: str,
                parts: tuple[str, ...], front: Front) -> Outcome:
    if kind == "p":  # play again: the table is the one that ended
        return await rematch.press(svc, table_id, user)
    if kind == "y":  # a finished deal's analysis: any table, open or ended
        return await analysis.press(svc, table_id, user, parts)
    table = await loading.table(svc, table_id)
    if table is None:
        return Outcome().refuse("table_closed")
    PRESSES.labels(table.game).inc()
    async with table.lock:
        if kind == "l":
            return await lobby.press(svc, table, user, parts)
        if kind == "v":
            return await decisions.vote_press(svc, table, user, parts)
        if kind == "k":
            return await entering.press(svc, table, user, parts, front.entry_rules(table.game))
        if kind == "t":
            return await timer_changes.propose(svc, table, user, parts)
        if kind == "r":
            return await substitutes.back_press(svc, table, user.id)
        if kind == "h":
            return await hints.press(table, user.id, parts)
        return await panel_press(svc, table, user.id, kind, parts, front)


async def panel_press(svc: Services, table: Table, user_id: int, kind: str,
                      parts: tuple[str, ...], front: Front) -> Outcome:
    """An action (``a``) or a UI step (``u``) of a player's panel: ``version``, ``seat``,
    the action or step. A press that counts brings the player back from a robot."""
    version, seat, rest = int(parts[0]), int(parts[1]), parts[2]
    refusal = play.check_press(table, user_id, version)
    if refusal is not None:
        return play.refused(table, user_id, refusal)
    out = Outcome()
    await substitutes.take_back(svc, table, user_id, out)
    if kind == "a":
        return await play.act(svc, table, user_id, version, seat, rest, out=out)
    return await play.step(svc, table, user_id, version, seat, rest,
                           front.stepper(table.game), out=out)
