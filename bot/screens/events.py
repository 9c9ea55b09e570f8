"""What the group and the players are told of an event (``bot.service.events``)."""

from __future__ import annotations

import time
from dataclasses import replace
from html import escape

from bot.games import PLUGINS
from bot.screens import refusals
from bot.screens.look import analysis_buttons, context, plugin_of, who
from bot.screens.ratings import changes_text
from bot.screens.scorekeeping import deal_text, entry_text
from bot.screens.texts import game_titles, vote_buttons
from bot.screens.time_settings import label, summary, time_left, value_name
from bot.service import events
from bot.service.tables import Table
from bot.service.time_settings import TimeSettings
from bot.ui.callbacks import pack
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.screen import Button, Screen
from engine.manual import form_at
from storage.rows import VoteRow


def game_begins(tr: Translate, link: str) -> Screen:
    """The start, with the way to the private chat (``link``) where the cards are."""
    return Screen(tr('The game begins. Your cards are in <a href="{link}">your private chat '
                     'with me</a>.', link=link),
                  ((Button(tr("🃏 My cards"), url=link),),))


def deal_result(ev: events.DealScored, tr: Translate) -> Screen:
    table = ev.table
    plugin = plugin_of(table)
    ctx = replace(context(table, tr), deal_no=ev.number)
    view = plugin.entry.final_view(*ev.entered) if ev.entered is not None else ev.final_view
    text = plugin.deal_summary(ev.output, view, ctx, ev.match)
    if plugin.after_deal is not None:
        text = "\n\n".join(filter(None, (text, plugin.after_deal(ev.match, ctx))))
    if ev.entered is not None:
        return Screen(text)
    return Screen(text, analysis_buttons(table, ev.number, ev.output, tr))


def deal_analysis(ev: events.DealAnalysed, tr: Translate) -> Screen:
    """A finished deal's analysis, in the players' words."""
    row = ev.row
    analysis = PLUGINS[row.game].analysis
    assert analysis is not None
    users = tuple(s.user_id for s in sorted(row.seats, key=lambda s: s.seat))
    ctx = RenderContext(row.id, list(row.players or []), row.rules, ev.number, tr, users=users)
    return Screen(analysis(ev.analysis, ctx))


def game_over(ev: events.GameOver, tr: Translate) -> Screen:
    """The game's last word: the settlement and the rating changes; "Play again" unless the
    table kept a real game's sheet."""
    table = ev.table
    again = () if table.keeps_score else (
        (Button(tr("🔁 Play again"), pack("p", table.id)),),)
    if ev.how == "abandoned" or ev.match is None:
        return Screen(tr("The game was abandoned. Nothing counts."), again)
    head = (tr("🏁 <b>The game is over.</b>") if ev.how == "played" else
            tr("🏁 <b>The game was stopped by agreement.</b>"))
    parts = [head, plugin_of(table).settlement(ev.match, context(table, tr))]
    if ev.ratings:
        parts.append(changes_text(table, ev.ratings, tr))
    return Screen("\n\n".join(parts), again)


def vote_question(ev: events.VoteAsked, tr: Translate) -> Screen:
    return Screen(question(ev.table, ev.vote, ev.initiator_name, tr) + "\n"
                  + tr("The other players decide."), vote_buttons(ev.table.id, ev.vote.id, tr))


def vote_over(ev: events.VoteEnded, tr: Translate) -> str:
    """How a vote ended: written under what it asked, in its message (no buttons then)."""
    if ev.void == "sheet_changed":
        outcome = tr("✖ This vote no longer applies: the sheet has changed since.")
    elif ev.void == "game_over":
        outcome = tr("✖ This vote no longer applies: the game is over.")
    elif ev.by is not None:
        outcome = "❌ " + vote_refused(ev, tr).text
    else:
        outcome = tr("✅ Everyone agreed.")
    return outcome


def vote_refused(ev: events.VoteEnded, tr: Translate) -> Screen:
    return Screen(tr("{name} refused: the game goes on.", name=escape(ev.by or "?")))


