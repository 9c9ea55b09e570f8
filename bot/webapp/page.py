"""What one reader's Mini App shows of a table, as JSON: drawn from his own seat's view only
(a spectator's: ``view(None)``), with the texts the panels and the group message use.

Built under the table's lock (``Pages``), so it never shows a move that is applied but not
yet stored. A scorekept table has no cards: its page is the sheet, and to its keeper the
deal being entered with the private entry message's buttons (``keep``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.screens.look import Look, context, plugin_of
from bot.screens.scorekeeping import app_entry, sheet_lines
from bot.screens.table import paused_line
from bot.screens.texts import rules_text
from bot.service.play import seat_view
from bot.service.tables import Table
from bot.service.time_settings import turn_deadline
from bot.ui.i18n import Translate
from bot.ui.screen import Screen
from storage.rows import UserRow


def page(table: Table, user_id: int, tr: Translate,
         users: Mapping[int, UserRow]) -> dict[str, Any]:
    """The reader's page of ``table``: his seat's drawing and the table's texts (the sheet
    and the rules come apart, when asked for: ``sheet``); ``users``: the known users (their
    names)."""
    seat = table.seat_of(user_id)
    plugin = plugin_of(table)
    match = table.match
    out: dict[str, Any] = {
        "table": table.id, "game": table.game, "title": tr(plugin.title),
        "status": table.status, "seat": seat, "analysis": plugin.analysis is not None,
        "note": "" if table.status in ("lobby", "playing") else paused_line(table, tr),
    }
    if table.keeps_score and match is not None:
        return {**out, **_kept(table, user_id, tr, Look(users, _no_link))}
    if match is None or match.state is None:  # a lobby: nothing dealt yet
        return {**out, "version": 0, "drawing": None, "info": tr("The game has not started.")}
    view = seat_view(table, seat)
    ctx = context(table, tr, seat)
    robot = seat is not None and seat in table.row.robot_seats()
    return {
        **out, "version": match.version, "phase": view["phase"],
        "drawing": plugin.miniapp(view, ctx),
        "info": plugin.table(view, ctx).text,
        # The panel's own prompt ("Your turn: bid or pass.") is its last line.
        "prompt": "" if seat is None else plugin.panel(view, ctx).text.rsplit("\n", 1)[-1],
        "deadline": turn_deadline(table),
        "robot": tr("🤖 A robot plays for you. Press a button to take your seat back.")
        if robot and table.status in ("playing", "paused") else "",
    }


def _kept(table: Table, user_id: int, tr: Translate, look: Look) -> dict[str, Any]:
    """A scorekept game's page: how it stands and its score; to a keeper the entry too."""
    assert table.match is not None
    entry = app_entry(table, tr, look, user_id)
    info = "\n".join(sheet_lines(table, tr, look))
    score = plugin_of(table).score(table.match, context(table, tr))
    return {"version": table.match.version, "drawing": None, "info": f"{info}\n\n{score}",
            "keep": None if entry is None else _taps(table, entry),
            "analysis": False}  # no cards were dealt: nothing to analyse


def _taps(table: Table, entry: Screen) -> dict[str, Any]:
    """The entry message as the page draws it: its text, and each button's callback data
    after ``k:<table>:`` (what a tap sends, checked as a press of the button is), and the
    draft's revision (a new one at every change)."""
    assert table.keeper is not None
    prefix = f"k:{table.id}:"
    rows = [[{"label": b.text, "action": (b.data or "").removeprefix(prefix)} for b in row
             if b.data is not None and b.data.startswith(prefix)] for row in entry.rows]
    return {"text": entry.text, "rows": [r for r in rows if r],
            "revision": table.keeper.draft.revision}


def _no_link(payload: str) -> str:
    """The Mini App's screens link to no chat (their buttons are taps: ``_taps``)."""
    return ""


def sheet(table: Table, tr: Translate) -> dict[str, Any]:
    """The score as /score tells it, the settlement as if settled now, the table's rules."""
    match = table.match
    if match is None:
        return {"score": "", "settlement": "", "rules": rules_text(table, tr)}
    ctx = context(table, tr)
    plugin = plugin_of(table)
    return {"score": plugin.score(match, ctx), "settlement": plugin.settlement(match, ctx),
            "rules": rules_text(table, tr)}


def last_analysis(table: Table, tr: Translate, found: dict[str, Any] | None,
                  number: int) -> dict[str, Any]:
    """The analysis tab: deal ``number``'s analysis (0: no deal has ended yet)."""
    plugin = plugin_of(table)
    if plugin.analysis is None or not number or found is None:
        return {"deal": number, "text": ""}
    ctx = context(table, tr)
    return {"deal": number, "text": plugin.analysis(found, replace(ctx, deal_no=number))}


def texts(tr: Translate) -> dict[str, str]:
    """The page's own words, in the reader's language."""
    return {
        "table": tr("Table"), "score": tr("Score"), "rules": tr("Rules"),
        "sheet": tr("Scoresheet"), "last_trick": tr("Last trick"), "back": tr("« Back"),
        "i_am_back": tr("🙋 I am back"), "watching": tr("You are watching this table."),
        "dealer": tr("dealer"), "left": tr("{time} left"),
        "offline": tr("Connection lost: reconnecting…"),
        "settlement": tr("Settlement"),
        "analysis": tr("🔍 Analysis"),
    }
