"""Entering deals: the entry message's buttons and ``/deal``.

Each press changes the draft (``draft.Draft``) and redraws the message; Save
hands the finished entry to ``saving`` (a new deal) or ``corrections`` (a
deal corrected with ``/edit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.answers import OK, Answer
from bot.i18n import Translate
from bot.play import hub_reason
from bot.scorekeeper import corrections, lobby
from bot.scorekeeper.draft import plan
from bot.scorekeeper.entry_ui import EntryUI
from bot.scorekeeper.keeper import form_of, keeper_of, next_match
from bot.scorekeeper.registry import ENTRY_UIS
from bot.scorekeeper.saving import save_deal
from bot.tables import Table
from engine.base import ActionError
from engine.manual import EntryForm, form_for
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.hub import Hub

LOBBY_OPS = ("mode", "join", "free", "start")


async def press(hub: Hub, table: Table, user: UserRow, parts: tuple[str, ...]) -> Answer:
    """A scorekeeper button (``k:T:op:...``); called with the table's lock held."""
    tr = hub.tr_user(user.id)
    op, args = (parts[0], parts[1:]) if parts else ("", ())
    if op in LOBBY_OPS:
        return await lobby.press(hub, table, user, op, args)
    if not table.keeps_score or table.match is None or table.status != "playing":
        return Answer.refuse(tr("The game is paused.") if table.status == "paused" else
                             tr("This game is over."))
    if not lobby.may_keep(table, user.id):
        return Answer.refuse(tr("Only the players and whoever opened the table enter deals."))
    if len(args) < 2 or not args[0].isdigit() or not args[1].isdigit():
        return Answer.refuse(tr("That button is not one of your choices."))
    keeper = keeper_of(table)
    if (int(args[0]), int(args[1])) != (table.match.version, keeper.draft.revision):
        hub.redraw(table)
        return Answer.refuse(tr("This button is out of date: the message now shows the deal "
                                "as it is."))
    try:
        answer = await _entry_press(hub, table, user, op, args[2:], tr)
    except ActionError as exc:
        return Answer.refuse(hub_reason(exc, tr, table.names))
    if answer is None:
        return Answer.refuse(tr("That button is not one of your choices."))
    return answer


async def _entry_press(hub: Hub, table: Table, user: UserRow, op: str, args: tuple[str, ...],
                       tr: Translate) -> Answer | None:
    """What a press of the entry message does; None if it is not a button of this message."""
    keeper = keeper_of(table)
    draft = keeper.draft
    ui = ENTRY_UIS[table.row.game]
    form = form_of(table, draft)
    arg = args[0] if args else ""
    if op == "dealer":
        if form is not None or not arg.isdigit() or int(arg) >= len(table.names):
            return None
        draft.dealer = int(arg)
    elif op == "back":
        if draft.digits:
            draft.digits = draft.digits[:-1]
        elif draft.taps:
            draft.taps.pop()
        elif draft.dealer is not None and draft.number is None and form is not None:
            draft.dealer = None
    elif op == "clear":
        draft.taps.clear()
        draft.digits = ""
    elif op == "stop":
        keeper.restart()
    elif form is None:
        return None
    elif op == "save":
        return await _save(hub, table, user, ui, form)
    else:
        now = plan(form, draft.taps, ui.merge)
        if op == "c" and arg.isdigit() and int(arg) < len(now.paths):
            draft.taps.append(tuple(value for _, value in now.paths[int(arg)]))
        elif op == "k" and now.keypad and now.step is not None:
            if arg.isdigit() and len(draft.digits) < 3:
                draft.digits = (draft.digits + arg).lstrip("0") or "0"
            elif arg == "x":
                draft.digits = draft.digits[:-1]
            elif arg == "ok" and draft.digits:
                form.choose(now.entry, int(draft.digits))  # a wrong number: ActionError says why
                draft.taps.append((int(draft.digits),))
                draft.digits = ""
            else:
                return None
        else:
            return None
    draft.changed()
    hub.redraw(table)
    return OK


async def _save(hub: Hub, table: Table, user: UserRow, ui: EntryUI, form: EntryForm) -> Answer:
    tr = hub.tr_user(user.id)
    draft = keeper_of(table).draft
    now = plan(form, draft.taps, ui.merge)
    if not now.complete:
        return Answer.refuse(tr("The deal is not entered completely yet."))
    if draft.number is not None:
        refused = await corrections.correct(hub, table, user, draft.number, now.entry)
    else:
        refused = await save_deal(hub, table, user.id, now.entry, tr)
    return Answer.refuse(refused) if refused else Answer.note(tr("Saved."))


async def deal_command(hub: Hub, table: Table, user: UserRow, text: str,
                       tr: Translate) -> str | None:
    """``/deal <one line>``: enter the next deal at once; the reason if it is refused.
    Called with the table's lock held."""
    ui = ENTRY_UIS[table.row.game]
    if not text.strip():
        return ui.text_help(tr)
    if table.status == "lobby" or table.match is None:
        return tr("The game has not started yet.")
    if table.status != "playing":
        return tr("The game is paused.") if table.status == "paused" else tr("This game is over.")
    if not lobby.may_keep(table, user.id):
        return tr("Only the players and whoever opened the table enter deals.")
    match = next_match(table, keeper_of(table).draft)
    if match is None:
        return tr("First tap who dealt the first deal (on the table's message), then send "
                  "the deal.")
    try:
        entry = ui.parse(form_for(match), text)
    except ActionError as exc:
        return tr("Not entered: {reason}", reason=hub_reason(exc, tr, table.names))
    return await save_deal(hub, table, user.id, entry, tr)
