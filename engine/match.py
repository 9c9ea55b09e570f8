"""A whole game: deals in sequence, each scored on the game's scoresheet.

``Match`` is what the bot keeps per table and what a record replays into. It
knows every game only through its ``GameSpec``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.base import DealState, Event, GameSpec, RulesBase, WrongPhase


class Match:
    """Rules, players, the scoresheet, every deal's record and the deal in play."""

    def __init__(
        self, spec: GameSpec, rules: RulesBase, players: list[str], first_dealer: int
    ) -> None:
        self.spec = spec
        self.rules = rules
        self.players = list(players)
        self.first_dealer = first_dealer
        self.sheet = spec.new_sheet(rules, first_dealer)
        self.deals: list[dict[str, Any]] = []
        self.outputs: list[dict[str, Any]] = []
        self.state: DealState | None = None
        self.version = 0

    @property
    def over(self) -> bool:
        return self.sheet.complete

    @property
    def in_deal(self) -> bool:
        return self.state is not None and not self.state.finished

    def start_deal(
        self, *, seed: int | str | None = None, deal: Mapping[str, Any] | None = None
    ) -> DealState:
        """Deal the next hand from a seed or from a record's deal (explicit cards)."""
        if self.over:
            raise WrongPhase("game_over", "the game is over")
        if self.in_deal:
            raise WrongPhase("deal_in_progress", "the current deal is not finished")
        state = self.spec.new_deal(
            self.rules, self.players, self.sheet.next_context(), seed=seed, deal=deal
        )
        self.state = state
        self.deals.append({**state.deal_record(), "actions": []})
        self.version += 1
        if state.finished:  # void from the start (Seep's redeal): scored at once, no actions
            self._score(state.result())
        return state

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply one action to the deal in play; a finished deal is scored at once."""
        if self.state is None or self.state.finished:
            raise WrongPhase("no_deal", "no deal is in progress")
        events = self.state.apply(seat, action)
        self.deals[-1]["actions"].append(self.spec.encode_action(seat, action))
        self.version += 1
        if self.state.finished:
            events += self._score(self.state.result())
        return events

    def add_entered(self, deal: Mapping[str, Any], result: Any) -> list[Event]:
        """Score a deal played with real cards (scorekeeper mode); ``deal`` is its record."""
        if self.over:
            raise WrongPhase("game_over", "the game is over")
        if self.in_deal:
            raise WrongPhase("deal_in_progress", "the current deal is not finished")
        events = self._score(result)
        self.deals.append(copy.deepcopy(dict(deal)))
        self.version += 1
        return events

    def _score(self, result: Any) -> list[Event]:
        """Score a finished deal's result on the sheet."""
        output = self.sheet.add(result)
        self.outputs.append(output)
        events = [Event("deal_scored", None, {"output": output})]
        if self.over:
            events.append(Event("game_over", None, {"report": self.report()}))
        return events

    def record(self) -> dict[str, Any]:
        """The game record of records.md."""
        return {
            "game": self.spec.name,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "deals": copy.deepcopy(self.deals),
        }

    def report(self) -> dict[str, Any]:
        """The replay output document: per-deal outputs, sheet and settlement."""
        deals = list(self.outputs)
        if self.in_deal:
            assert self.state is not None
            deals.append(self.state.progress())
        sheet = self.sheet.report()
        return {"game": self.spec.name, "complete": sheet.pop("complete"), "deals": deals, **sheet}
