"""Russian Preferans: Sochi, Leningrad and Rostov, for 3 or 4 players."""

from engine.base import GameSpec
from engine.preferans import robot
from engine.preferans.analysis import analyse
from engine.preferans.codec import decode_action, encode_action
from engine.preferans.manual import Form
from engine.preferans.policy import first_dealer, random_action
from engine.preferans.rules import Rules
from engine.preferans.scoring import Scoresheet, settle_document, sheet_text
from engine.preferans.state import State
from engine.preferans.stats import seat_stats

SPEC = GameSpec(
    name="preferans",
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
    settle=settle_document,
    sheet_text=sheet_text,
    analyse=analyse,
    hint=robot.hint,
)

__all__ = ["SPEC", "Rules", "Scoresheet", "State"]
