"""Entering deals: the entry message's buttons and ``/deal``.

The entry message lives in the keeper's private chat (``open_entry``: the group message's
"✏️ Enter deal N" link), or in the keeper's Mini App (the same buttons, pressed as taps), where
its edits cost the group nothing: the group's message changes only when a deal is saved,
removed or corrected. Each press changes the draft (``draft.Draft``) and redraws the
message; Save hands the finished entry to ``saving`` (a new deal) or ``corrections`` (a deal
corrected with ``/edit``). One keeper enters at a time (``Draft.keeper``): another takes the
entry over first (``open_entry``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.drafts import EntryRules, form_of, next_match, plan
from bot.service.outcome import Outcome, Refusal
from bot.service.scorekeeping import corrections, lobby
from bot.service.scorekeeping.keeper import keep_draft, keeper_of
from bot.service.scorekeeping.saving import save_deal
from bot.service.tables import Table
from engine.base import ActionError
from engine.manual import EntryForm, form_for
from storage.rows import UserRow

if TYPE_CHECKING:
    from bot.service.ports import Services


async def press(svc: Services, table: Table, user: UserRow, parts: tuple[str, ...],
                rules: EntryRules) -> Outcome:
    """A scorekeeper button (``op`` and its arguments); called with the table's lock held."""
    op, args = (parts[0], parts[1:]) if parts else ("", ())
    if op in lobby.OPS:
        return await lobby.press(svc, table, user, op, args)
    out = Outcome()
    if not table.keeps_score or table.match is None or table.status != "playing":
        return out.refuse("paused" if table.status == "paused" else "game_ended")
    if not lobby.may_keep(table, user.id):
        return out.refuse("keepers_only")
    if len(args) < 2 or not args[0].isdigit() or not args[1].isdigit():
        return out.refuse("bad_button")
    keeper = keeper_of(table)
    if (int(args[0]), int(args[1])) != (table.match.version, keeper.draft.revision):
        return out.refuse("stale_entry").redraw(table)
    if op == "open":  # the Mini App's "✏️ Enter deal N": the entry taken over there
        return await open_entry(svc, table, user, private=False)
    if keeper.draft.keeper not in (None, user.id):  # a button of his before another took it
        return out.refuse("stale_entry").redraw(table)
    try:
        done = await _entry_press(svc, table, user, op, args[2:], rules, out)
    except ActionError as exc:
        return Outcome().refuse_error(exc)
    return out.refuse("bad_button") if done is None else done


async def open_entry(svc: Services, table: Table, user: UserRow, *,
                     private: bool = True) -> Outcome:
    """``/start k<table>``: the user enters the deals in his private chat from now on (his
    entry message comes anew there; ``private`` False: in his Mini App, no message comes);
    whoever entered them before sees that they moved, his buttons out of date. Called with
    the table's lock held."""
    out = Outcome()
    if not table.keeps_score or table.match is None or table.status == "lobby":
        return out.refuse("not_started")
    if table.status != "playing":
        return out.refuse("paused" if table.status == "paused" else "game_ended")
    if not lobby.may_keep(table, user.id):
        return out.refuse("keepers_only")
    draft = keeper_of(table).draft
    if draft.keeper != user.id:
        draft = draft.copy()
        draft.keeper = user.id
        draft.changed()
        await keep_draft(svc, table, draft)
    return out.redraw(table, notify=(user.id,) if private else ())


async def _entry_press(svc: Services, table: Table, user: UserRow, op: str,
                       args: tuple[str, ...], rules: EntryRules,
                       out: Outcome) -> Outcome | None:
    """What a press of the entry message does; None if it is not a button of this message.
    The draft changes on a copy, held once it is stored."""
    assert table.match is not None
    draft = keeper_of(table).draft.copy()
    draft.keeper = user.id  # the first press of a Mini App's keeper: he enters from now on
    form = form_of(table.match, draft)
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
        draft = draft.restarted()
    elif form is None:
        return None
    elif op == "save":
        return await _save(svc, table, user, form, rules, out)
    else:
        now = plan(form, draft.taps, rules.merge)
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
    await keep_draft(svc, table, draft)
    return out.redraw(table)


async def _save(svc: Services, table: Table, user: UserRow, form: EntryForm,
                rules: EntryRules, out: Outcome) -> Outcome:
    draft = keeper_of(table).draft
    now = plan(form, draft.taps, rules.merge)
    if not now.complete:
        return out.refuse("entry_unfinished")
    if draft.number is not None:
        await corrections.correct(svc, table, user, draft.number, now.entry, out)
    else:
        await save_deal(svc, table, user.id, now.entry, out)
    return out if not out.ok else out.done("saved")


async def deal_command(svc: Services, table: Table, user: UserRow, text: str,
                       rules: EntryRules) -> Outcome:
    """``/deal <one line>``: enter the next deal at once (nothing to do with no line: the
    presenter shows the format). Called with the table's lock held."""
    out = Outcome()
    if table.status == "lobby" or table.match is None:
        return out.refuse("not_started")
    if table.status != "playing":
        return out.refuse("paused" if table.status == "paused" else "game_ended")
    if not lobby.may_keep(table, user.id):
        return out.refuse("keepers_only")
    match = next_match(table.match, keeper_of(table).draft)
    if match is None:
        return out.refuse("dealer_first")
    try:
        entry = rules.parse(form_for(match), text)
    except ActionError as exc:
        return out.refuse("not_entered", reason=Refusal.of(exc))
    return await save_deal(svc, table, user.id, entry, out)
