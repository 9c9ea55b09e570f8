"""The messages of a scorekept table: the group's (its lobby, the next deal and who enters
it, the end) and the entry message in the keeper's private chat.

The entry message asks the entry's next question with one button per answer
path, a keypad for big numbers, and Save, Back and Clear. Every button carries
the match version and the draft's revision, so a stale press (a double tap, an
old message) changes nothing. The group's message changes only when a deal is
saved, removed or corrected, or another keeper takes the entry over: its link
opens the entry in the presser's private chat, and its Mini App link the same entry
there (``app_entry``: its buttons are taps).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from bot.games.entry import EntryUI, who
from bot.screens.lobby import lobby_screen
from bot.screens.look import Look, context, plugin_of, way_to_group
from bot.service.drafts import Draft, Plan, form_of, plan, taps_of
from bot.service.scorekeeping.lobby import may_keep
from bot.service.tables import Table
from bot.ui.callbacks import pack
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Button, Screen, rows_of
from engine.manual import EntryForm, Step, form_at, form_for
from engine.match import Match

KEYPAD = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("x", "0", "ok"))


def scorekeeping_screen(table: Table, tr: Translate, look: Look) -> Screen:
    """What a scorekept table's group message shows now."""
    if table.status == "lobby" or table.match is None:
        return lobby(table, tr, look)
    lines = sheet_lines(table, tr, look)
    if table.status == "finished":
        return Screen("\n".join([*lines, tr(
            "If the last deal was entered by mistake, /undo removes it and the game goes on.")]))
    if table.status != "playing":
        return Screen("\n".join(lines))
    assert table.keeper is not None  # a scorekept game is loaded with its keeper
    number = table.keeper.draft.number or len(table.match.deals) + 1
    lines += ["", tr("The deal's buttons open in my private chat. Or type the whole deal: "
                     "/deal … (/deal alone shows how). /undo removes the last deal, /edit N "
                     "corrects deal N, /score shows the sheet.")]
    rows: list[tuple[Button, ...]] = [(_entry_link(table, tr, look, number),)]
    if look.app is not None:
        lines.append(tr("The Mini App enters the deal by taps too."))
        rows.append((Button(tr("📱 Open in the Mini App"), url=look.app.group(table.id)),))
    return Screen("\n".join(lines), tuple(rows))


def sheet_lines(table: Table, tr: Translate, look: Look) -> list[str]:
    """A scorekept game as it stands: its title, the next deal and who enters it (the
    group's message, and the Mini App's table)."""
    title = _title(table, tr)
    if table.status == "finished":
        return [title, tr("🏁 The game is over.")]
    if table.status == "aborted" or table.match is None:
        return [title, tr("The game was stopped.")]
    assert table.keeper is not None  # a scorekept game is loaded with its keeper
    draft = table.keeper.draft
    number = draft.number or len(table.match.deals) + 1
    lines = [title, _next_deal(table, tr)]
    if draft.keeper is not None:
        name = look.user_name(draft.keeper)
        lines.append(tr("✏️ {name} is correcting deal {n}.", name=name, n=number)
                     if draft.number is not None else
                     tr("✏️ {name} is entering deal {n}.", name=name, n=number))
    if table.status == "paused":
        lines += ["", tr("⏸ The game is paused.")]
    return lines


def keeper_screen(table: Table, tr: Translate, look: Look, user_id: int) -> Screen:
    """The entry message in the private chat of ``user_id``, who entered the table's deals
    here: the deal being entered with its buttons while he is the keeper; else who enters
    them now, with the link to take the entry back."""
    title = _title(table, tr)
    if table.topic is not None:
        title = tr("📍 Topic «{topic}»", topic=escape(table.topic)) + "\n" + title
    back = way_to_group(tr, look)
    if table.status in ("finished", "aborted") or table.match is None:
        over = tr("🏁 The game is over.") if table.status == "finished" else tr(
            "The game was stopped.")
        return Screen("\n".join([title, over, *back]))
    entry = _entry_of(table, tr, look, user_id, lambda n: _entry_link(table, tr, look, n))
    rows = entry.rows
    if look.app is not None and table.status == "playing":
        rows = (*rows, (Button(tr("📱 Open in the Mini App"), web_app=look.app.panel(table.id)),))
    return Screen("\n".join([title, entry.text, *(["", *back] if back else [])]), rows)


