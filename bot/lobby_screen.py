"""The lobby message: rules, seated players, and the buttons to change them and start."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from bot import lobby_partners, time_settings
from bot.callbacks import pack
from bot.i18n import Translate
from bot.render.screen import Button, Screen, rows_of
from bot.tables import Table
from engine.games import get_game

if TYPE_CHECKING:
    from bot.hub import Hub


def lobby_screen(hub: Hub, table: Table, tr: Translate) -> Screen:
    row = table.row
    ui = table.ui
    ctx = hub.context(table, tr)
    lines = [tr("🃏 <b>New {game} table</b>", game=tr(ui.title)), "",
             ui.rules_summary(dict(row.rules), ctx), ""]
    seated = sorted(row.seats, key=lambda s: s.seat)
    names = [escape(hub.users[s.user_id].display_name) if s.user_id in hub.users else "?"
             for s in seated if s.user_id is not None]
    lines.append(tr("Players ({n}/{total}): {names}", n=len(names), total=row.seat_count,
                    names=", ".join(names) or "—"))
    lines.extend(lobby_partners.lines(hub, table, tr))
    if table.status != "lobby":
        lines.append("")
        lines.append(tr("This table was cancelled."))
        return Screen("\n".join(lines))
    creator = hub.users.get(row.creator_id or 0)
    lines.append(tr("Only {name} can change the rules and start.",
                    name=escape(creator.display_name) if creator else "?"))

    # Each option's effective value: the table's choice, else the game's default.
    effective = get_game(row.game).rules.from_dict(dict(row.rules)).to_dict()

    def button(text: str, *parts: object) -> Button:
        return Button(text, pack("l", table.id, *parts))

    rows: list[tuple[Button, ...]] = []
    if table.page == "conventions":
        options = [button(f"{tr(o.label)}: {tr(o.name(effective[o.key]))}", "set", o.key)
                   for o in ui.conventions]
        rows.extend(rows_of(options, 1))
        rows.append((button(tr("« Back"), "page", "main"),))
        return Screen("\n".join(lines), tuple(rows))
    rows.append((button(tr("✋ Join"), "join"), button(tr("Leave"), "leave")))
    rows.extend(rows_of([button(f"{tr(o.label)}: {tr(o.name(effective[o.key]))}",
                                "set", o.key) for o in ui.main_options], 3))
    rows.extend(rows_of(time_settings.lobby_buttons(table, tr), 1))
    rows.extend(lobby_partners.buttons(table, tr))
    if ui.conventions:
        rows.append((button(tr("⚙ Conventions"), "page", "conventions"),))
    rows.append((button(tr("▶ Start"), "start"), button(tr("✖ Cancel"), "cancel")))
    # scorekeeper mode (bot/scorekeeper/lobby.py): the table only keeps the sheet
    rows.append((Button(tr("📝 Keep score only (real cards)"), pack("k", table.id, "mode")),))
    rows.append((Button(tr("Open the bot privately"), url=hub.deep_link(f"j{table.id}")),))
    return Screen("\n".join(lines), tuple(rows))
