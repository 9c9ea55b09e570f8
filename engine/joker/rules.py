"""Joker Rules: every option of the spec's Conventions table (section 16)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import RulesBase, RulesError, option

KHISHTI = (200, 300, 500, 900, 1000, "per_pulka", "dynamic")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Joker options; JSON names and values as in the spec's section 16."""

    players: int = option(4, (4, 3, 2))
    schedule: str = option("standard", ("standard", "nines", "short"))
    nine_card_trump: str = option("chooser", ("chooser", "no_trump", "turn_up"))
    dealer_restriction: bool = option(True, (True, False))
    pass_limit: str | int = option("none", offered=("none", 3, 5, 8))  # or any number >= 1
    strict_joker: bool = option(False, (False, True))
    face_value: bool = option(True, (True, False))
    two_jokers: str = option("last", ("last", "first"))
    trump_beats_led_high_joker: bool = option(False, (False, True))
    low_lead_demands_highest: bool = option(False, (False, True))
    void_must_trump_highest: bool = option(False, (False, True))
    scoring: str = option("standard", ("standard", "negative"))
    khishti: int | str = option(200, KHISHTI)
    premium: bool = option(True, (True, False))
    premium_excludes_last_deal: bool = option(False, (False, True))
    multi_premium_penalises: bool = option(False, (False, True))
    premium_penalty_basis: str = option("best_deal", ("best_deal", "exact_only"))
    pairs: bool = option(False, (False, True))

    def check(self) -> None:
        limit = self.pass_limit
        if limit != "none" and not (type(limit) is int and limit >= 1):
            raise RulesError(
                f'rules option pass_limit: {limit!r} is not "none" or a whole number from 1'
            )
        if self.nine_card_trump == "turn_up" and self.players == 4:
            raise RulesError(
                "rules option nine_card_trump: turn_up needs 3 or 2 players "
                "(with 4 players no card remains in a 9-card deal)"
            )
        if self.pairs and self.players != 4:
            raise RulesError("rules option pairs: pairs need 4 players")

    @property
    def max_passes(self) -> int | None:
        """The pass limit as a number, None when there is none."""
        return None if self.pass_limit == "none" else int(self.pass_limit)
