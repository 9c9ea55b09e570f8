"""Refusals in the reader's language: a ``Refusal``'s code and params -> a template.

Two kinds of code. The engines' (``ActionError.code``): the games' plugins and
``ENGINE`` give their templates; English players read the engine's own message,
which is often more precise (it may name every card a capture must take), and so
does anyone when the code is unknown, its template is not translated into the
language, or a value the template needs is not in the params. The bot's own
(``BOT``): refusals and answers of the use cases, always by their template.

The params fill the template, converted for reading (``VALUES``: a suit letter
becomes its symbol, a seat its player's name, a nested refusal its text...).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from bot.games import PLUGINS
from bot.screens.lobby import option_text
from bot.screens.time_settings import setting_text
from bot.service.outcome import Refusal, Setting
from bot.ui.cards import card
from bot.ui.i18n import Translate
from engine.base import ActionError
from engine.cards import Suit

Templates = dict[str, str | tuple[str, ...]]


def engine_templates(tr: Callable[[str], str]) -> Templates:
    """Every refusal code of the engines -> its template, through ``tr`` (untranslated:
    the identity). Where a code comes with different values (in different games, or
    places), alternatives: the first whose values are all given is used."""
    found: Templates = {
        "not_your_turn": tr("It is not your turn."),
        "wrong_phase": tr("That is not what the game expects now."),
        "deal_over": tr("This deal is over."),
        "deal_not_over": tr("The deal is not finished yet."),
        "deal_in_progress": tr("The current deal is not finished yet."),
        "no_deal": tr("No deal is in progress."),
        "game_over": tr("The game is over."),
        "bad_action": tr("That action cannot be read."),
        "bad_seat": tr("That is not a player of this deal."),
        "bad_card": tr("That is not a card."),
        "not_in_hand": tr("You do not hold {card}."),
        "must_follow": tr("You must follow suit: play a {suit}."),
        "must_trump": tr("You must play a trump ({suit})."),
        "bad_bid": tr("That is not a bid."),
        "bid_range": (tr("A bid is 0 to {max} tricks in this deal."),  # Joker
                      tr("A bid is 9 to 13, not {bid}.")),  # Seep
        "entry_complete": tr("The deal is entered completely."),
        "entry_incomplete": tr("The deal is not entered completely."),
        "entry_missing": tr("The deal is not entered completely."),
        "entry_inconsistent": tr("The entry does not follow its steps."),
        "bad_entry": tr("The entry cannot be read."),
        "bad_text": (tr("The entry cannot be read at “{word}” (character {position})."),
                     tr("The entry cannot be read.")),
        "bad_tricks": tr("{name} cannot have taken that many tricks."),
        "no_such_deal": tr("There is no deal {deal}."),
        "played_deal": tr("Deal {deal} was played with the bot: only entered deals can be "
                          "undone or corrected."),
        "nothing_to_undo": tr("No deal has been entered yet."),
    }
    for plugin in PLUGINS.values():
        found.update(plugin.refusals(tr))
    return found


def bot_templates(tr: Callable[[str], str]) -> Templates:
    """The use cases' refusal codes and the notes a press or command is answered with."""
    return {
        # a press or a command that changed nothing
        "bad_button": tr("That button is not one of your choices."),
        "not_mine": tr("This button is not one of mine, or it is too old."),
        "table_closed": tr("This table is closed."),
        "failed": tr("Something went wrong; nothing was changed. Please try again."),
        "paused": tr("The game is paused."),
        "game_ended": tr("This game is over."),
        "not_playing": tr("You are not playing at this table."),
        "not_your_turn": tr("It is not your turn."),
        "stale": tr("This button is out of date: your panel now shows the game as it is."),
        "not_saved": tr("Your move could not be saved. Please try again."),
        "next_deal_not_saved": tr("The next deal could not be saved; it will be dealt later."),
        "first_deal_not_saved": tr("The first deal could not be saved; it will be dealt "
                                   "later."),
        "table_exists": tr("This chat already has a {game} table ({status}). Finish or cancel "
                           "it first."),
        "table_exists_here": tr("This chat already has a table. Finish or cancel it first."),
        "not_your_menu": tr("Only whoever sent /newgame chooses here: send /newgame to open "
                            "a table yourself."),
        "lobby_closed": tr("This table has already started or was cancelled."),
        "creator_only": tr("Only the player who opened the table can do that."),
        "not_at_table": tr("You are not at this table."),
        "table_full": tr("The table is full."),
        "cannot_join": tr("You cannot join this table now."),
        "rules_refuse": tr("Not with these rules: {reason}"),
        "seat_in_the_way": tr("Someone sits at a seat that would go away; they must leave "
                              "first."),
        "waiting_for": tr("Waiting for {n} more players."),
        "no_table_here": tr("No table is open here."),
        "no_table_open": tr("No table is open here. Send /newgame to open one."),
        "no_game_here": tr("No game is being played here."),
        "not_at_any_table": tr("You are not playing at any table."),
        "players_only": tr("Only the players of this game can do that."),
        "paused_already": tr("The game is paused already. /resume to go on."),
        "not_paused": tr("The game is not paused."),
        "unknown_user": tr("I do not know {name}: they must open me privately first "
                           "({link})."),
        "replace_how": tr("Name the new player: /replace @new, or /replace @old @new."),
        "not_a_player": tr("{name} does not play at this table."),
        "replace_whose": tr("Whose seat should {name} take? /replace @old @new"),
        "plays_already": tr("{name} already plays at this table."),
        "must_start": tr("{name} must open me privately first: {link}"),
        "vote_open": tr("A vote is already open at this table: answer it first."),
        "vote_over": tr("This vote is over."),
        "voters_only": tr("Only the other players of this game vote."),
        "quiet_example": tr("Example: /quiet 23:00-08:00 Europe/Moscow"),
        "quiet_unreadable": tr("I cannot read that. Example: /quiet 23:00-08:00 "
                               "Europe/Moscow (hours as HH:MM-HH:MM, a time zone as "
                               "Region/City), or /quiet off."),
        "in_group": tr("Send this command in the group where the table is."),
        "newgame_in_group": tr("Add me to a group and send /newgame there."),
        "unknown_game": tr("I know these games: {names}. Example: /newgame {example}"),
        "unknown_command": tr("I do not know that command. /help lists what I can do."),
        "table_gone": tr("That table is no longer open."),
        "not_stored": tr("Not saved: my storage is out of reach for a moment. Please try "
                         "again."),
        "unknown_language": tr("I do not write in that language any more."),
        "nothing_played": tr("No game has been played here yet. Send /newgame to open a "
                             "table."),
        "nothing_to_export": tr("There is no game to export here yet."),
        "record_unreadable": tr("The last game's record cannot be read, so I cannot draw "
                                "its sheet."),
        "never_played": tr("I do not know {name}: they have not played with me yet."),
        "sheet_how": tr("Send /sheet for the picture, /sheet on to get it after every deal, "
                        "/sheet off to stop that."),
        "top_how": tr("Send /top, or /top with a game and the minimum of finished games, "
                      "for example /top {example} 5."),
        "top_in_group": tr("Send /top in a group: it ranks its players."),
        # the Mini App's server
        "members_only": tr("Only the members of the table's group can watch it."),
        "server_busy": tr("The server is busy: try again in a minute."),
        "too_many_streams": tr("You have too many tables open at once: close one and try "
                               "again."),
        "too_fast": tr("One picture at a time: try again in a moment."),
        # scorekeeping
        "seat_free_already": tr("That seat is already free."),
        "guests_cannot_deal": tr("Players added by name cannot play with dealt cards: "
                                 "remove them first."),
        "same_name": tr("A player with your name is already at the table."),
        "add_where": tr("Players are added by name in a lobby that keeps score only: "
                        "/newgame, then “Keep score only”."),
        "add_how": tr("Write the names after the command: /add Ann, Bob"),
        "keepers_only": tr("Only the players and whoever opened the table enter deals."),
        "stale_entry": tr("This button is out of date: the message shows the deal as it is "
                          "now, or will in a moment."),
        "correct_in_private": tr("Deal {n} is ready to be corrected in my private chat: "
                                 "{link}"),
        "entry_unfinished": tr("The deal is not entered completely yet."),
        "not_started": tr("The game has not started yet."),
        "dealer_first": tr("First tap who dealt the first deal (✏️ Enter deal 1 under the "
                           "table's message), then send the deal."),
        "not_entered": tr("Not entered: {reason}"),
        "deal_not_saved": tr("The deal could not be saved. Please try again."),
        "nothing_entered": tr("No deal has been entered yet."),
        "not_kept": tr("No game here keeps score by hand: only deals entered by hand can be "
                       "undone or corrected."),
        "deals_cards": tr("This table deals its cards: deals are entered by hand only at a "
                          "table that keeps score (/newgame, then “Keep score only”)."),
        "which_deal": tr("Which deal? For example /edit 3 (deals 1 to {n})."),
        "not_corrected": tr("Not corrected: {reason}"),
        "edit_in_one_line": tr("Send the corrected deal in one line: /edit {n} …"),
        "sheet_changed_undo": tr("The sheet changed meanwhile, so nothing was removed. Ask "
                                 "again."),
        "sheet_changed_edit": tr("The sheet changed meanwhile, so nothing was corrected. Ask "
                                 "again."),
        "cannot_reopen": tr("Another table is open in this chat: the finished game cannot be "
                            "reopened."),
        "sheet_not_changed": tr("The sheet could not be changed. Please try again."),
        "rematch_stale": tr("A later game was played here since: press “Play again” under the "
                            "last one."),
        "ready_already": tr("You have pressed already: the game starts when everyone has."),
        # answers when something was done
        "left": tr("You left the table."),
        "cancelled": tr("The table is cancelled."),
        "joined": (tr("You joined: {n} of {total}."), tr("You joined the table.")),
        "setting_set": tr("{option}: {value}"),
        "setting_is": tr("Already so: {option}: {value}"),
        "joined_already": tr("You are already at this table."),
        "ready": tr("You play again. The game starts when everyone has pressed."),
        "analysis_above": tr("The analysis of this deal is above in the group."),
        "hints_off": tr("Hints are off at this table: a rated game gives none."),
        "welcome_back": tr("Welcome back: you play your seat again."),
        "playing_already": tr("You are playing your seat already."),
        "setting_already": tr("That is the setting already."),
        "done_alone": tr("Done: nobody else had to agree."),
        "proposed": tr("Proposed; the other players vote."),
        "refused_vote": tr("You refused."),
        "agreed": tr("You agreed."),
        "saved": tr("Saved."),
        "made": tr("✔ Done. Your panel catches up when the round is complete."),
        "sheet_on": tr("From now on every deal's result comes with the scoresheet picture."),
        "sheet_off": tr("Deal results come without the picture from now on."),
    }


