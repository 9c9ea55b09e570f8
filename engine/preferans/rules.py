"""Preferans Rules: every option of the spec's Conventions table (section 13)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.base import RulesBase, RulesError, option

VARIANTS = ("sochi", "leningrad", "rostov")

# Per-variant defaults that differ from the field defaults below (spec section 13).
_VARIANT_DEFAULTS: dict[str, dict[str, Any]] = {
    "sochi": {
        "pool": 10,
        "talon_premium": True,
        "ten_mode": "whisted",
        "whist_style": "greedy",
        "failed_whist_rate": "cost",
        "consolation_to_passer": False,
        "open_reveal": "before_declarer_lead",
        "raspasy_mode": "mountain",
        "raspasy_talon": "lead_two",
        "zero_trick_reward": "writeoff",
        "help_rate": 10,
    },
    "leningrad": {
        "pool": 20,
        "talon_premium": False,
        "ten_mode": "checked",
        "whist_style": "gentleman",
        "failed_whist_rate": "cost",
        "consolation_to_passer": False,
        "open_reveal": "after_first_lead",
        "raspasy_mode": "mountain",
        "raspasy_talon": "lead_two",
        "zero_trick_reward": "writeoff",
        "help_rate": 20,
    },
    "rostov": {
        "pool": 10,
        "talon_premium": False,
        "ten_mode": "whisted",
        "whist_style": "greedy",
        "failed_whist_rate": "half_cost",
        "consolation_to_passer": True,
        "open_reveal": "after_first_lead",
        "raspasy_mode": "whists",
        "raspasy_talon": "unused",
        "zero_trick_reward": "pool",
        "help_rate": 10,
    },
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Preferans options; JSON names as in the spec. See spec section 13."""

    ALIASES: ClassVar[Mapping[str, Mapping[Any, Any]]] = {"variant": {"peter": "leningrad"}}

    variant: str = option("sochi", VARIANTS)
    players: int = option(3, (3, 4))
    pool: int = option(10, kind=int, offered=(10, 20, 30, 40, 50, 4))
    first_dealer: str = option("creator_first_hand", ("creator_first_hand", "random"))
    here_rule: str = option("senior_two_left", ("senior_two_left", "seed_literal", "off"))
    bid_jumps: bool = option(False, (False, True))
    miser_bidder_after_outbid: str = option("pass_only", ("pass_only", "may_raise"))
    walkaway: bool | str = option(False, (False, "no_whists", "with_consolation"))
    talon_premium: bool = option(True, (False, True))
    stalingrad: bool = option(False, (False, True))
    ten_mode: str = option("whisted", ("whisted", "checked"))
    whist_style: str = option("greedy", ("greedy", "gentleman"))
    failed_whist_rate: str = option("cost", ("cost", "half_cost"))
    both_whist_shortfall: str = option("own_half", ("own_half", "capped"))
    consolation_to_passer: bool = option(False, (False, True))
    consolation_to_dealer: bool = option(True, (False, True))
    consolation_rate: str = option("contract", ("contract", "flat10"))
    miser_consolation: bool = option(False, (False, True))
    open_reveal: str = option("before_declarer_lead", ("after_first_lead", "before_declarer_lead"))
    raspasy_mode: str = option("mountain", ("mountain", "whists"))
    raspasy_talon: str = option("lead_two", ("lead_two", "unused"))
    sochi_progression: bool = option(False, (False, True))
    peter_third_state: str = option("classic", ("classic", "hard"))
    exit_needs_whist: bool = option(True, (False, True))
    zero_trick_reward: str = option("writeoff", ("writeoff", "pool", "none"))
    rostov_raspasy_rate: int = option(5, kind=int, offered=(5, 10))
    pool_overflow: str = option("help", ("help", "keep"))
    help_rate: int = option(10, kind=int, offered=(10, 20))
    settlement_rounding: str = option("exact", ("exact", "integer", "divisible_by_n"))
    claims: bool = option(False, (False, True))  # issue 34: claim the rest, concede tricks
    auto_claims: bool = option(False, (False, True))  # a claim the solver proves stands

    @classmethod
    def variant_defaults(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        variant = data.get("variant", "sochi")
        return dict(_VARIANT_DEFAULTS.get(variant, {}))

    def check(self) -> None:
        if self.pool < 1:
            raise RulesError("rules option pool: the pool target must be at least 1")
        if self.rostov_raspasy_rate < 1:
            raise RulesError("rules option rostov_raspasy_rate must be at least 1")
        if self.help_rate < 0:
            raise RulesError("rules option help_rate must not be negative")
        if self.raspasy_mode == "whists" and self.raspasy_talon != "unused":
            raise RulesError("raspasy_mode whists requires raspasy_talon unused")

    @property
    def k(self) -> int:
        """The variant factor: Leningrad doubles mountain and whist entries."""
        return 2 if self.variant == "leningrad" else 1
