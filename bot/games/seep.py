"""Seep at the bot: lobby options, partnerships, the two-step move choice, summaries."""

from __future__ import annotations

from typing import Any

from bot.games.base import GameUI, Option, StepResult, view_with_actions
from bot.render import seep as render
from bot.render import seep_sheet as sheet
from bot.render.context import RenderContext
from engine.cards import CardError, parse_card
from engine.seep.rules import Rules

MAIN = (
    Option("players", "Players", (4, 2)),
    Option("bazzis", "Bazzis in the match", (1, 2, 3, 5)),
    Option("show_capture_totals", "Capture totals shown", (False, True)),
)
CONVENTIONS = (
    Option("ten_of_diamonds_points", "10♦ points", (6, 2)),
    Option("majority_bonus", "Bonus for most cards", (0, 4)),
    Option("first_play_sweep_points", "Sweep on the first play", (25, 50)),
    Option("sweep_cancel", "Sweeps cancel (two at most)", (False, True)),
    Option("capture_must_be_maximal", "A capture takes all it can", (True, False)),
    Option("bid_throw_last_resort", "Bid card thrown only as a last resort", (True, False)),
    Option("absorb_sets", "A house absorbs", ("mandatory", "optional", "singles"),
           ("every set", "sets if wished", "single cards only")),
    Option("break_partner_house", "Partner's house may be broken", (True, False)),
    Option("break_with_floor_cards", "Breaking with floor cards", (False, True)),
    Option("max_houses", "Houses on the floor", ("unlimited", 2), ("unlimited", "two at most")),
    Option("under_nine_counts", "Under nine counts", ("score", "cards"),
           ("cards and sweeps", "card points only")),
    Option("bazzi_target", "Lead for a bazzi", (100, 200)),
    Option("bazzi_overflow", "Lead beyond the target", ("discard", "carry"),
           ("dropped", "carried over")),
    Option("dealer_rotation", "Next dealer", ("losing_team", "simple"),
           ("by the lead", "to the right")),
)


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """In play: tap a card (it must have a move), or « Back to the cards. A move is then
    its own button (an action: Seep's texts stay under 40 bytes, so they fit)."""
    legal: list[str] = view["actions"].get(view["seat"], [])
    if view["phase"] != "play":
        raise ValueError("nothing to pick now")
    if token == render.BACK:
        return StepResult()
    try:
        card = parse_card(token)
    except CardError:
        raise ValueError("not a card") from None
    if not any(render.action_card(a) == card for a in legal):
        raise ValueError("that card has no move")
    return StepResult(frozenset({str(card)}))


def teams(rules_data: dict[str, Any]) -> list[list[int]]:
    rules = Rules.from_dict(rules_data)
    return rules.teams if rules.players == 4 else []


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext) -> str:
    """The effective rules of a table (explicit choices over the defaults)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Seep</b> · {n} players · a match of {k} bazzis", n=rules["players"],
                k=rules["bazzis"])]
    lines.extend(f"{tr(o.label)}: {tr(o.name(rules[o.key]))}" for o in (MAIN[2], *CONVENTIONS))
    return "\n".join(lines)


UI = GameUI(
    name="seep",
    title="Seep",
    commands=("seep",),
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
    after_deal=sheet.ledger,
    teams=teams,
)
