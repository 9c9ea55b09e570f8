"""Moves: checked, stored durably, then applied and announced.

Called with the table's lock held. Nothing is announced before the log entry
is committed; if the commit fails the match is rebuilt from the log.
"""

from __future__ import annotations

import copy
import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import refusals, sheet_command
from bot.answers import OK, Answer
from bot.i18n import Translate
from bot.render.screen import Screen
from bot.tables import Table
from engine.base import ActionError, Event
from storage.rows import Entry

if TYPE_CHECKING:
    from bot.hub import Hub

log = logging.getLogger(__name__)


def check_turn(hub: Hub, table: Table, user_id: int, version: int, seat: int,
               tr: Translate) -> Answer | None:
    """Why this user may not act for ``seat`` at ``version`` now; None if he may."""
    match = table.match
    if table.status == "paused":
        return Answer.refuse(tr("The game is paused."))
    if table.status != "playing" or match is None or match.state is None:
        return Answer.refuse(tr("This game is over."))
    if table.seat_of(user_id) is None:
        return Answer.refuse(tr("You are not playing at this table."))
    if version != match.version:
        hub.redraw(table)
        return Answer.refuse(
            tr("This button is out of date: your panel now shows the game as it is."))
    state = match.state
    if seat not in state.to_act or table.user_of(state.controller(seat)) != user_id:
        return Answer.refuse(tr("It is not your turn."))
    return None


async def act(hub: Hub, table: Table, user_id: int, version: int, seat: int,
              action: str, *, robot: bool = False) -> Answer:
    """``robot``: a robot chose the action for the user (stored and shown as the robot's)."""
    tr = hub.tr_user(user_id)
    refused = check_turn(hub, table, user_id, version, seat, tr)
    if refused is not None:
        return refused
    match = table.match
    assert match is not None and match.state is not None
    if action not in match.state.legal_actions(seat):
        return Answer.refuse(_why_illegal(match.state, seat, action, tr))
    events = match.apply(seat, action)
    entry = Entry.action(match.spec.encode_action(seat, action), user_id=user_id, robot=robot)
    output = _event_data(events, "deal_scored", "output")
    report = _event_data(events, "game_over", "report")
    if not await _store(hub, table, entry, output, report):
        return Answer.refuse(tr("Your move could not be saved. Please try again."))
    await hub.timers.rearm(table)
    if not robot:
        table.touch(user_id)
    table.selection.pop(seat, None)
    if output is None:
        redraw_after_move(hub, table, user_id)
        return OK
    announce_deal(hub, table, output)
    if report is not None:
        await finish_announced(hub, table)
    elif not await next_deal(hub, table):
        return Answer.refuse(tr("The next deal could not be saved; it will be dealt later."))
    return OK


def _event_data(events: list[Event], kind: str, key: str) -> Any:
    return next((e.data[key] for e in events if e.kind == kind), None)


def _why_illegal(state: Any, seat: int, action: str, tr: Translate) -> str:
    """The engine's reason, found on a copy so that the live state cannot change."""
    try:
        copy.deepcopy(state).apply(seat, action)
    except ActionError as exc:
        return hub_reason(exc, tr)
    return tr("That button is not one of your choices.")


def hub_reason(error: ActionError, tr: Translate, names: Sequence[str] = ()) -> str:
    """An engine refusal in the player's language (the engine's English as the fallback)."""
    return refusals.reason(error, tr, names)


async def _store(hub: Hub, table: Table, entry: Entry, output: dict[str, Any] | None,
                 report: dict[str, Any] | None) -> bool:
    """Commit the entry the match has just applied; on failure rebuild the match."""
    match = table.match
    assert match is not None
    try:
        await hub.storage.append(table.id, match.version, entry, result=output,
                                 settlement=None if report is None else report["settlement"])
    except Exception:
        log.exception("table %s: cannot store entry %s", table.id, match.version)
        table.match = await hub.storage.load_match(table.id)
        return False
    if report is not None:
        table.row = await hub.storage.get_table(table.id)
    return True


async def next_deal(hub: Hub, table: Table) -> bool:
    """Deal the next hand (from a fresh secret seed) and store it before anyone sees it."""
    match = table.match
    assert match is not None
    if match.over or match.in_deal or table.keeps_score:  # scorekeeper mode deals nothing
        return True
    match.start_deal(seed=secrets.randbits(64))
    while not match.in_deal:  # void from the start (Seep's redeal): scored, announced, redealt
        output = match.outputs[-1]
        if not await _store(hub, table, Entry.deal(match.deals[-1]), output, None):
            return False
        announce_deal(hub, table, output)
        match.start_deal(seed=secrets.randbits(64))
    if not await _store(hub, table, Entry.deal(match.deals[-1]), None, None):
        return False
    await hub.timers.rearm(table)
    who = {table.user_of(match.state.controller(s)) for s in match.state.to_act} \
        if match.state else set()
    hub.redraw(table, notify=frozenset(u for u in who if u is not None))
    return True


def redraw_after_move(hub: Hub, table: Table, actor: int) -> None:
    """Redraw; whoever must act now and is not watching gets a fresh panel (a notification)."""
    match = table.match
    assert match is not None and match.state is not None
    state = match.state
    notify = set()
    for seat in state.to_act:
        user = table.user_of(state.controller(seat))
        if user is not None and user != actor and not table.is_watching(user):
            notify.add(user)
    hub.redraw(table, notify=frozenset(notify))


def announce_deal(hub: Hub, table: Table, output: dict[str, Any],
                  view: dict[str, Any] | None = None) -> None:
    """``view``: the deal's final view when the match has none (a deal entered by hand)."""
    tr = hub.tr_chat(table.chat_id)
    ctx = hub.context(table, tr)
    final_view = table.match.state.view(None) if table.match and table.match.state else {}
    final_view = final_view if view is None else view
    text = table.ui.deal_summary(output, final_view, ctx)
    if table.ui.after_deal is not None and table.match is not None:
        text = "\n\n".join(filter(None, (text, table.ui.after_deal(table.match, ctx))))
    hub.outbox.post(table.chat_id, Screen(text))
    sheet_command.attach(hub, table)


async def finish_announced(hub: Hub, table: Table) -> None:
    """The game is over: final panels, the table message and the settlement."""
    tr = hub.tr_chat(table.chat_id)
    assert table.match is not None
    hub.redraw(table)
    hub.outbox.post(table.chat_id, Screen(
        tr("🏁 <b>The game is over.</b>") + "\n\n"
        + table.ui.settlement(table.match, hub.context(table, tr))))
    hub.forget(table)


async def step(hub: Hub, table: Table, user_id: int, version: int, seat: int,
               token: str) -> Answer:
    """A UI step (a card picked for the discard...): changes only this player's panel,
    unless it completes an action."""
    tr = hub.tr_user(user_id)
    refused = check_turn(hub, table, user_id, version, seat, tr)
    if refused is not None:
        return refused
    assert table.match is not None and table.match.state is not None
    view = table.ui.seat_view(table.match.state, table.seat_of(user_id))
    try:
        outcome = table.ui.step(view, table.selection.get(seat, frozenset()), token)
    except ValueError:
        return Answer.refuse(tr("That button is not one of your choices."))
    if outcome.action is not None:
        return await act(hub, table, user_id, version, seat, outcome.action)
    table.selection[seat] = outcome.selection
    table.touch(user_id)
    hub.redraw(table)
    return OK
