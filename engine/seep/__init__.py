"""Seep: four players in two partnerships (or two players), houses, sweeps and bazzis."""

from collections.abc import Mapping
from typing import Any

from engine.base import GameSpec
from engine.seep import robot
from engine.seep.manual import Form
from engine.seep.notation import decode_action, encode_action
from engine.seep.policy import first_dealer, random_action
from engine.seep.rules import Rules
from engine.seep.scoring import Scoresheet
from engine.seep.sheet import sheet_text
from engine.seep.state import State
from engine.seep.stats import seat_stats


def played(output: Mapping[str, Any]) -> bool:
    """A void deal (spec 4.3) is dealt again at once: it was not played."""
    return output["bid"] is not None


def teams(rules: Rules) -> list[list[int]]:
    """Partners sit opposite with four players; two players play alone."""
    return rules.teams if rules.players == 4 else []


SPEC = GameSpec(
    name="seep",
    rules=Rules,
    new_sheet=Scoresheet,
    new_deal=State.new,
    encode_action=encode_action,
    decode_action=decode_action,
    random_action=random_action,
    first_dealer=first_dealer,
    robot=robot,
    entry_form=Form,
    seat_stats=seat_stats,
    teams=teams,
    played=played,
    sheet_text=sheet_text,
)

__all__ = ["SPEC", "Rules", "Scoresheet", "State"]
