"""Rules: every Conventions option is a validated field (spec 16, 18.7)."""

from __future__ import annotations

import pytest

from engine.base import RulesError
from engine.joker import Rules


def test_defaults_are_the_spec_defaults():
    assert Rules().to_dict() == {
        "players": 4, "schedule": "standard", "nine_card_trump": "chooser",
        "dealer_restriction": True, "pass_limit": "none", "strict_joker": False,
        "face_value": True, "two_jokers": "last", "trump_beats_led_high_joker": False,
        "low_lead_demands_highest": False, "void_must_trump_highest": False,
        "scoring": "standard", "khishti": 200, "premium": True,
        "premium_excludes_last_deal": False, "multi_premium_penalises": False,
        "premium_penalty_basis": "best_deal", "pairs": False,
    }


@pytest.mark.parametrize("options", [
    {"players": 3, "nine_card_trump": "turn_up"}, {"players": 2, "schedule": "short"},
    {"pass_limit": 3}, {"khishti": "per_pulka"}, {"khishti": 1000}, {"khishti": "dynamic"},
    {"pairs": True}, {"scoring": "negative", "premium": False},
])
def test_valid_options(options):
    assert Rules.from_dict(options).to_dict().items() >= options.items()


@pytest.mark.parametrize(("options", "reason"), [
    ({"nine_card_trump": "turn_up"}, "turn_up needs 3 or 2 players"),
    ({"pairs": True, "players": 3}, "pairs need 4 players"),
    ({"pass_limit": 0}, "pass_limit"),
    ({"pass_limit": "2"}, "pass_limit"),
    ({"pass_limit": True}, "pass_limit"),
    ({"khishti": 400}, "khishti"),
    ({"players": 5}, "players"),
    ({"premium": "on"}, "premium"),
    ({"two_jokers": "both"}, "two_jokers"),
    ({"cards": 36}, "unknown rules option"),
])
def test_invalid_options(options, reason):
    with pytest.raises(RulesError, match=reason):
        Rules.from_dict(options)
