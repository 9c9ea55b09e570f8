"""The bot side of a game: the same shape for every game (see ``GameUI``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Translate
from bot.render.context import RenderContext
from bot.render.screen import Screen
from engine.match import Match


@dataclass(frozen=True)
class Option:
    """A rules option the table's creator can change in the lobby (values cycle)."""

    key: str
    label: str  # English, translated when shown
    values: tuple[Any, ...]
    names: tuple[str, ...] = ()  # English names of the values; default str(value)

    def name(self, value: Any) -> str:
        if self.names and value in self.values:
            return self.names[self.values.index(value)]
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def after(self, value: Any) -> Any:
        i = self.values.index(value) if value in self.values else -1
        return self.values[(i + 1) % len(self.values)]


@dataclass(frozen=True)
class StepResult:
    """A UI step's outcome: a new selection to show, or an engine action to apply."""

    selection: frozenset[str] = frozenset()
    action: str | None = None


@dataclass(frozen=True)
class GameUI:
    name: str
    title: str  # English name of the game
    commands: tuple[str, ...]  # command aliases that open a table of this game
    main_options: tuple[Option, ...]  # shown as lobby buttons
    conventions: tuple[Option, ...]  # shown on the conventions page
    panel: Callable[[dict[str, Any], RenderContext], Screen]
    table: Callable[[dict[str, Any], RenderContext], Screen]
    deal_summary: Callable[[dict[str, Any], dict[str, Any], RenderContext], str]
    score: Callable[[Match, RenderContext], str]
    settlement: Callable[[Match, RenderContext], str]
    step: Callable[[dict[str, Any], frozenset[str], str], StepResult]
    rules_summary: Callable[[dict[str, Any], RenderContext], str]
    history_line: Callable[[dict[str, Any], int, list[str], Translate], str]