def app_entry(table: Table, tr: Translate, look: Look, user_id: int) -> Screen | None:
    """The entry in the Mini App of ``user_id``: what his private entry message shows, its
    buttons pressed as taps (the Mini App's own "✏️ Enter deal N" takes the entry over where
    another keeper enters); None: he may not keep the score, or no deal is being entered."""
    if table.keeper is None or table.match is None or not may_keep(table, user_id) \
            or table.status not in ("playing", "paused"):
        return None
    match, draft = table.match, table.keeper.draft

    def take(number: int) -> Button:
        return Button(_entry_label(table, tr, number),
                      pack("k", table.id, "open", match.version, draft.revision))

    return _entry_of(table, tr, look, user_id, take)


def _entry_of(table: Table, tr: Translate, look: Look, user_id: int,
              take: Callable[[int], Button]) -> Screen:
    """The deal being entered with its buttons while ``user_id`` enters it (or nobody does
    yet); else who enters it now and ``take``, the button that takes the entry over."""
    assert table.keeper is not None and table.match is not None
    draft = table.keeper.draft
    if draft.keeper not in (None, user_id):
        number = draft.number or len(table.match.deals) + 1
        return Screen(tr("✏️ {name} enters the deals now.", name=look.user_name(draft.keeper)),
                      ((take(number),),))
    entry = entry_screen(table, tr)
    if table.status == "paused":
        return Screen("\n".join([entry.text, "", tr("⏸ The game is paused.")]))
    return entry


def _title(table: Table, tr: Translate) -> str:
    return tr("📝 <b>{game}</b> · keeping score", game=tr(plugin_of(table).title))


def _next_deal(table: Table, tr: Translate) -> str:
    """The deal to enter next, and its dealer once known."""
    match = table.match
    assert match is not None
    if not match.deals:
        return tr("<b>Deal 1</b>")
    ctx = context(table, tr)
    return tr("<b>Deal {n}</b> · {name} deals", n=len(match.deals) + 1,
              name=who(ctx, form_for(match).dealer))


def _entry_link(table: Table, tr: Translate, look: Look, number: int) -> Button:
    """The link that opens the entry in the presser's private chat (``/start k<table>``)."""
    return Button(_entry_label(table, tr, number), url=look.link(f"k{table.id}"))


def _entry_label(table: Table, tr: Translate, number: int) -> str:
    assert table.keeper is not None
    return (tr("✏️ Correct deal {n}", n=number) if table.keeper.draft.number is not None
            else tr("✏️ Enter deal {n}", n=number))


def entry_screen(table: Table, tr: Translate) -> Screen:
    """The deal being entered: what is known, the question, the buttons."""
    match = table.match
    assert match is not None
    assert table.keeper is not None  # a scorekept game is loaded with its keeper
    draft = table.keeper.draft
    ui = plugin_of(table).entry
    ctx = context(table, tr)

    def button(text: str, op: str, *args: object) -> Button:
        return Button(text, pack("k", table.id, op, match.version, draft.revision, *args))

    form = form_of(match, draft)
    if form is None:
        players = [button(escape(name), "dealer", seat) for seat, name in enumerate(ctx.names)]
        return Screen("\n".join([tr("<b>Deal 1</b>"), "", tr("<b>Who dealt the first deal?</b>")]),
                      tuple(rows_of(players, 4)))
    now = plan(form, draft.taps, ui.merge)
    number = draft.number or len(match.deals) + 1
    lines = [_heading(ui, form, number, draft, ctx)]
    if draft.number is not None:
        code = f"<code>/edit {number} {escape(deal_text(ui, match, draft.number))}</code>"
        lines.append(tr("As entered: {text}", text=code))
    if now.answered:
        lines.append(tr("Entered: {entry}", entry=ui.so_far(form, now.answered, ctx)))
    lines.append("")
    rows: list[tuple[Button, ...]] = []
    if now.step is not None:
        lines.append(f"<b>{ui.question(form, now.step, now.entry, ctx)}</b>")
        if now.keypad:
            lines.append(tr("Typed: {digits}", digits=draft.digits or "…"))
            rows += [tuple(button(_key(k, tr), "k", k) for k in row) for row in KEYPAD]
        else:
            rows += _answer_rows(ui, now, ctx, lambda text, i: button(text, "c", i))
    if now.complete:
        if now.step is None:
            lines.append(tr("All entered: check it and tap ✅ Save."))
        rows.append((button(tr("✅ Save deal {n}", n=number), "save"),))
    controls = []
    if draft.taps or draft.digits or (draft.dealer is not None and not match.deals):
        controls.append(button(tr("↩ Back"), "back"))
    if draft.taps:
        controls.append(button(tr("✖ Clear"), "clear"))
    if draft.number is not None:
        controls.append(button(tr("Stop correcting"), "stop"))
    if controls:
        rows.append(tuple(controls))
    return Screen("\n".join(lines), tuple(rows))


