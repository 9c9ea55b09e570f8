"""Preferans at the bot: lobby options, panels, discard selection, summaries."""

from __future__ import annotations

from typing import Any

from bot.games.base import GameUI, Option, StepResult
from bot.render import preferans as render
from bot.render import preferans_sheet as sheet
from bot.render.context import RenderContext
from engine.cards import CardError, parse_card
from engine.preferans.rules import Rules

MAIN = (
    Option("variant", "Variant", ("sochi", "leningrad", "rostov"),
           ("Sochi", "Leningrad", "Rostov")),
    Option("pool", "Pool", (10, 20, 30, 40, 50, 4)),
    Option("players", "Players", (3, 4)),
)
CONVENTIONS = (
    Option("first_dealer", "First dealer", ("creator_first_hand", "random"),
           ("opener is first hand", "random")),
    Option("whist_style", "Whist", ("greedy", "gentleman")),
    Option("failed_whist_rate", "Failed whist", ("cost", "half_cost"),
           ("contract cost", "half the cost")),
    Option("both_whist_shortfall", "Two whisters short", ("own_half", "capped"),
           ("each his own half", "the weaker one, capped")),
    Option("walkaway", "Walk away without three", (False, "no_whists", "with_consolation"),
           ("off", "no whists", "with consolation")),
    Option("talon_premium", "Talon premium", (False, True)),
    Option("ten_mode", "Ten", ("whisted", "checked")),
    Option("consolation_to_passer", "Consolation to a passer", (False, True)),
    Option("consolation_to_dealer", "Consolation to the dealer (4 players)", (True, False)),
    Option("consolation_rate", "Consolation", ("contract", "flat10"),
           ("contract cost", "10 per trick")),
    Option("miser_consolation", "Consolation on misère", (False, True)),
    Option("open_reveal", "Open hands shown", ("after_first_lead", "before_declarer_lead"),
           ("after the first lead", "before the declarer's lead")),
    Option("here_rule", "“Here”", ("senior_two_left", "seed_literal", "off"),
           ("senior of two", "behind a passer", "off")),
    Option("bid_jumps", "Jump bids", (False, True)),
    Option("miser_bidder_after_outbid", "Outbid misère bidder", ("pass_only", "may_raise"),
           ("passes", "may bid nines")),
    Option("stalingrad", "Stalingrad (6♠ whisted by both)", (False, True)),
    Option("raspasy_mode", "Raspasy written", ("mountain", "whists"),
           ("on the mountain", "as whists")),
    Option("raspasy_talon", "Raspasy talon", ("lead_two", "unused"),
           ("leads two tricks", "not used")),
    Option("rostov_raspasy_rate", "Raspasy whists per trick", (5, 10)),
    Option("sochi_progression", "Sochi raspasy progression", (False, True)),
    Option("peter_third_state", "Third raspasy state", ("classic", "hard")),
    Option("exit_needs_whist", "Raspasy ends on a whisted game only", (True, False)),
    Option("zero_trick_reward", "Raspasy zero tricks", ("writeoff", "pool", "none"),
           ("write-off", "pool", "nothing")),
    Option("pool_overflow", "Full pool", ("help", "keep")),
    Option("help_rate", "Whists per pool point of help", (10, 20)),
    Option("settlement_rounding", "Settlement", ("exact", "integer", "divisible_by_n"),
           ("exact", "whole whists", "divisible by players")),
)


def step(view: dict[str, Any], selection: frozenset[str], token: str) -> StepResult:
    """The discard: tapping a card selects or deselects it (two at most)."""
    if view["phase"] != "discard":
        raise ValueError("nothing to pick now")
    try:
        card = str(parse_card(token))
    except CardError:
        raise ValueError("not a card") from None
    if card not in view["hand"]:
        raise ValueError("you do not hold that card")
    if card in selection:
        return StepResult(selection - {card})
    if len(selection) >= 2:
        return StepResult(frozenset({*sorted(selection)[1:], card}))
    return StepResult(selection | {card})


def rules_summary(rules_data: dict[str, Any], ctx: RenderContext) -> str:
    """The effective rules of a table (explicit choices over the variant's defaults)."""
    tr = ctx.tr
    rules = Rules.from_dict(rules_data).to_dict()
    lines = [tr("<b>Preferans</b> · {variant} · pool {pool} · {n} players",
                variant=tr(MAIN[0].name(rules["variant"])), pool=rules["pool"],
                n=rules["players"])]
    for option in CONVENTIONS:
        lines.append(f"{tr(option.label)}: {tr(option.name(rules[option.key]))}")
    return "\n".join(lines)


UI = GameUI(
    name="preferans",
    title="Preferans",
    commands=("pref", "preferans"),
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
)
