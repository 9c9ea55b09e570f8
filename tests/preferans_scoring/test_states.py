"""Spec 10.11 and E23: raspasy states, their opening bids, costs and exits."""

from __future__ import annotations

from typing import Any

import pytest

from engine.preferans.scoring import Scoresheet
from tests.preferans_scoring.helpers import score, sheet

RASPASY = {"kind": "raspasy", "tricks": (1, 3, 6)}  # amnesty: 0, 2, 5 tricks above the least


def _first_hand(s: Scoresheet) -> int:
    return (s.next_context().dealer + 1) % s.rules.players


def _play(s: Scoresheet, deal: dict[str, Any]) -> dict[str, list]:
    """A deal declared by the next deal's first hand (three players)."""
    if deal.get("kind") == "raspasy":
        return score(s, **deal)
    d = _first_hand(s)
    tricks = deal.pop("declarer_tricks", 0)
    others = [x for x in range(3) if x != d]
    split = [0, 0, 0]
    split[d] = tricks
    split[others[0]] = 10 - tricks
    return score(s, declarer=d, tricks=tuple(split) if tricks else None, **deal)


E23 = [  # (deal, state and min bid it is played in, pool / mountain it writes)
    (RASPASY, 1, "6S", {"raspasy_cost": 2}),
    (RASPASY, 2, "7S", {"raspasy_cost": 4}),
    (RASPASY, 3, "7S", {"raspasy_cost": 6}),
    ({"contract": "8S"}, 3, "7S", {"pool": 6}),  # both defenders pass
    ({"kind": "miser", "contract": "miser", "declarer_tricks": 0}, 3, "7S", {"pool": 10}),
    ({"contract": "7H", "whisters": (1, 2), "declarer_tricks": 6}, 3, "7S", {"mountain": 8}),
    ({"contract": "7C", "whisters": (1, 2), "declarer_tricks": 7}, 3, "7S", {"pool": 4}),
]


def _check(s: Scoresheet, deal: dict[str, Any], state: int, bid: str,
           writes: dict[str, int]) -> None:
    ctx = s.next_context()
    assert (ctx.raspasy_state, ctx.min_bid) == (state, bid)
    d = _first_hand(s)
    got = _play(s, dict(deal))
    if "raspasy_cost" in writes:
        r = writes["raspasy_cost"]
        assert got["mountain"] == [0, 2 * r, 5 * r]
    else:
        kind, value = next(iter(writes.items()))
        assert got[kind][d] == value


def test_e23_peter_classic_sequence() -> None:
    s = sheet("leningrad")
    for deal, state, bid, writes in E23:
        _check(s, deal, state, bid, writes)
    assert (s.state, s.next_context().min_bid) == (1, "6S")  # deal 8


def test_e23_peter_hard_third_state() -> None:
    s = sheet("leningrad", peter_third_state="hard")
    _check(s, RASPASY, 1, "6S", {"raspasy_cost": 2})
    _check(s, RASPASY, 2, "7S", {"raspasy_cost": 4})
    _check(s, RASPASY, 3, "8S", {"raspasy_cost": 8})
    _check(s, RASPASY, 3, "8S", {"raspasy_cost": 8})


@pytest.mark.parametrize(("third", "bid"), [("classic", "7S"), ("hard", "8S")])
def test_sochi_progression_ends_after_three(third: str, bid: str) -> None:
    s = sheet("sochi", sochi_progression=True, peter_third_state=third)
    _check(s, RASPASY, 1, "6S", {"raspasy_cost": 1})
    _check(s, RASPASY, 2, "7S", {"raspasy_cost": 2})
    _check(s, RASPASY, 3, bid, {"raspasy_cost": 3})  # costs stay 1, 2, 3 (17.4)
    _check(s, RASPASY, 1, "6S", {"raspasy_cost": 1})


@pytest.mark.parametrize("variant", ["sochi", "rostov"])
def test_no_states_without_progression(variant: str) -> None:
    s = sheet(variant)
    for _ in range(4):
        assert (s.next_context().raspasy_state, s.next_context().min_bid) == (1, "6S")
        _play(s, dict(RASPASY))


def _state_after(deal: dict[str, Any], **options: Any) -> int:
    s = sheet("leningrad", **options)
    _play(s, dict(RASPASY))
    _play(s, deal)
    return s.state


@pytest.mark.parametrize(
    ("deal", "exits"),
    [
        ({"contract": "6S", "whisters": (1,), "declarer_tricks": 6}, True),
        ({"contract": "9NT", "whisters": (1, 2), "declarer_tricks": 9}, True),
        ({"contract": "7S", "halfwhister": 2}, True),  # a half-whist that stood [inferred]
        ({"contract": "7S"}, False),  # passed
        ({"contract": "8S", "whisters": (1,), "declarer_tricks": 7}, False),  # failed
        ({"contract": "10NT", "checked": True, "declarer_tricks": 10}, False),  # the ten
        ({"kind": "miser", "contract": "miser", "declarer_tricks": 0}, False),
    ],
)
def test_peter_exits(deal: dict[str, Any], exits: bool) -> None:
    assert _state_after(dict(deal)) == (1 if exits else 2)


@pytest.mark.parametrize(
    ("deal", "exits"),
    [
        ({"contract": "8S"}, True),  # passed, made
        ({"contract": "8S", "whisters": (1,), "declarer_tricks": 7}, False),
        ({"contract": "10S", "declarer_tricks": 10, "whisters": (1,)}, False),
        ({"kind": "miser", "contract": "miser", "declarer_tricks": 0}, False),
    ],
)
def test_exit_without_whist(deal: dict[str, Any], exits: bool) -> None:
    assert _state_after(dict(deal), exit_needs_whist=False) == (1 if exits else 2)


def test_walkaway_never_exits() -> None:
    s = sheet("leningrad", walkaway="no_whists")
    _play(s, dict(RASPASY))
    _play(s, {"kind": "walkaway", "contract": "6S"})
    assert s.state == 2


def test_dealer_rotates_clockwise_after_every_deal() -> None:
    s = sheet("sochi", 4, first_dealer=2)
    dealers = []
    for _ in range(5):
        dealers.append(s.next_context().dealer)
        score(s, "raspasy", tricks=(2, 3, 5, 0))
    assert dealers == [2, 3, 0, 1, 2]
