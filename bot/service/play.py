"""Moves: checked, stored durably, then applied to the table and told.

Called with the table's lock held. Nothing is told before the log entry is
committed; if the commit fails the match is rebuilt from the log.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.monitoring.metrics import ACTIONS
from bot.service import events, ratings, records, votes
from bot.service.outcome import Outcome, Refusal
from bot.service.tables import DealEnd, Table
from bot.service.time_settings import TimeSettings
from engine.base import Event
from engine.manual import EntryForm
from engine.match import Match
from storage.outage import of_outage
from storage.rows import Entry, RatingChange

if TYPE_CHECKING:
    from bot.service.ports import Services

log = logging.getLogger(__name__)

SHEET_SETTING = "attach_sheet"  # table setting: the picture follows every deal's result


@dataclass(frozen=True)
class StepResult:
    """A UI step's outcome: a new selection to show, or an engine action to apply."""

    selection: frozenset[str] = frozenset()
    action: str | None = None


# (the seat's view, its selection so far, the step's token) -> what the step does;
# ValueError if the token is not a choice. The front end's own (each game's panel).
Stepper = Callable[[dict[str, Any], frozenset[str], str], StepResult]


def seat_view(table: Table, seat: int | None) -> dict[str, Any]:
    """What a seat's panel is drawn from: its view (with the legal actions of the seats it
    plays now under ``actions``)."""
    assert table.match is not None and table.match.state is not None
    return table.match.state.view(seat)


def check_press(table: Table, user_id: int, version: int) -> Refusal | None:
    """Why a press of this user's panel made at ``version`` counts for nothing; None if it
    counts (it may still not be his turn)."""
    match = table.match
    if table.status == "paused":
        return Refusal("paused")
    if table.status != "playing" or match is None or match.state is None:
        return Refusal("game_ended")
    if table.seat_of(user_id) is None:
        return Refusal("not_playing")
    if version != match.version:
        return Refusal("stale")
    return None


def check_turn(table: Table, user_id: int, version: int, seat: int) -> Refusal | None:
    """Why this user may not act for ``seat`` at ``version`` now; None if he may."""
    refusal = check_press(table, user_id, version)
    if refusal is not None:
        return refusal
    assert table.match is not None and table.match.state is not None
    state = table.match.state
    if seat not in state.to_act or table.user_of(state.controller(seat)) != user_id:
        return Refusal("not_your_turn")
    return None


def refused(table: Table, user_id: int, refusal: Refusal, out: Outcome | None = None) -> Outcome:
    """A refused press; after a stale one the presser's panel shows the game as it is, at once
    (the buttons he acted from may still show, until the round is complete)."""
    out = out or Outcome()
    out.refusal = refusal
    return out.redraw(table, urge=(user_id,)) if refusal.code == "stale" else out


async def act(svc: Services, table: Table, user_id: int, version: int, seat: int,
              action: str, *, robot: bool = False, forced: bool = False,
              out: Outcome | None = None) -> Outcome:
    """Apply ``action`` for ``seat``; ``robot``: a robot chose it for the user (stored and
    shown as the robot's); ``forced``: it was the seat's only choice, made without asking.
    The table's lock is held."""
    refusal = check_turn(table, user_id, version, seat)
    if refusal is not None:
        return refused(table, user_id, refusal, out)
    out = out or Outcome()
    match = table.match
    assert match is not None and match.state is not None
    error = match.state.check(seat, action)
    if error is not None:
        return out.refuse_error(error)
    evts = match.apply(seat, action)
    ACTIONS.labels(table.game).inc()
    if not forced:  # the last deal's end made room for this one (not for a forced choice,
        table.ended = None  # said below it: everyone still reads how the deal ended)
    entry = Entry.action(match.spec.encode_action(seat, action), user_id=user_id, robot=robot)
    output = _event_data(evts, "deal_scored", "output")
    report = _event_data(evts, "game_over", "report")
    if not await store(svc, table, entry, output, report):
        return out.refuse("not_saved")
    await svc.timers.rearm(table)
    if not robot and not forced:
        table.touch(user_id)
        table.forced.pop(seat, None)
    table.selection.pop(seat, None)
    if output is None:
        only = only_choice(table)
        if only is not None:
            return await make_only_choice(svc, table, *only, out)
        return after_move(table, user_id, out)
    deal_scored(table, output, match.state.view(None), out)
    if report is not None:
        return await game_over(svc, table, "played", out)
    if not await next_deal(svc, table, out):
        return out.refuse("next_deal_not_saved")
    return out


def only_choice(table: Table) -> tuple[int, str] | None:
    """The seat to act and its one legal action, when it is alone and no card to play (a
    misère winner's one contract, a lone possible bid): it is made without asking."""
    match = table.match
    if table.status != "playing" or match is None or match.state is None or not match.in_deal:
        return None
    state = match.state
    if state.phase == "play" or len(state.to_act) != 1:
        return None
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    if len(legal) != 1 or table.user_of(state.controller(seat)) is None:
        return None
    return seat, legal[0]


async def make_only_choice(svc: Services, table: Table, seat: int, action: str,
                           out: Outcome) -> Outcome:
    """Make a seat's only choice for it; its panel says so until it acts again."""
    assert table.match is not None and table.match.state is not None
    user_id = table.user_of(table.match.state.controller(seat))
    assert user_id is not None
    table.forced[seat] = action
    return await act(svc, table, user_id, table.match.version, seat, action, forced=True,
                     out=out)


def _event_data(evts: list[Event], kind: str, key: str) -> Any:
    return next((e.data[key] for e in evts if e.kind == kind), None)


