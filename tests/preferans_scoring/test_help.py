"""Spec section 11: the pool target, help, write-off and the end of the game (E21, E22)."""

from __future__ import annotations

import pytest

from tests.preferans_scoring.helpers import A, B, C, D, entries, result, score, sheet


def test_e21_help_two_players_sochi() -> None:
    s = sheet("sochi")
    s.pool = [8, 6, 9]  # sheet level: the starting pools are given, not played
    got = score(s, declarer=A, contract="8S")  # made (both passed): c = 6, excess 4
    assert got == entries(pool={A: 2, B: 3, C: 1}, whists={(A, B): 30, (A, C): 10})
    assert s.pool == [10, 9, 10]
    assert s.whists[A] == [0, 30, 10]
    assert not s.complete


@pytest.mark.parametrize(("variant", "writeoff"), [("sochi", -1), ("leningrad", -2)])
def test_e21_nobody_to_help_writes_off(variant: str, writeoff: int) -> None:
    s = sheet(variant, pool=10)
    s.pool = [9, 10, 10]
    got = score(s, declarer=A, contract="6C")
    assert got == entries(pool={A: 1}, mountain={A: writeoff})
    assert s.pool == [10, 10, 10]
    assert s.complete


def test_e22_help_tie_goes_clockwise_peter() -> None:
    s = sheet("leningrad", pool=20)
    s.pool = [19, 15, 15]
    got = score(s, declarer=A, contract="7S")
    assert got == entries(pool={A: 1, B: 3}, whists={(A, B): 60})
    assert s.pool == [20, 18, 15]


def test_tie_clockwise_from_the_overflowing_seat() -> None:
    s = sheet("sochi", first_dealer=A)  # B is first hand; C declares
    s.pool = [5, 5, 9]
    got = score(s, declarer=C, contract="6S")  # excess 1; A and B tie, A is first after C
    assert got == entries(pool={C: 1, A: 1}, whists={(C, A): 10})


def test_4p_dealer_can_be_helped() -> None:
    s = sheet("sochi", 4)
    s.pool = [10, 2, 4, 7]
    got = score(s, declarer=A, contract="7S")  # A is full: all 4 go to D (7), then C
    assert got == entries(4, pool={D: 3, C: 1}, whists={(A, D): 30, (A, C): 10})


def test_raspasy_zero_rewards_in_order_first_hand_clockwise() -> None:
    """Two pool entries in one deal: first hand's first, then clockwise."""
    s = sheet("rostov", 4)
    s.pool = [9, 10, 10, 9]
    got = score(s, "raspasy", tricks=(0, 5, 5, 0))
    # A: +1 fills his pool. D (dealer, last): +1 fills his. Nothing overflows.
    assert got["pool"] == [1, 0, 0, 1]
    s = sheet("rostov", 4)
    s.pool = [10, 10, 9, 10]
    got = score(s, "raspasy", tricks=(0, 5, 5, 0))
    # A's point helps C (10 whists); D's point finds nobody: written off, k = 1
    assert got == entries(4, pool={C: 1}, mountain={D: -1},
                          whists={(A, B): 25, (A, C): 10 + 25})


def test_pool_overflow_keep() -> None:
    s = sheet("sochi", pool_overflow="keep")
    s.pool = [8, 6, 9]
    got = score(s, declarer=A, contract="8S")
    assert got == entries(pool={A: 6})
    assert s.pool == [14, 6, 9]


def test_help_rate_option() -> None:
    s = sheet("sochi", help_rate=5)
    s.pool = [9, 0, 0]
    assert score(s, declarer=A, contract="6S") == entries(pool={A: 1, B: 1}, whists={(A, B): 5})


def test_game_ends_when_every_pool_reaches_the_target() -> None:
    s = sheet("sochi", pool=2)
    for seat in (A, B):
        score(s, declarer=seat, contract="6S")
        assert not s.complete
    score(s, declarer=C, contract="6S")
    assert s.complete
    assert s.report()["complete"] is True
    before = s.report()
    with pytest.raises(ValueError, match="the game is over"):
        score(s, declarer=A, contract="6S")
    assert s.report() == before and len(s.history) == 3


def test_a_result_that_does_not_fit_the_sheet_changes_nothing() -> None:
    s = sheet("leningrad")
    wrong_dealer = result(s, "raspasy", tricks=(2, 3, 5))
    score(s, "raspasy", tricks=(2, 3, 5))
    before = s.report()
    with pytest.raises(ValueError, match="expects seat 0, state 2"):
        s.add(wrong_dealer)
    assert s.report() == before and s.state == 2
