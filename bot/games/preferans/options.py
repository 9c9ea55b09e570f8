"""Preferans in the lobby: the words for its Rules options."""

from __future__ import annotations

from typing import Any

from bot.games.base import Options
from bot.ui.context import RenderContext
from engine.preferans.rules import Rules

OPTIONS = Options(
    Rules,
    main=("variant", "pool", "players"),
    labels={
        "variant": "Variant",
        "pool": "Pool",
        "players": "Players",
        "first_dealer": "First dealer",
        "whist_style": "Whist",
        "failed_whist_rate": "Failed whist",
        "both_whist_shortfall": "Two whisters short",
        "walkaway": "Walk away without three",
        "talon_premium": "Talon premium",
        "ten_mode": "Ten",
        "consolation_to_passer": "Consolation to a passer",
        "consolation_to_dealer": "Consolation to the dealer (4 players)",
        "consolation_rate": "Consolation",
        "miser_consolation": "Consolation on misère",
        "open_reveal": "Open hands shown",
        "here_rule": "“Here”",
        "bid_jumps": "Jump bids",
        "miser_bidder_after_outbid": "Outbid misère bidder",
        "stalingrad": "Stalingrad (6♠ whisted by both)",
        "raspasy_mode": "Raspasy written",
        "raspasy_talon": "Raspasy talon",
        "rostov_raspasy_rate": "Raspasy whists per trick",
        "sochi_progression": "Sochi raspasy progression",
        "peter_third_state": "Third raspasy state",
        "exit_needs_whist": "Raspasy ends on a whisted game only",
        "zero_trick_reward": "Raspasy zero tricks",
        "pool_overflow": "Full pool",
        "help_rate": "Whists per pool point of help",
        "settlement_rounding": "Settlement",
        "claims": "Claims",
        "auto_claims": "A claim the solver proves stands",
    },
    names={
        "variant": {"sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov"},
        "first_dealer": {"creator_first_hand": "opener is first hand", "random": "random"},
        "failed_whist_rate": {"cost": "contract cost", "half_cost": "half the cost"},
        "both_whist_shortfall": {
            "own_half": "each his own half",
            "capped": "the weaker one, capped",
        },
        "walkaway": {
            False: "off",
            "no_whists": "no whists",
            "with_consolation": "with consolation",
        },
        "consolation_rate": {"contract": "contract cost", "flat10": "10 per trick"},
        "open_reveal": {
            "after_first_lead": "after the first lead",
            "before_declarer_lead": "before the declarer's lead",
        },
        "here_rule": {
            "senior_two_left": "senior of two",
            "seed_literal": "behind a passer",
            "off": "off",
        },
        "miser_bidder_after_outbid": {"pass_only": "passes", "may_raise": "may bid nines"},
        "raspasy_mode": {"mountain": "on the mountain", "whists": "as whists"},
        "raspasy_talon": {"lead_two": "leads two tricks", "unused": "not used"},
        "zero_trick_reward": {"writeoff": "write-off", "pool": "pool", "none": "nothing"},
        "settlement_rounding": {
            "exact": "exact",
            "integer": "whole whists",
            "divisible_by_n": "divisible by players",
        },
    },
)


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext, *,
                  every: bool = False) -> str:
    """The table's rules: the game's line, then the conventions that differ from the usual
    ones (``every``: all of them)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Preferans</b> · {variant} · pool {pool} · {n} players",
                variant=tr(OPTIONS.name("variant", rules["variant"])), pool=rules["pool"],
                n=rules["players"])]
    return "\n".join(lines + OPTIONS.lines(rules, tr, skip=OPTIONS.main, every=every))
