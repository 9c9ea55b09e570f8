"""A whole game: deals in sequence, each scored on the game's scoresheet.

``Match`` is what the bot keeps per table and what a record replays into. It
knows every game only through its ``GameSpec``. Between two deals it can be
snapshotted as data (``snapshot``) and resumed from it (``resume``) without the
deals before: the outputs of those deals are all it keeps of them.
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
        self.earlier = 0  # deals before ``deals`` (not held: resumed from a snapshot)

    @classmethod
    def resume(
        cls, spec: GameSpec, rules: RulesBase, players: list[str], snapshot: Mapping[str, Any],
        outputs: list[dict[str, Any]],
    ) -> Match:
        """The match as ``snapshot`` saw it, with the ``outputs`` of the deals before it;
        ValueError if they do not belong together."""
        if len(outputs) != snapshot["deals"]:
            raise ValueError(f"a snapshot after {snapshot['deals']} deals with"
                             f" {len(outputs)} deal outputs")
        match = cls(spec, rules, players, snapshot["first_dealer"])
        match.sheet = spec.new_sheet.from_data(rules, snapshot["sheet"])
        match.version, match.earlier = snapshot["version"], snapshot["deals"]
        match.outputs = list(outputs)
        return match

    @property
    def deal_count(self) -> int:
        """The deals dealt (or entered) so far, the one in play included."""
        return self.earlier + len(self.deals)

    def snapshot(self) -> dict[str, Any]:
        """The match between two deals as JSON data: the sheet, the deal count, the version."""
        if self.in_deal:
            raise WrongPhase("deal_in_progress", "a match is snapshotted between deals")
        return {"version": self.version, "deals": self.deal_count,
                "first_dealer": self.first_dealer, "sheet": self.sheet.to_data()}

    @property
    def played(self) -> int:
        """The deals played to their end (a void deal dealt again not counted)."""
        return sum(1 for output in self.outputs if self.spec.played(output))

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
        """The game record of records.md (of a match that holds all its deals)."""
        if self.earlier:
            raise ValueError("a resumed match holds only the deals since its snapshot")
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
