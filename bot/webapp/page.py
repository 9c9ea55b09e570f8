"""What one reader's Mini App shows of a table, as JSON: drawn from his own seat's view only
(a spectator's: ``view(None)``), with the texts the panels and the group message use.

Built under the table's lock (``Pages``), so it never shows a move that is applied but not
yet stored.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.screens.look import context, plugin_of
from bot.screens.table import paused_line
from bot.screens.texts import rules_text
from bot.service.play import seat_view
from bot.service.tables import Table
from bot.service.time_settings import turn_deadline
from bot.ui.i18n import Translate


def page(table: Table, user_id: int, tr: Translate) -> dict[str, Any]:
    """The reader's page of ``table``: his seat's drawing and the table's texts (the sheet
    and the rules come apart, when asked for: ``sheet``)."""
    seat = table.seat_of(user_id)
    plugin = plugin_of(table)
    match = table.match
    out: dict[str, Any] = {
        "table": table.id, "game": table.game, "title": tr(plugin.title),
        "status": table.status, "seat": seat, "analysis": plugin.analysis is not None,
        "note": "" if table.status in ("lobby", "playing") else paused_line(table, tr),
    }
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