ENGLISH = engine_templates(lambda text: text)

# How a param is shown: by its name (a seat becomes the player's name, as {name}).
VALUES: dict[str, Callable[[Any, Translate], str]] = {
    "card": lambda value, tr: card(str(value), tr),
    "suit": lambda value, tr: Suit[str(value)].symbol,
    "position": lambda value, tr: str(int(value) + 1),  # the engine counts from 0, people from 1
}
for _plugin in PLUGINS.values():
    VALUES.update(_plugin.refusal_values)


def text(refusal: Refusal, tr: Translate, names: Sequence[str] = (), *,
         html: bool = False, extra: Mapping[str, str] | None = None) -> str:
    """The refusal (or note) in ``tr``'s language; ``html``: for a message (the values are
    escaped), else plain text (an alert). ``extra``: values the presenter adds (a link)."""
    bot = bot_templates(tr)
    if refusal.code in bot:
        values = {**_values(refusal.params, names, tr, html), **(extra or {})}
        return _fill(choices(bot[refusal.code]), values) or choices(bot[refusal.code])[0]
    return reason(refusal, tr, names, html=html)


def reason(refusal: Refusal | ActionError, tr: Translate, names: Sequence[str] = (), *,
           html: bool = False) -> str:
    """An engine refusal in ``tr``'s language (the engine's English as the fallback)."""
    if isinstance(refusal, ActionError):
        refusal = Refusal.of(refusal)
    message = escape(refusal.message) if html else refusal.message
    try:
        values = _values(refusal.params, names, tr, html)
    except (KeyError, ValueError):  # a param this code does not usually carry
        return message
    english = choices(ENGLISH.get(refusal.code, ()))
    translated = choices(engine_templates(tr).get(refusal.code, ()))
    for source, template in zip(english, translated, strict=True):
        if template == source:  # English, or not translated into this language
            return message
        needed = fields(template)
        if needed <= values.keys():
            filled = template.format(**values)
            if "deal" in values and "deal" not in needed:  # a corrected deal refused later
                if template[:1].isupper():  # a word of its own, after the colon
                    filled = filled[:1].lower() + filled[1:]
                filled = tr("Deal {deal}: {reason}", deal=values["deal"], reason=filled)
            return filled
    return message