def question(table: Table, vote: VoteRow, initiator_name: str, tr: Translate) -> str:
    """What a vote asks (HTML)."""
    seat = table.seat_of(vote.initiator)
    name = who(table, seat) if seat is not None else escape(initiator_name)
    params = vote.params
    if vote.kind == "leave":
        return tr("{name} wants to stop here. End the game now with the settlement as it "
                  "stands?", name=name)
    if vote.kind == "abort":
        return tr("{name} wants to abandon the game. Nothing will count.", name=name)
    if vote.kind == "pause":
        return (tr("{name} wants to pause the game.", name=name) if params["paused"] else
                tr("{name} wants to go on with the game.", name=name))
    if vote.kind == "timer":
        key = params["key"]
        setting = f"{label(key, tr)}: {value_name(key, params['value'], tr)}"
        return tr("{name} proposes: {setting}.", name=name, setting=setting)
    if vote.kind == "replace":
        return tr("{name} proposes that {new} takes the seat of {old}.", name=name,
                  new=escape(str(params["name"])), old=who(table, params["seat"]))
    return tr("{name} wants to {what}.", name=escape(initiator_name) or name,
              what=_correction(table, params, tr))


def _correction(table: Table, params: dict[str, object], tr: Translate) -> str:
    match = table.match
    assert match is not None
    number = params["number"]
    assert isinstance(number, int)
    ui = plugin_of(table).entry
    if params["op"] == "undo":
        return tr("remove deal {n} ({text})", n=number, text=escape(deal_text(ui, match, number)))
    form = form_at(match, number)
    assert isinstance(params["entry"], dict)
    text = entry_text(ui, form, form.from_dict(params["entry"]))
    return tr("correct deal {n} to: {text}", n=number, text=escape(text))


def paused(ev: events.Paused, tr: Translate) -> Screen:
    return Screen({
        "asked": tr("⏸ The game is paused: no moves and no timers until /resume."),
        "resumed": tr("▶ The game goes on."),
        "everyone_away": tr("⏸ Everybody is away, so the game is paused. /resume when you "
                            "are back."),
    }[ev.why])


def player_back(ev: events.PlayerBack, tr: Translate) -> Screen:
    return Screen(tr("🙋 {name} is back and plays again.", name=who(ev.table, ev.seat)))


def time_up(ev: events.TimeUp, tr: Translate) -> Screen:
    name = who(ev.table, ev.seat)
    return Screen({
        "wait": tr("⏰ {name}, your time is up. The table waits for you.", name=name),
        "robot": tr("⏰ Time is up for {name}: a robot plays for them until they press a "
                    "button of their panel.", name=name),
        "auto": tr("⏰ Time is up for {name}: I made a move for them.", name=name),
    }[ev.then])


def reminder(ev: events.Reminder, tr: Translate) -> Screen:
    return Screen(tr("⏳ It is your turn in {game}: {left} left.",
                     game=tr(plugin_of(ev.table).title),
                     left=time_left(ev.deadline - time.time(), tr)))


def time_settings_changed(ev: events.TimeSettingsChanged, tr: Translate) -> Screen:
    return Screen(tr("Time settings now: {summary}",
                     summary=summary(TimeSettings.of(ev.settings), tr)))


def replaced(ev: events.Replaced, tr: Translate) -> Screen:
    return Screen(tr("🔄 {new} takes the seat of {old} (the scoresheet keeps the seat's name).",
                     new=escape(ev.new_name), old=who(ev.table, ev.seat)))


def replaced_player(ev: events.Replaced, tr: Translate) -> Screen:
    """To the player whose seat was taken."""
    return Screen(tr("🔄 {new} took your seat at the table. Thank you for playing!",
                     new=escape(ev.new_name)))


def cannot_write(ev: events.CannotWrite, tr: Translate, link: str) -> Screen:
    return Screen(tr("{name}, I cannot write to you privately, so you cannot see your cards. "
                     "Open {link} and press Start.", name=who(ev.table, ev.seat), link=link))


def deal_removed(ev: events.DealRemoved, tr: Translate) -> Screen:
    code = "<code>" + escape(deal_text(plugin_of(ev.table).entry, ev.match, ev.number)) + "</code>"
    return Screen(tr("↩ Deal {n} was removed: {text}", n=ev.number, text=code))


def deal_corrected(ev: events.DealCorrected, tr: Translate) -> Screen:
    table = ev.table
    plugin = plugin_of(table)
    lines = [tr("✏️ Deal {n} was corrected.", n=ev.number)]
    if ev.later:
        lines.append(tr("The deals after it were scored again: /score shows the sheet."))
    view = plugin.entry.final_view(*ev.entered)
    lines.append(plugin.deal_summary(ev.output, view,
                                     replace(context(table, tr), deal_no=ev.number), table.match))
    return Screen("\n".join(lines))


def refused(ev: events.Refused, tr: Translate) -> Screen:
    return Screen(refusals.text(ev.refusal, tr, ev.table.names, html=True))


def welcome(tr: Translate) -> Screen:
    return Screen(tr("Hello! Send /newgame to open a table ({games}). /help lists my commands.",
                     games=game_titles(tr)))
