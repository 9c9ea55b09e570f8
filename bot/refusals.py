"""Engine refusals in the player's language: ``ActionError.code`` + params -> a template.

The engines explain a refusal in English (``ActionError.message``) and give a
stable ``code`` with the values the explanation needs (``params``). Here each
code the three engines raise has a template (``templates``); the params fill
it, converted for reading (``VALUES``: a suit letter becomes its symbol, a seat
its player's name...). English players read the engine's own message, which is
often more precise (it may name every card a capture must take); so does
anyone when the code is unknown, its template is not translated into the
language, or a value the template needs is not in the params.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import Translate
from bot.render.cards import card
from engine.base import ActionError
from engine.cards import Suit
from engine.preferans.bids import display as bid_display


def templates(tr: Callable[[str], str]) -> dict[str, str | tuple[str, ...]]:
    """Every refusal code of the engines -> its template, through ``tr`` (untranslated:
    the identity). Where a code comes with different values (in different games, or
    places), alternatives: the first whose values are all given is used."""
    return {
        # every game
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
        # Preferans play
        "bad_bid": tr("That is not a bid."),
        "illegal_bid": tr("You cannot make that bid now."),
        "bad_contract": tr("That is not a contract."),
        "illegal_contract": tr("You cannot declare that contract."),
        "contract_too_low": tr("The contract cannot be below {min_bid} in this raspasy state."),
        "bad_whist": tr("The whist calls are whist, pass and half-whist."),
        "illegal_whist": tr("You cannot make that whist call now."),
        "bad_open": tr("Choose open or closed play."),
        "discard_two": tr("Discard exactly two different cards."),
        # Joker play
        "bid_range": (tr("A bid is 0 to {max} tricks in this deal."),  # Joker
                      tr("A bid is 9 to 13, not {bid}.")),  # Seep
        "forbidden_bid": tr("The dealer may not bid {bid}: the bids would add up to the "
                            "number of tricks."),
        "pass_limit": tr("You have used all {limit} passes of this game."),
        "joker_needs_suit": tr("A joker that leads names a suit."),
        "joker_takes_no_suit": tr("Only a joker that leads names a suit."),
        "must_play_highest": tr("The joker asks for your highest card of the suit: play {card}."),
        "must_trump_highest": tr("After a joker led high you must play your highest trump, "
                                 "{card}."),
        "no_face_value": tr("These rules do not play a joker at face value."),
        "six_used": tr("{card} has already been played at face value in this deal."),
        "strict_joker": tr("Strict joker: you may lead a joker only when you hold nothing "
                           "but jokers."),
        # Seep play
        "bid_first": tr("The bidder must first bid 9 to 13."),
        "bid_card": tr("You hold no card of value {bid} to bid it."),
        "bidding_over": tr("The bid has been made: play a card."),
        "bid_move": tr("The first move must build a house of {bid}, or capture or throw "
                       "with a card of value {bid}."),
        "bid_throw": tr("The bid card may be thrown only when no build or capture is possible."),
        "bad_sum": tr("Those cards do not make groups of {value}."),
        "card_twice": tr("{card} is named twice."),
        "house_value": tr("A house has a value of 9 to 13, not {value}."),
        "house_exists": tr("There is already a house of {value}: add to it with a cement."),
        "house_size": tr("A house needs at least two cards."),
        "max_houses": tr("At most {limit} houses may stand on the floor."),
        "no_house": tr("There is no house of {value}."),
        "cemented": tr("The house of {value} is cemented and cannot be broken."),
        "own_house": tr("You may not break a house you own."),
        "partner_house": tr("You may not break your partner's house."),
        "break_with_floor": tr("A break adds only the card played, never loose cards."),
        "over_13": tr("A house is at most 13: this one would be {value}."),
        "must_hold": tr("You must keep a card of value {value} in hand for your house of "
                        "{value}."),
        "not_on_floor": tr("{card} is not a loose card on the floor."),
        "part_of_house": tr("{card} lies in the house of {value}: a house is taken only "
                            "whole, by a card of its value."),
        "can_capture": tr("{card} can capture, so it may not be thrown."),
        "nothing_to_capture": tr("{card} captures nothing here."),
        "capture_groups": tr("The cards taken do not form groups of {value}."),
        "capture_not_maximal": tr("The capture must take every group of {value} on the floor."),
        "must_absorb": tr("The house of {value} must also take the loose cards that make "
                          "{value}."),
        "absorb_not_allowed": tr("Those cards may not go into the house of {value}."),
        "illegal_move": tr("That move is not allowed here."),
        # deals entered by hand (scorekeeper mode)
        "entry_complete": tr("The deal is entered completely."),
        "entry_incomplete": tr("The deal is not entered completely."),
        "entry_missing": tr("The deal is not entered completely."),
        "entry_inconsistent": tr("The entry does not follow its steps."),
        "bad_entry": tr("The entry cannot be read."),
        "bad_text": (tr("The entry cannot be read at “{word}” (character {position})."),
                     tr("The entry cannot be read.")),
        "bad_answer": tr("That does not answer the question."),
        "bad_kind": tr("That is not a kind of deal."),
        "no_walkaway": tr("Walking away is not allowed at this table."),
        "dealer_sits_out": tr("{name} deals and sits out this deal: he cannot declare."),
        "bad_talon": tr("The talon holds 0 to 3 quick tricks."),
        "unused_talon": tr("The talon premium does not count in this deal."),
        "bad_down": tr("That many tricks down is impossible for this contract."),
        "bad_tricks": tr("{name} cannot have taken that many tricks."),
        "sits_out": tr("{name} sits out this deal and takes no tricks."),
        "tricks_sum": tr("The tricks must add up to 10."),
        "tricks_missing": tr("How many tricks did each player take?"),
        "tricks_conflict": tr("The tricks do not agree with made or down."),
        "not_made": tr("With those tricks the contract is not made."),
        "no_tricks": tr("No cards were played in this deal, so no tricks count."),
        "no_declarer": tr("Raspasy has no declarer: give each player's tricks."),
        "unused": tr("Raspasy has no declarer and no contract."),
        "unused_call": tr("No whist or pass call belongs there."),
        "unused_open": tr("Open or closed play is the lone whister's choice: this deal has "
                          "none."),
        "call_order": tr("It is not that player's call."),
        "bad_trump": tr("The trump is spades, clubs, diamonds, hearts or no trump."),
        "bad_points": tr("Those card points are not possible."),
        "bad_cards": tr("That number of captured cards is not possible."),
        "bad_sweeps": tr("That number of sweeps is not possible."),
        "bad_first_sweep": tr("The first sweep is 0 or 1."),
        "bad_last_sweep": tr("The last sweep is 0 or 1."),
        "no_such_deal": tr("There is no deal {deal}."),
        "played_deal": tr("Deal {deal} was played with the bot: only entered deals can be "
                          "undone or corrected."),
        "nothing_to_undo": tr("No deal has been entered yet."),
    }


ENGLISH = templates(lambda text: text)

# How a param is shown: by its name (a seat becomes the player's name, as {name}).
VALUES: dict[str, Callable[[Any], str]] = {
    "card": lambda value: card(str(value)),
    "suit": lambda value: Suit[str(value)].symbol,
    "min_bid": lambda value: bid_display(str(value)),
    "position": lambda value: str(int(value) + 1),  # the engine counts from 0, people from 1
}


def reason(error: ActionError, tr: Translate, names: Sequence[str] = ()) -> str:
    """The refusal in ``tr``'s language, as plain text (an alert or a reply)."""
    try:
        values = _values(error.params, names)
    except (KeyError, ValueError):  # a param this code does not usually carry
        return error.message
    english = choices(ENGLISH.get(error.code, ()))
    translated = choices(templates(tr).get(error.code, ()))
    for source, text in zip(english, translated, strict=True):
        if text == source:  # English, or not translated into this language
            return error.message
        needed = fields(text)
        if needed <= values.keys():
            text = text.format(**values)
            if "deal" in values and "deal" not in needed:  # a corrected deal refused later
                text = tr("Deal {deal}: {reason}", deal=values["deal"], reason=text)
            return text
    return error.message


def choices(template: str | tuple[str, ...]) -> tuple[str, ...]:
    return (template,) if isinstance(template, str) else template


def fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _values(params: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    values = {key: VALUES.get(key, str)(value) for key, value in params.items()
              if value is not None}
    seat = params.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(names):
        values["name"] = names[seat]
    return values
