"""Seep's refusal texts: the engine's codes for its play and entry -> a template."""

from __future__ import annotations

from collections.abc import Callable


def templates(tr: Callable[[str], str]) -> dict[str, str | tuple[str, ...]]:
    return {
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
        "bad_points": tr("Those card points are not possible."),
        "bad_cards": tr("That number of captured cards is not possible."),
        "bad_sweeps": tr("That number of sweeps is not possible."),
        "bad_first_sweep": tr("The first sweep is 0 or 1."),
        "bad_last_sweep": tr("The last sweep is 0 or 1."),
    }
