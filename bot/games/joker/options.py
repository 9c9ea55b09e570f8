"""Joker in the lobby: the words for its Rules options."""

from __future__ import annotations

from typing import Any

from bot.games.base import Options
from bot.ui.context import RenderContext
from engine.joker.rules import Rules

OPTIONS = Options(
    Rules,
    main=("players", "schedule", "strict_joker", "scoring"),
    labels={
        "players": "Players",
        "schedule": "Deals",
        "strict_joker": "Strict joker",
        "scoring": "Scoring",
        "nine_card_trump": "Trump of the 9-card deals",
        "dealer_restriction": "Dealer's forbidden bid",
        "pass_limit": "Passes per game",
        "face_value": "Joker as 6♠ or 6♣",
        "two_jokers": "Two taking jokers",
        "trump_beats_led_high_joker": "A trump beats a joker led high",
        "low_lead_demands_highest": "A joker led low demands the highest",
        "void_must_trump_highest": "Highest trump after a joker led high",
        "khishti": "Khishti",
        "premium": "Premium",
        "premium_excludes_last_deal": "Premium ignores the pulka's last deal",
        "multi_premium_penalises": "Several on premium still cancel others' best",
        "premium_penalty_basis": "Deal cancelled by a premium",
        "pairs": "Pairs (partners sit opposite)",
    },
    names={
        "schedule": {
            "standard": "24: 1 to 8 cards and nines",
            "nines": "16 nines",
            "short": "8 nines",
        },
        "scoring": {"standard": "standard", "negative": "negative joker"},
        "nine_card_trump": {
            "chooser": "chosen after three cards",
            "no_trump": "no trump",
            "turn_up": "turned up",
        },
        "pass_limit": {"none": "no limit", 3: "3", 5: "5", 8: "8"},
        "two_jokers": {"last": "the last wins", "first": "the first wins"},
        "khishti": {
            200: "200",
            300: "300",
            500: "500",
            900: "900",
            1000: "1000",
            "per_pulka": "200 or 500 by pulka",
            "dynamic": "100 per card",
        },
        "premium_penalty_basis": {"best_deal": "the best", "exact_only": "the best exact bid"},
    },
)


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext, *,
                  every: bool = False) -> str:
    """The table's rules: the game's line, then the conventions that differ from the usual
    ones (``every``: all of them)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Joker</b> · {n} players · {schedule}", n=rules["players"],
                schedule=tr(OPTIONS.name("schedule", rules["schedule"])))]
    return "\n".join(lines + OPTIONS.lines(rules, tr, skip=("players", "schedule"), every=every))
