"""The lobby message: rules, seated players, and the buttons to change them and start."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.games import PLUGINS
from bot.screens.look import Look, context, plugin_of
from bot.screens.time_settings import lobby_buttons
from bot.service.lobby import shown_index
from bot.service.tables import Table, gives_hints, is_public
from bot.ui.callbacks import pack
from bot.ui.i18n import Translate
from bot.ui.screen import Button, Screen, rows_of
from engine.base import offered_values


def lobby_screen(table: Table, tr: Translate, look: Look) -> Screen:
    row = table.row
    plugin = plugin_of(table)
    options = plugin.options
    again = table.rematch_of is not None and table.status == "lobby"
    lines = [tr("🔁 <b>{game} again</b>", game=tr(plugin.title)) if again else
             tr("🃏 <b>New {game} table</b>", game=tr(plugin.title)), "",
             plugin.rules_summary(dict(row.rules), context(table, tr)),
             tr("Every other convention as usual: /rules all lists them all.") if again else
             tr("Every other convention as usual (⚙ Conventions shows them all)."), ""]
    seated = sorted(row.seats, key=lambda s: s.seat)
    names = [("✅ " if again and s.user_id in table.ready else "") + look.user_name(s.user_id)
             for s in seated if s.user_id is not None]
    lines.append(tr("Players ({n}/{total}): {names}", n=len(names), total=row.seat_count,
                    names=", ".join(names) or "—"))
    lines.extend(partner_lines(table, tr, look))
    if again:
        return _rematch(table, lines, tr)
    if table.status != "lobby":
        lines.append("")
        lines.append(tr("This table was cancelled."))
        return Screen("\n".join(lines))
    lines.append(tr("Only {name} can change the rules and start.",
                    name=look.user_name(row.creator_id)))
    rows: list[tuple[Button, ...]] = []
    if table.page == "conventions":
        rows.extend(rows_of(option_buttons(table, tr, options.conventions), 1))
        rows.append((Button(tr("« Back"), pack("l", table.id, "page", "main")),))
        return Screen("\n".join(lines), tuple(rows))

    def button(text: str, *parts: object) -> Button:
        return Button(text, pack("l", table.id, *parts))

    rows.append((button(tr("✋ Join"), "join"), button(tr("Leave"), "leave")))
    rows.extend(rows_of(option_buttons(table, tr, options.main), 3))
    rows.extend(rows_of(lobby_buttons(table, tr), 1))
    if table.spec.hint is not None:
        hints = tr("on") if gives_hints(row.settings) else tr("off")
        rows.append((button(tr("💡 Hints for learners (not rated): {value}", value=hints),
                            "hints"),))
    watch = tr("anyone with the link") if is_public(row.settings) else tr("group members")
    rows.append((button(tr("👀 Who may watch in the Mini App: {value}", value=watch),
                        "public"),))
    if _teams(table):
        rows.append((button(tr("🤝 Change partners"), "partners"),))
    if options.conventions:
        rows.append((button(tr("⚙ Conventions"), "page", "conventions"),))
    rows.append((button(tr("▶ Start"), "start"), button(tr("✖ Cancel"), "cancel")))
    # scorekeeper mode: the table only keeps the sheet
    rows.append((Button(tr("📝 Keep score only (real cards)"), pack("k", table.id, "mode")),))
    rows.append((Button(tr("Open the bot privately"), url=look.link(f"j{table.id}")),))
    return Screen("\n".join(lines), tuple(rows))


def _rematch(table: Table, lines: list[str], tr: Translate) -> Screen:
    """A rematch lobby: each player confirms with one press; nothing else changes."""
    lines.append(tr("The same rules and players, each one seat on. Each player presses "
                    "“✅ I play”; the game starts when all have."))
    return Screen("\n".join(lines), (
        (Button(tr("✅ I play"), pack("p", table.rematch_of)),),
        (Button(tr("Leave"), pack("l", table.id, "leave")),
         Button(tr("✖ Cancel"), pack("l", table.id, "cancel")))))


def option_buttons(table: Table, tr: Translate, keys: tuple[str, ...]) -> list[Button]:
    """One button per option showing its value; a press moves it on from the value shown
    (``l:T:set:key:i``, see ``lobby.shown_index``)."""
    # Each option's effective value: the table's choice, else the game's default.
    effective = table.spec.rules.from_dict(dict(table.row.rules)).to_dict()
    return [Button(option_text(table.game, k, effective[k], tr),
                   pack("l", table.id, "set", k,
                        shown_index(offered_values(table.spec.rules, k), effective[k])))
            for k in keys]


def option_text(game: str, key: str, value: Any, tr: Translate) -> str:
    """``Players: 4``: an option of ``game`` and its value."""
    options = PLUGINS[game].options
    return f"{tr(options.labels[key])}: {tr(options.name(key, value))}"


def _teams(table: Table) -> list[list[int]]:
    teams: list[list[int]] = table.spec.teams(table.spec.rules.from_dict(dict(table.row.rules)))
    return teams


def partner_lines(table: Table, tr: Translate, look: Look) -> list[str]:
    """"Partners: Ann & Cid against Bob & Dan" (an empty seat shows as "…")."""
    sides = _teams(table)
    if not sides:
        return []

    def name(seat: int) -> str:
        user = look.users.get(table.row.user_of(seat) or 0)
        return escape(user.display_name) if user else "…"

    one, other = (" &amp; ".join(name(s) for s in side) for side in sides)
    return [tr("Partners: {one} against {other}", one=one, other=other)]
