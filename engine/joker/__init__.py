"""Joker (ჯოკერი, «Джокер»): 36 cards with two jokers, 24 deals in four pulkas."""

from engine.base import GameSpec
from engine.joker import robot
from engine.joker.actions import decode_action, encode_action
from engine.joker.manual import Form
from engine.joker.policy import first_dealer, random_action
from engine.joker.rules import Rules
from engine.joker.scoring import Scoresheet
from engine.joker.sheet_text import sheet_text
from engine.joker.state import State
from engine.joker.stats import seat_stats


def teams(rules: Rules) -> list[list[int]]:
    """Pairs sit opposite when the rules play in pairs."""
    return [[0, 2], [1, 3]] if rules.pairs else []


SPEC = GameSpec(
    name="joker",
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
    sheet_text=sheet_text,
)

__all__ = ["SPEC", "Rules", "Scoresheet", "State"]
