"""Joker (ჯოკერი, «Джокер»): 36 cards with two jokers, 24 deals in four pulkas."""

from engine.base import GameSpec
from engine.joker.actions import decode_action, encode_action
from engine.joker.policy import first_dealer, random_action
from engine.joker.rules import Rules
from engine.joker.scoring import Scoresheet
from engine.joker.sheet_text import sheet_text
from engine.joker.state import State

SPEC = GameSpec(
    name="joker",
    rules=Rules,
    new_sheet=Scoresheet,
    new_deal=State.new,
    encode_action=encode_action,
    decode_action=decode_action,
    random_action=random_action,
    first_dealer=first_dealer,
    sheet_text=sheet_text,
)

__all__ = ["SPEC", "Rules", "Scoresheet", "State"]
