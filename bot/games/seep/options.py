"""Seep in the lobby: the words for its Rules options."""

from __future__ import annotations

from typing import Any

from bot.games.base import Options
from bot.ui.context import RenderContext
from engine.seep.rules import Rules

OPTIONS = Options(
    Rules,
    main=("players", "bazzis", "show_capture_totals"),
    labels={
        "players": "Players",
        "bazzis": "Bazzis in the match",
        "show_capture_totals": "Capture totals shown",
        "ten_of_diamonds_points": "10♦ points",
        "majority_bonus": "Bonus for most cards",
        "first_play_sweep_points": "Sweep on the first play",
        "sweep_cancel": "Sweeps cancel (two at most)",
        "capture_must_be_maximal": "A capture takes all it can",
        "bid_throw_last_resort": "Bid card thrown only as a last resort",
        "absorb_sets": "A house absorbs",
        "break_partner_house": "Partner's house may be broken",
        "break_with_floor_cards": "Breaking with floor cards",
        "max_houses": "Houses on the floor",
        "under_nine_counts": "Under nine counts",
        "bazzi_target": "Lead for a bazzi",
        "bazzi_overflow": "Lead beyond the target",
        "dealer_rotation": "Next dealer",
    },
    names={
        "absorb_sets": {
            "mandatory": "every set",
            "optional": "sets if wished",
            "singles": "single cards only",
        },
        "max_houses": {"unlimited": "unlimited", 2: "two at most"},
        "under_nine_counts": {"score": "cards and sweeps", "cards": "card points only"},
        "bazzi_overflow": {"discard": "dropped", "carry": "carried over"},
        "dealer_rotation": {"losing_team": "by the lead", "simple": "to the right"},
    },
)


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext, *,
                  every: bool = False) -> str:
    """The table's rules: the game's line, then the conventions that differ from the usual
    ones (``every``: all of them)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Seep</b> · {players} players · a match of {n} bazzi",
                "<b>Seep</b> · {players} players · a match of {n} bazzis",
                players=rules["players"], n=rules["bazzis"])]
    return "\n".join(lines + OPTIONS.lines(rules, tr, skip=("players", "bazzis"), every=every))
