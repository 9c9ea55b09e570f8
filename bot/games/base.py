"""A game's plugin: everything the bot shows of one game, the same shape for every game.

Each game folder (``bot/games/<game>/``) holds the same modules: ``options``
(the lobby's words for the Rules options), ``table`` and ``panel`` (the group's
table message, a player's panel and its UI steps), ``summary`` (a deal's
result, the score, the settlement, a history line), ``picture`` (the sheet as a
picture), ``entry`` (deals entered by hand), ``refusals`` (the game's refusal
texts) and ``stats`` (its units in /stats and /top); ``__init__`` puts them
together as ``PLUGIN``.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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

    def lines(self, rules: Mapping[str, Any], tr: Translate,
              skip: tuple[str, ...] = ()) -> list[str]:
        """``Label: value`` for every option but ``skip``, translated."""
        return [f"{tr(self.labels[k])}: {tr(self.name(k, rules[k]))}"
                for k in self.keys if k not in skip]

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


@dataclass(frozen=True)
class GamePlugin:
    name: str
    title: str  # English name of the game
    commands: tuple[str, ...]  # command aliases that open a table of this game
    options: Options
    rules_summary: Callable[[dict[str, Any], RenderContext], str]
    panel: Callable[[dict[str, Any], RenderContext], Screen]
    step: Stepper
    table: Callable[[dict[str, Any], RenderContext], Screen]
    deal_summary: Callable[[dict[str, Any], dict[str, Any], RenderContext], str]
    score: Callable[[Match, RenderContext], str]
    settlement: Callable[[Match, RenderContext], str]
    history_line: Callable[[dict[str, Any], int, list[str], Translate], str]
    picture: Callable[[Match, Callable[[str], str]], Picture]
    entry: EntryUI
    refusals: Callable[[Callable[[str], str]], dict[str, str | tuple[str, ...]]]
    stats: Callable[[Translate], StatsWords]
    # How refusal params are shown (a suit letter as its symbol...), beside the common ones.
    refusal_values: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    # Text added to a deal's summary from the whole match (a pulka's end, the bazzis won).
    after_deal: Callable[[Match, RenderContext], str] | None = None
    # ``/settle``: a paper sheet of the game, typed in, settled (None: the game has none).
    settle_text: Callable[[str, Translate], str] | None = None
    examples: Mapping[str, Example] = field(default_factory=dict)


def assemble(package: str, *, title: str, commands: tuple[str, ...],
             examples: Mapping[str, Example] | None = None,
             settle_text: Callable[[str, Translate], str] | None = None) -> GamePlugin:
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
        deal_summary=summary.deal_summary, score=summary.score_text,
        settlement=summary.settlement_text, history_line=summary.history_line,
        after_deal=getattr(summary, "after_deal", None),
        picture=part("picture").draw, entry=part("entry").ENTRY,
        refusals=refusals.templates, refusal_values=getattr(refusals, "VALUES", {}),
        stats=part("stats").words, settle_text=settle_text, examples=examples or {},
    )
