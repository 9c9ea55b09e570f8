"""Joker at the bot: lobby options, the joker's declaration as a second step, summaries."""

from __future__ import annotations

from typing import Any

from bot.games.base import GameUI, Option, StepResult, view_with_actions
from bot.render import joker as render
from bot.render import joker_sheet as sheet
from bot.render.context import RenderContext
from engine.joker.rules import KHISHTI, Rules

MAIN = (
    Option("players", "Players", (4, 3, 2)),
    Option("schedule", "Deals", ("standard", "nines", "short"),
           ("24: 1 to 8 cards and nines", "16 nines", "8 nines")),
    Option("strict_joker", "Strict joker", (False, True)),
    Option("scoring", "Scoring", ("standard", "negative"), ("standard", "negative joker")),
)
CONVENTIONS = (
    Option("nine_card_trump", "Trump of the 9-card deals", ("chooser", "no_trump", "turn_up"),
           ("chosen after three cards", "no trump", "turned up")),
    Option("dealer_restriction", "Dealer's forbidden bid", (True, False)),
    Option("pass_limit", "Passes per game", ("none", 3, 5, 8), ("no limit", "3", "5", "8")),
    Option("face_value", "Joker as 6♠ or 6♣", (True, False)),
    Option("two_jokers", "Two taking jokers", ("last", "first"),
           ("the last wins", "the first wins")),
    Option("trump_beats_led_high_joker", "A trump beats a joker led high", (False, True)),
    Option("low_lead_demands_highest", "A joker led low demands the highest", (False, True)),
    Option("void_must_trump_highest", "Highest trump after a joker led high", (False, True)),
    Option("khishti", "Khishti", KHISHTI,
           ("200", "300", "500", "900", "1000", "200 or 500 by pulka", "100 per card")),
    Option("premium", "Premium", (True, False)),
    Option("premium_excludes_last_deal", "Premium ignores the pulka's last deal",
           (False, True)),
    Option("multi_premium_penalises", "Several on premium still cancel others' best",
           (False, True)),
    Option("premium_penalty_basis", "Deal cancelled by a premium", ("best_deal", "exact_only"),
           ("the best", "the best exact bid")),
    Option("pairs", "Pairs (partners sit opposite)", (False, True)),
)


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """Tap the joker to see its declarations, or « Back to the cards."""
    legal: list[str] = view["actions"].get(view["seat"], [])
    if view["phase"] != "play":
        raise ValueError("nothing to pick now")
    if token == render.BACK:
        return StepResult()
    if token == render.JOKER and any(a.startswith(f"play:{render.JOKER}") for a in legal):
        return StepResult(frozenset({render.JOKER}))
    raise ValueError("not a choice")


def teams(rules_data: dict[str, Any]) -> list[list[int]]:
    return [[0, 2], [1, 3]] if Rules.from_dict(rules_data).pairs else []


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext) -> str:
    """The effective rules of a table (explicit choices over the defaults)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Joker</b> · {n} players · {schedule}", n=rules["players"],
                schedule=tr(MAIN[1].name(rules["schedule"])))]
    lines.extend(f"{tr(o.label)}: {tr(o.name(rules[o.key]))}"
                 for o in (*MAIN[2:], *CONVENTIONS))
    return "\n".join(lines)


UI = GameUI(
    name="joker",
    title="Joker",
    commands=("joker",),
    main_options=MAIN,
    conventions=CONVENTIONS,
    panel=render.panel,
    table=render.table_screen,
    deal_summary=sheet.deal_summary,
    score=sheet.score_text,
    settlement=sheet.settlement_text,
    step=step,
    rules_summary=rules_summary,
    history_line=sheet.history_line,
    seat_view=view_with_actions,
    after_deal=sheet.pulka_end,
    teams=teams,
)
