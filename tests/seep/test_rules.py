"""Seep Rules: the Conventions table's options, defaults, and refused values."""

from __future__ import annotations

import random

import pytest

from engine.base import RulesError
from engine.games import get_game
from engine.seep import SPEC, Rules

DEFAULTS = {
    "players": 4, "ten_of_diamonds_points": 6, "majority_bonus": 0, "sweep_points": 50,
    "first_play_sweep_points": 25, "last_play_sweep_points": 0, "sweep_cancel": False,
    "capture_must_be_maximal": True, "bid_throw_last_resort": True, "absorb_sets": "mandatory",
    "break_partner_house": True, "break_with_floor_cards": False, "max_houses": "unlimited",
    "under_nine_counts": "score", "bazzi_target": 100, "bazzi_overflow": "discard", "bazzis": 1,
    "dealer_rotation": "losing_team", "show_capture_totals": False,
}


def test_every_convention_is_a_field_with_its_default() -> None:
    assert Rules.from_dict({}).to_dict() == DEFAULTS
    assert get_game("seep") is SPEC


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": 3}, "rules option players: 3 is not one of 4, 2"),
        ({"max_houses": 3}, "rules option max_houses: 3 is not one of \"unlimited\", 2"),
        ({"sweep_cancel": "on"}, "rules option sweep_cancel"),
        ({"bazzis": 0}, "at least 1 bazzi"),
        ({"bazzis": True}, "not a whole number"),
        ({"pool": 10}, "unknown rules option(s): pool"),
    ],
)
def test_bad_rules(data, message) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_dict(data)
    assert message in str(err.value)


def test_seating_to_the_right() -> None:
    four, two = Rules(), Rules(players=2)
    assert [four.next_seat(s) for s in range(4)] == [3, 0, 1, 2]
    assert [four.partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [four.team(s) for s in range(4)] == [0, 1, 0, 1]
    assert [two.next_seat(s) for s in range(2)] == [1, 0] and two.partner(0) is None


def test_first_dealer_is_random_among_the_seats() -> None:
    rng = random.Random(1)
    assert {SPEC.first_dealer(Rules(), 0, rng) for _ in range(50)} == {0, 1, 2, 3}
