"""The bot side of a game: the same shape for every game (see ``GameUI``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Translate
from bot.render.context import RenderContext
from bot.render.screen import Screen
from engine.base import DealState
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


def engine_view(state: DealState, seat: int | None) -> dict[str, Any]:
    """What a panel is drawn from: the engine's view of the seat."""
    return state.view(seat)


def view_with_actions(state: DealState, seat: int | None) -> dict[str, Any]:
    """The engine's view plus ``actions``: the legal actions of the seats this seat plays
    now (for games whose view does not list them)."""
    acting = [] if seat is None else [s for s in state.to_act if state.controller(s) == seat]
    return {**state.view(seat), "actions": {s: state.legal_actions(s) for s in acting}}


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
    # The view a panel and a UI step read (the engine's view, or that plus legal actions).
    seat_view: Callable[[DealState, int | None], dict[str, Any]] = engine_view
    # Text added to a deal's summary from the whole match (a pulka's end, the bazzis won).
    after_deal: Callable[[Match, RenderContext], str] | None = None
    # The partnerships for these rules (lists of seats); empty when everyone plays alone.
    teams: Callable[[dict[str, Any]], list[list[int]]] | None = None
