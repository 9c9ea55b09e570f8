"""A game's plugin: everything the bot shows of one game, the same shape for every game.

Each game folder (``bot/games/<game>/``) holds the same modules: ``options``
(the lobby's words for the Rules options), ``table`` and ``panel`` (the group's
table message, a player's panel and its UI steps), ``summary`` (a deal's
result, the score, the settlement, a history line), ``picture`` (the sheet as a
picture), ``entry`` (deals entered by hand), ``refusals`` (the game's refusal
texts), ``stats`` (its units in /stats and /top) and ``miniapp`` (the game drawn
for the Mini App, of the pieces in ``bot.games.drawing``); ``__init__`` puts them
together as ``PLUGIN``.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.games.drawing import Drawing
from bot.games.entry import EntryUI
from bot.service.play import Stepper
from bot.ui.context import RenderContext
from bot.ui.i18n import Translate
from bot.ui.pictures.canvas import Picture
from bot.ui.screen import Screen
from engine.base import RulesBase, offered_values
from engine.match import Match
from storage.rows import UserStats


@dataclass(frozen=True)
class Options:
    """The lobby's words for the game's Rules options (``Rules`` declares the options and
    their values). ``main``: the options on the lobby's first page, the others are the
    conventions page; ``labels``: every option's English label; ``names``: value names
    where a value is not shown as it is (on/off for booleans)."""

    rules: type[RulesBase]
    main: tuple[str, ...]
    labels: Mapping[str, str]
    names: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        keys = [f.name for f in dataclasses.fields(self.rules)
                if len(offered_values(self.rules, f.name)) > 1]
        missing = sorted(set(keys) - set(self.labels))
        if missing:
            raise ValueError(f"{self.rules.__module__}: no lobby label for {missing}")

    @property
    def keys(self) -> tuple[str, ...]:
        """Every option a table may change (more than one value), in the Rules' order."""
        return tuple(f.name for f in dataclasses.fields(self.rules)
                     if len(offered_values(self.rules, f.name)) > 1)

    @property
    def conventions(self) -> tuple[str, ...]:
        return tuple(k for k in self.keys if k not in self.main)

    def lines(self, rules: Mapping[str, Any], tr: Translate, skip: tuple[str, ...] = (), *,
              every: bool = False) -> list[str]:
        """``Label: value`` for the options but ``skip`` (those the summary's first line
        says), translated: ``every`` one, or only those that differ from the defaults that
        go with the ``skip`` choices (a Preferans variant's own conventions are not listed)."""
        usual = self.rules.from_dict({k: rules[k] for k in skip}).to_dict()
        return [f"{tr(self.labels[k])}: {tr(self.name(k, rules[k]))}"
                for k in self.keys if k not in skip and (every or rules[k] != usual[k])]

    def name(self, key: str, value: Any) -> str:
        """A value's English name."""
        names = self.names.get(key, {})
        if value in names and type(value) is type(next(k for k in names if k == value)):
            return names[value]
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


def _no_lines(row: UserStats, tr: Translate) -> list[str]:
    return []


@dataclass(frozen=True)
class StatsWords:
    """How /stats speaks of the game's results, in one language: templates with
    ``{total}``/``{per_game}`` and ``{won}``/``{lost}``; ``extra``: the game's own lines."""

    balance: str
    won_lost: str
    contracts: str
    extra: Callable[[UserStats, Translate], list[str]] = _no_lines


@dataclass(frozen=True)
class Example:
    """A README picture: a game played by the engine's random policy from ``seed``."""

    seed: int
    deals: int  # at most; a game that ends sooner stops there
    players: tuple[str, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)


class DealSummary(Protocol):
    def __call__(self, output: dict[str, Any], final_view: dict[str, Any], ctx: RenderContext,
                 match: Match | None = None) -> str:
        """A finished deal (``ctx.deal_no``); with the ``match`` that scored it, what only
        the sheet knows too (why each number was written)."""


class RulesSummary(Protocol):
    def __call__(self, rules_data: dict[str, Any], ctx: RenderContext, *,
                 every: bool = False) -> str:
        """A table's rules: a first line, then the conventions that differ from the usual
        ones (``every``: all of them)."""


@dataclass(frozen=True)
class GamePlugin:
    name: str
    title: str  # English name of the game
    commands: tuple[str, ...]  # command aliases that open a table of this game
    options: Options
    rules_summary: RulesSummary
    panel: Callable[[dict[str, Any], RenderContext], Screen]
    step: Stepper
    table: Callable[[dict[str, Any], RenderContext], Screen]
    last_play: Callable[[dict[str, Any], RenderContext], str | None]  # the last trick, capture
    choice_label: Callable[[str, RenderContext], str]  # an action as its button says it
    deal_summary: DealSummary
    score: Callable[[Match, RenderContext], str]
    settlement: Callable[[Match, RenderContext], str]
    history_line: Callable[[dict[str, Any], int, list[str], Translate], str]
    picture: Callable[[Match, Callable[[str], str]], Picture]
    entry: EntryUI
    refusals: Callable[[Callable[[str], str]], dict[str, str | tuple[str, ...]]]
    stats: Callable[[Translate], StatsWords]
    miniapp: Callable[[dict[str, Any], RenderContext], Drawing]  # a view drawn for the Mini App
    # How refusal params are shown (a suit letter as its symbol...), beside the common ones.
    refusal_values: Mapping[str, Callable[[Any, Translate], str]] = field(default_factory=dict)
    # Text added to a deal's summary from the whole match (a pulka's end, the bazzis won).
    after_deal: Callable[[Match, RenderContext], str] | None = None
    # ``/settle``: a paper sheet of the game, typed in, settled (None: the game has none).
    settle_text: Callable[[str, Translate], str] | None = None
    examples: Mapping[str, Example] = field(default_factory=dict)
    # The languages its players speak, translated for this game and the bot's own texts only.
    languages: tuple[str, ...] = ()
    # A finished deal's analysis (``GameSpec.analyse``) in words (None: the game has none).
    analysis: Callable[[dict[str, Any] | None, RenderContext], str] | None = None


def assemble(package: str, *, title: str, commands: tuple[str, ...],
             examples: Mapping[str, Example] | None = None,
             settle_text: Callable[[str, Translate], str] | None = None,
             languages: tuple[str, ...] = (),
             analysis: Callable[[dict[str, Any] | None, RenderContext], str] | None = None,
             ) -> GamePlugin:
    """A game's plugin from its folder's modules (the same names in every game's folder:
    see the module's docstring); the rest is what only this game has."""
    def part(name: str) -> Any:
        return importlib.import_module(f"{package}.{name}")

    options, panel, table, summary = part("options"), part("panel"), part("table"), \
        part("summary")
    refusals = part("refusals")
    return GamePlugin(
        name=package.rsplit(".", 1)[-1], title=title, commands=commands,
        options=options.OPTIONS, rules_summary=options.rules_summary,
        panel=panel.panel, step=panel.step, table=table.table_screen,
        last_play=table.last_play, choice_label=panel.choice_label,
        deal_summary=summary.deal_summary, score=summary.score_text,
        settlement=summary.settlement_text, history_line=summary.history_line,
        after_deal=getattr(summary, "after_deal", None),
        picture=part("picture").draw, entry=part("entry").ENTRY,
        refusals=refusals.templates, refusal_values=getattr(refusals, "VALUES", {}),
        stats=part("stats").words, miniapp=part("miniapp").draw, settle_text=settle_text,
        examples=examples or {}, languages=languages, analysis=analysis,
    )
