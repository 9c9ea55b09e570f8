"""A table's messages: the group's table message and each player's panel.

A game's own screens (its plugin's) draw the deal from views; here the lines
every table adds are put under them: who a robot plays for, until when the
player to act has, whose time is up, that the game is paused or over; and on
a robot-played panel the button to come back. Above them, until the next
deal's first action, the end of the last deal: its last trick (and on the
panels its result).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from html import escape

from bot.screens.lobby import lobby_screen
from bot.screens.look import (
    AppLinks,
    Look,
    analysis_buttons,
    context,
    plugin_of,
    way_to_group,
    who,
)
from bot.screens.scorekeeping import scorekeeping_screen
from bot.screens.time_settings import local_time
from bot.service.analysis import PRIVATE
from bot.service.play import seat_view
from bot.service.substitutes import waiting_players
from bot.service.tables import Table
from bot.service.time_settings import time_is_up, turn_deadline
from bot.ui.callbacks import pack
from bot.ui.i18n import Translate
from bot.ui.screen import Button, Screen


def table_message(table: Table, tr: Translate, look: Look) -> Screen | None:
    """What the table's group message shows now (None: nothing while a deal is dealt)."""
    if table.keeps_score:  # no cards, no panels: one message in the group
        return scorekeeping_screen(table, tr, look)
    if table.status == "lobby" or table.match is None:
        return lobby_screen(table, tr, look)
    state = table.match.state
    if state is None:
        return None
    screen = plugin_of(table).table(state.view(None), context(table, tr))
    screen = _after_deal(table, screen, tr, result=False)
    if table.status in ("playing", "paused"):  # a player switches to his cards in one tap
        screen = Screen(screen.text, (*screen.rows,
                                      (Button(tr("🃏 My cards"), url=look.link(f"t{table.id}")),)))
    screen = _status_note(table, _with(screen, table_notes(table, tr, look)), tr)
    return _app_button(table, screen, look, lambda app: Button(tr("🃏 Open the table"),
                                                               url=app.group(table.id)))


def panel(table: Table, seat: int, tr: Translate, look: Look) -> Screen | None:
    """The seat's private panel (None: no deal to show)."""
    match = table.match
    if table.keeps_score or match is None or match.state is None:
        return None
    screen = plugin_of(table).panel(seat_view(table, seat), context(table, tr, seat))
    screen = _after_deal(table, screen, tr, result=True)
    if seat in table.forced:
        choice = plugin_of(table).choice_label(table.forced[seat], context(table, tr, seat))
        screen = _with(screen, [tr("✔ <b>{choice}</b> was your only choice: it is made for you.",
                                   choice=choice)])
    screen = _panel_note(table, seat, screen, tr, look)
    if table.status != "playing":  # a paused game's panel keeps only its "I am back"
        screen = Screen(screen.text + "\n\n" + paused_line(table, tr),
                        tuple(r for r in screen.rows if all(_kept(b, table) for b in r)))
    screen = _with(screen, _way_back(table, seat, tr, look))
    if table.topic is not None:  # one player may sit at two tables of a forum
        screen = Screen(tr("📍 Topic «{topic}»", topic=escape(table.topic)) + "\n"
                        + screen.text, screen.rows)
    return _app_button(table, screen, look, lambda app: Button(tr("🃏 Open the table"),
                                                               web_app=app.panel(table.id)))


def _kept(button: Button, table: Table) -> bool:
    """A button a game not in play keeps on a panel: "I am back", the last deal's analysis."""
    return button.data == f"r:{table.id}" or (button.data or "").startswith(f"y:{table.id}:")


def _way_back(table: Table, seat: int, tr: Translate, look: Look) -> list[str]:
    """Where a player finds the group's table message, when the game goes on there rather
    than on his panel: at the game's start, at a deal's end (its result is posted there),
    while others act or the game is paused. A link where the group's messages have links,
    else the group's name."""
    match = table.match
    assert match is not None
    starting = match.deal_count == 1 and not match.deals[-1].get("actions")
    acting = table.status == "playing" and table.user_of(seat) in table.acting_users()
    if table.status not in ("playing", "paused") or (acting and table.ended is None
                                                       and not starting):
        return []
    return way_to_group(tr, look)


def _app_button(table: Table, screen: Screen, look: Look,
                button: Callable[[AppLinks], Button]) -> Screen:
    """The Mini App's launch button under a game's message, where the Mini App is on."""
    if look.app is None or table.status not in ("playing", "paused"):
        return screen
    return Screen(screen.text, (*screen.rows, (button(look.app),)))


def _after_deal(table: Table, screen: Screen, tr: Translate, *, result: bool) -> Screen:
    """The end of the last deal above the screen, until the next deal's first action: its
    last trick (or capture), and with ``result`` what it scored."""
    ended = table.ended
    if ended is None:
        return screen
    plugin = plugin_of(table)
    ctx = replace(context(table, tr), deal_no=ended.number)
    lines = [tr("🔚 <b>Deal {n} is over.</b>", n=ended.number)]
    last = plugin.last_play(ended.final_view, ctx)
    if last:
        lines.append(last)
    rows = screen.rows
    if result:
        lines.append(plugin.deal_summary(ended.output, ended.final_view, ctx, table.match))
        rows += analysis_buttons(table, ended.number, ended.output, tr, PRIVATE)
    else:
        lines.append(tr("The result is below."))
    return Screen("\n".join(lines) + "\n\n" + screen.text, rows)


def paused_line(table: Table, tr: Translate) -> str:
    if table.status == "paused":
        return tr("⏸ The game is paused.")
    if table.status == "finished":
        return tr("🏁 The game is over.")
    return tr("The game was stopped.")


def _status_note(table: Table, screen: Screen, tr: Translate) -> Screen:
    if table.status == "playing":
        return screen
    return Screen(screen.text + "\n\n" + paused_line(table, tr), screen.rows)


def _with(screen: Screen, lines: list[str], rows: tuple[tuple[Button, ...], ...] = ()) -> Screen:
    if not lines:
        return screen
    return Screen(screen.text + "\n\n" + "\n".join(lines), screen.rows + rows)


def table_notes(table: Table, tr: Translate, look: Look) -> list[str]:
    lines = []
    robots = sorted(table.row.robot_seats())
    if robots and table.status == "playing":
        lines.append(tr("🤖 A robot plays for {names}.",
                        names=", ".join(who(table, s) for s in robots)))
    waiting = ", ".join(who(table, s) for s in waiting_players(table))
    deadline = turn_deadline(table)
    if waiting and deadline is not None:
        lines.append(tr("⏳ {names}: until {time}.", names=waiting,
                        time=local_time(look.chat, deadline, look.now)))
    elif waiting and time_is_up(table):
        lines.append(tr("⏰ Waiting for {names}: the time is up.", names=waiting))
    return lines


def _panel_note(table: Table, seat: int, screen: Screen, tr: Translate, look: Look) -> Screen:
    if table.status not in ("playing", "paused"):
        return screen
    if seat in table.row.robot_seats():  # paused too: coming back is how a pause ends
        back = Button(tr("🙋 I am back"), pack("r", table.id))
        return _with(screen, [tr("🤖 A robot plays for you. Press a button to take your "
                                 "seat back.")], ((back,),))
    deadline = turn_deadline(table)
    if seat in waiting_players(table) and deadline is not None:
        return _with(screen, [tr("⏳ Your turn: until {time}.",
                                 time=local_time(look.chat, deadline, look.now))])
    return screen
