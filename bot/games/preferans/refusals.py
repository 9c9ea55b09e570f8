"""Preferans's refusal texts: the engine's codes for its play and entry -> a template."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.preferans.table import contract_text
from bot.ui.i18n import Translate


def templates(tr: Callable[[str], str]) -> dict[str, str | tuple[str, ...]]:
    return {
        "illegal_bid": tr("You cannot make that bid now."),
        "bad_contract": tr("That is not a contract."),
        "illegal_contract": tr("You cannot declare that contract."),
        "contract_too_low": tr("The contract cannot be below {min_bid} in this raspasy state."),
        "bad_whist": tr("The whist calls are whist, pass and half-whist."),
        "illegal_whist": tr("You cannot make that whist call now."),
        "bad_open": tr("Choose open or closed play."),
        "discard_two": tr("Discard exactly two different cards."),
        "bad_answer": tr("That does not answer the question."),
        "bad_kind": tr("That is not a kind of deal."),
        "no_walkaway": tr("Walking away is not allowed at this table."),
        "dealer_sits_out": tr("{name} deals and sits out this deal: he cannot declare."),
        "bad_talon": tr("The talon holds 0 to 3 quick tricks."),
        "unused_talon": tr("The talon premium does not count in this deal."),
        "bad_down": tr("That many tricks down is impossible for this contract."),
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
        "bad_claim": tr("A claim is a number of tricks."),
        "no_claim": tr("You may not claim now."),
        "claim_too_many": tr("Only {left} tricks are left to play."),
    }


# How the game's refusal params are shown.
VALUES: dict[str, Callable[[Any, Translate], str]] = {
    "min_bid": lambda value, tr: contract_text(str(value), tr)}
