"""Joker's refusal texts: the engine's codes for its play and entry -> a template."""

from __future__ import annotations

from collections.abc import Callable


def templates(tr: Callable[[str], str]) -> dict[str, str | tuple[str, ...]]:
    return {
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
        "bad_trump": tr("The trump is spades, clubs, diamonds, hearts or no trump."),
    }