def setting_words(setting: Setting, tr: Translate) -> str:
    """``Players: 4``: a rules option and its value, or a time setting and its value."""
    if setting.game is None:
        return setting_text(setting.key, setting.value, tr)
    return option_text(setting.game, setting.key, setting.value, tr)


def _after_colon(refusal: Refusal, said: str, tr: Translate) -> str:
    """A refusal told after another's colon ("Not entered: with those tricks..."): lower
    case, where its template starts with a word of its own (not a name)."""
    templates = bot_templates(tr).get(refusal.code) or engine_templates(tr).get(refusal.code)
    first = choices(templates)[0][:1] if templates else ""
    if first.isalpha() and first.isupper() and said.startswith(first):
        return first.lower() + said[1:]
    return said


def choices(template: str | tuple[str, ...]) -> tuple[str, ...]:
    return (template,) if isinstance(template, str) else template


def fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _fill(templates: tuple[str, ...], values: Mapping[str, str]) -> str | None:
    for template in templates:
        if fields(template) <= values.keys():
            return template.format(**values)
    return None


def _values(params: Mapping[str, Any], names: Sequence[str], tr: Translate,
            html: bool) -> dict[str, str]:
    values = {}
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, Refusal):
            values[key] = _after_colon(value, text(value, tr, names, html=html), tr)
        elif isinstance(value, Setting):
            values["option"], _, values["value"] = setting_words(value, tr).partition(": ")
        elif key in VALUES:
            values[key] = VALUES[key](value, tr)
        else:
            values[key] = escape(str(value)) if html else str(value)
    seat = params.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(names):
        values["name"] = escape(names[seat]) if html else names[seat]
    return values