async def store(svc: Services, table: Table, entry: Entry, output: dict[str, Any] | None,
                report: dict[str, Any] | None) -> bool:
    """Commit the entry the match has just applied (with the match's snapshot if it ended a
    deal); on failure rebuild the match."""
    match = table.match
    assert match is not None
    stats = () if output is None else records.seat_stats(table.game, len(match.players), output)
    try:
        at = await svc.store.log.append(
            table.id, match.version, entry, result=output, stats=stats,
            settlement=None if report is None else report["settlement"],
            snapshot=None if output is None else match.snapshot())
    except Exception as exc:
        if not of_outage(exc):  # an outage is said once (storage/outage.py)
            log.exception("table %s: cannot store entry %s", table.id, match.version)
        table.match = await records.load_match(svc.store, table.id)
        return False
    if report is not None:
        table.row = await svc.store.tables.get_table(table.id)
    else:
        stored(table, at)
    return True


def stored(table: Table, at: float) -> None:
    """The table's row as the log's last append left it (its head and ``updated_at``)."""
    assert table.match is not None
    table.row = replace(table.row, last_seq=table.match.version,
                        deal_count=table.match.deal_count, updated_at=at)


async def next_deal(svc: Services, table: Table, out: Outcome) -> bool:
    """Deal the next hand (from a fresh seed, secret) and store it before anyone sees it."""
    match = table.match
    assert match is not None
    if match.over or match.in_deal or table.keeps_score:  # scorekeeper mode deals nothing
        return True
    match.start_deal(seed=svc.seed())
    while not match.in_deal:  # void from the start (Seep's redeal): scored, told, redealt
        output = match.outputs[-1]
        if not await store(svc, table, Entry.deal(match.deals[-1]), output, None):
            return False
        assert match.state is not None
        deal_scored(table, output, match.state.view(None), out)
        match.start_deal(seed=svc.seed())
    if not await store(svc, table, Entry.deal(match.deals[-1]), None, None):
        return False
    table.forced.clear()
    await svc.timers.rearm(table)
    out.redraw(table, notify=to_notify(table, deal_start=True))
    only = only_choice(table)
    if only is not None:
        await make_only_choice(svc, table, *only, out)
    return out.refusal is None


def after_move(table: Table, actor: int, out: Outcome) -> Outcome:
    """Redraw; whoever must act now and has not pressed for the table's ``ping`` seconds gets
    a fresh panel (a notification: the old one goes); a player who plays on gets edits."""
    return out.redraw(table, notify=to_notify(table) - {actor})


def to_notify(table: Table, *, deal_start: bool = False) -> set[int]:
    """Who must act now and has neither pressed nor been notified for the table's ``ping``
    seconds (at a deal's start, with no ``ping``: everyone who must act). They count as
    notified now, and at a deal's start so does a player whose first panel comes now (a new
    message): a notification moments ago is not repeated (nor is the panel sent anew)."""
    ping = TimeSettings.of(table.row.settings).ping
    users = {u for u in table.acting_users()
             if (ping or deal_start) and not (ping and table.is_watching(u, ping))}
    new = {s.user_id for s in table.row.seats if deal_start and s.panel_message_id is None}
    for user in users | new:
        if user is not None:
            table.touch(user)
    return users


def deal_scored(table: Table, output: dict[str, Any], final_view: dict[str, Any],
                out: Outcome, *, entered: tuple[EntryForm, Any] | None = None) -> None:
    """Tell a deal's result (the sheet's picture with it, where the table asks for it);
    ``entered``: the form and entry of a deal entered by hand."""
    match = table.match
    assert match is not None
    picture = snapshot(match) if table.row.settings.get(SHEET_SETTING) else None
    number = len(match.outputs)
    if entered is None:
        table.ended = DealEnd(number, output, final_view)
    out.tell(events.DealScored(table, output, final_view, number, match,
                               picture=picture, entered=entered))


def snapshot(match: Match) -> Match:
    """A copy of the match, for work done outside the table's lock (drawing its sheet)."""
    return copy.deepcopy(match)


async def game_over(svc: Services, table: Table, how: str, out: Outcome) -> Outcome:
    """The game ended: its last look, the settlement (or that nothing counts); an open vote
    lapses; the table closes."""
    out.redraw(table)
    out.tell(events.GameOver(table, how, table.match,
                             () if how == "abandoned" else await _rate(svc, table)))
    await votes.void_open(svc, table, out)
    svc.timers.cancel(table.id)
    svc.tables.forget(table)
    return out


async def _rate(svc: Services, table: Table) -> tuple[RatingChange, ...]:
    """The finished game's rating changes in its group; none (and a log line) if they cannot
    be stored: the game's end must still be told (``python -m bot.ratings rebuild`` mends)."""
    try:
        return ratings.in_group(await ratings.rate(svc.store, table.id))
    except Exception:
        log.exception("table %s: cannot rate the game", table.id)
        return ()


async def step(svc: Services, table: Table, user_id: int, version: int, seat: int,
               token: str, stepper: Stepper, out: Outcome | None = None) -> Outcome:
    """A UI step (a card picked for the discard...): changes only this player's picks,
    stored before they are held (a restart, or another worker, goes on from them), unless
    it completes an action. The table's lock is held."""
    refusal = check_turn(table, user_id, version, seat)
    if refusal is not None:
        return refused(table, user_id, refusal, out)
    out = out or Outcome()
    own = table.seat_of(user_id)
    try:
        done = stepper(seat_view(table, own), table.selection.get(seat, frozenset()), token)
    except ValueError:
        return out.refuse("bad_button")
    if done.action is not None:
        return await act(svc, table, user_id, version, seat, done.action, out=out)
    table.row = await svc.store.tables.set_picks(table.id, seat, done.selection)
    table.selection[seat] = done.selection
    table.touch(user_id)
    return out.redraw(table)