def _heading(ui: EntryUI, form: EntryForm, number: int, draft: Draft,
             ctx: RenderContext) -> str:
    tr = ctx.tr
    dealer = who(ctx, form.dealer)
    line = (tr("✏️ <b>Correcting deal {n}</b> · {name} dealt", n=number, name=dealer)
            if draft.number is not None else
            tr("<b>Deal {n}</b> · {name} deals", n=number, name=dealer))
    extra = ui.deal_line(form, ctx)
    return f"{line} · {extra}" if extra else line


def _answer_rows(ui: EntryUI, now: Plan, ctx: RenderContext,
                 make: Callable[[str, int], Button]) -> list[tuple[Button, ...]]:
    """One button per path; paths of one group share a row, the others fill rows."""
    step = now.step
    assert step is not None
    rows: list[tuple[Button, ...]] = []
    groups: dict[Any, list[Button]] = {}
    loose: list[Button] = []
    for i, path in enumerate(now.paths):
        key = ui.group(step, path)
        (loose if key is None else groups.setdefault(key, [])).append(
            make(ui.label(path, ctx), i))
    for buttons in groups.values():
        rows += rows_of(buttons, len(buttons))
    rows += rows_of(loose, ui.width(step))
    return rows


def _key(key: str, tr: Translate) -> str:
    return {"x": "⌫", "ok": tr("OK")}.get(key, key)


def deal_text(ui: EntryUI, match: Match, number: int) -> str:
    """Deal ``number`` of the match as it was entered, in the text form."""
    form = form_at(match, number)
    return entry_text(ui, form, form.from_dict(match.deals[number - 1]["entry"]))


def entry_text(ui: EntryUI, form: EntryForm, entry: Any) -> str:
    """An entry of the form in the text form."""
    answered: Sequence[tuple[Step, Any]] = plan(form, taps_of(form, entry), ui.merge).answered
    return ui.to_text(form, entry, answered)


def seat_names(table: Table, look: Look) -> list[str]:
    """The seated players' names in seat order (before the start fixes them)."""
    names = []
    for seat in sorted(table.row.seats, key=lambda s: s.seat):
        user = look.users.get(seat.user_id) if seat.user_id is not None else None
        names.append(seat.guest_name or (user.display_name if user else "?"))
    return names


def lobby(table: Table, tr: Translate, look: Look) -> Screen:
    """The lobby of a table that keeps score: players clockwise, typed names, the rules."""
    row = table.row
    ordinary = lobby_screen(table, tr, look)
    rules_rows = [r for r in ordinary.rows if all(_is_rules_button(table, b) for b in r)]
    plugin = plugin_of(table)
    lines = [tr("📝 <b>{game}: keep score only</b>", game=tr(plugin.title)),
             tr("You play with your own cards; I keep the sheet."), "",
             plugin.rules_summary(dict(row.rules), context(table, tr)), "",
             tr("Players, clockwise ({n}/{total}): {names}", n=len(row.seats),
                total=row.seat_count,
                names=", ".join(escape(n) for n in seat_names(table, look)) or "—")]
    if table.status != "lobby":
        lines += ["", tr("This table was cancelled.")]
        return Screen("\n".join(lines))
    lines.append(tr("Telegram users tap Join; add anyone else by name: /add Ann, Bob"))
    if table.page == "conventions":
        return Screen("\n".join(lines), tuple(rules_rows))

    def button(text: str, *parts: object) -> Button:
        return Button(text, pack("k", table.id, *parts))

    rows = [(button(tr("✋ Join"), "join"), Button(tr("Leave"), pack("l", table.id, "leave"))),
            *rules_rows]
    rows += rows_of([button(tr("✖ {name}", name=name), "free", s.seat)
                     for s, name in zip(sorted(row.seats, key=lambda s: s.seat),
                                        seat_names(table, look), strict=True)], 3)
    rows.append((button(tr("▶ Start"), "start"),
                 Button(tr("✖ Cancel"), pack("l", table.id, "cancel"))))
    rows.append((button(tr("🃏 Deal the cards instead"), "mode"),))
    return Screen("\n".join(lines), tuple(rows))


def _is_rules_button(table: Table, button: Button) -> bool:
    """The ordinary lobby's rules buttons (an option, a page of options)."""
    return (button.data or "").startswith((f"l:{table.id}:set:", f"l:{table.id}:page:"))
