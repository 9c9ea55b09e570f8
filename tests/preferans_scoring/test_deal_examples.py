"""Spec section 14, E1-E20: one deal's entries, entry by entry."""

from __future__ import annotations

import pytest

from tests.preferans.helpers import RASPASY_HANDS, RASPASY_TRICKS, act, deal, play_tricks
from tests.preferans_scoring.helpers import A, B, C, D, entries, score, sheet


def test_e1_sochi_six_made_two_whisters() -> None:
    got = score(sheet("sochi"), declarer=A, contract="6S", tricks=(6, 2, 2), whisters=(B, C))
    assert got == entries(pool={A: 2}, whists={(B, A): 4, (C, A): 4})


def test_e2_sochi_seven_down_one_greedy() -> None:
    got = score(sheet("sochi"), declarer=A, contract="7H", tricks=(6, 3, 1), whisters=(B,))
    assert got == entries(mountain={A: 4}, whists={(B, A): 20})


def test_e3_peter_same_deal_gentleman() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="7H", tricks=(6, 3, 1), whisters=(B,))
    assert got == entries(mountain={A: 8}, whists={(B, A): 24, (C, A): 16})


def test_e4_peter_returned_whist_takes_all() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="7H", tricks=(6, 3, 1), whisters=(B,),
                returned=True)
    assert got == entries(mountain={A: 8}, whists={(B, A): 40})


def test_e5_sochi_two_whisters_short() -> None:
    got = score(sheet("sochi"), declarer=A, contract="6D", tricks=(7, 2, 1), whisters=(B, C))
    assert got == entries(pool={A: 2}, mountain={C: 2}, whists={(B, A): 4, (C, A): 2})


@pytest.mark.parametrize(("rule", "charge"), [("own_half", 4), ("capped", 2)])
def test_e5_variant_three_and_nothing(rule: str, charge: int) -> None:
    s = sheet("sochi", both_whist_shortfall=rule)
    got = score(s, declarer=A, contract="6D", tricks=(7, 3, 0), whisters=(B, C))
    assert got == entries(pool={A: 2}, mountain={C: charge}, whists={(B, A): 6})


@pytest.mark.parametrize(
    ("tricks", "own_half", "capped"),
    [  # spec 10.4's examples at 6 (O = 4), B first defender, C second
        ((7, 3, 0), {C: 4}, {C: 2}),
        ((7, 2, 1), {C: 2}, {C: 2}),
        ((9, 1, 0), {B: 2, C: 4}, {C: 6}),
        ((9, 0, 1), {B: 4, C: 2}, {B: 6}),
        ((8, 1, 1), {B: 2, C: 2}, {C: 4}),
    ],
)
def test_both_whist_shortfall_options(tricks: tuple[int, ...], own_half: dict[int, int],
                                      capped: dict[int, int]) -> None:
    for rule, charges in (("own_half", own_half), ("capped", capped)):
        s = sheet("sochi", both_whist_shortfall=rule)
        got = score(s, declarer=A, contract="6S", tricks=tricks, whisters=(B, C))
        assert got["mountain"] == entries(mountain=charges)["mountain"], rule


def test_e6_peter_eight_second_whister_answers() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="8C", tricks=(10, 0, 0), whisters=(B, C))
    assert got == entries(pool={A: 6}, mountain={C: 6})


def test_e7_sochi_nine_lone_whister_short() -> None:
    got = score(sheet("sochi"), declarer=A, contract="9NT", tricks=(10, 0, 0), whisters=(B,))
    assert got == entries(pool={A: 8}, mountain={B: 8})


def test_e8_half_whist_stands_sochi() -> None:
    got = score(sheet("sochi"), declarer=A, contract="6H", halfwhister=C)
    assert got == entries(pool={A: 2}, whists={(C, A): 4})


def test_e8_half_whist_stands_peter() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="7S", halfwhister=C)
    assert got == entries(pool={A: 4}, whists={(C, A): 8})


def test_e8_both_pass() -> None:
    got = score(sheet("sochi"), declarer=A, contract="8S")
    assert got == entries(pool={A: 6})


@pytest.mark.parametrize(
    ("variant", "taken", "expected"),
    [("sochi", 2, {"mountain": {A: 20}}), ("sochi", 0, {"pool": {A: 10}}),
     ("leningrad", 1, {"mountain": {A: 20}})],
)
def test_e9_miser(variant: str, taken: int, expected: dict) -> None:
    got = score(sheet(variant), "miser", declarer=A, contract="miser",
                tricks=(taken, 10 - taken, 0))
    assert got == entries(**expected)


@pytest.mark.parametrize("rate", ["contract", "flat10"])
def test_miser_consolation_option(rate: str) -> None:
    """17.5: both defenders (and the 4-player dealer) write k·10 per trick taken, whatever
    ``consolation_rate`` says (Leningrad: k = 2, so flat10's 10 would differ)."""
    s = sheet("leningrad", 4, miser_consolation=True, consolation_rate=rate)
    got = score(s, "miser", declarer=A, contract="miser", tricks=(1, 5, 4, 0))
    assert got == entries(4, mountain={A: 20}, whists={(B, A): 20, (C, A): 20, (D, A): 20})


def test_e10_sochi_4p_dealer_consolation() -> None:
    got = score(sheet("sochi", 4), declarer=A, contract="6S", tricks=(4, 3, 3, 0),
                whisters=(B, C))
    assert got == entries(4, mountain={A: 4}, whists={(B, A): 10, (C, A): 10, (D, A): 4})


def test_e10_without_dealer_consolation() -> None:
    s = sheet("sochi", 4, consolation_to_dealer=False)
    got = score(s, declarer=A, contract="6S", tricks=(4, 3, 3, 0), whisters=(B, C))
    assert got == entries(4, mountain={A: 4}, whists={(B, A): 10, (C, A): 10})


def test_e11_peter_4p_gentleman_split() -> None:
    # B declares: first defender C (passes), second defender A (whists).
    got = score(sheet("leningrad", 4), declarer=B, contract="8D", tricks=(2, 6, 2, 0),
                whisters=(A,))
    assert got == entries(4, mountain={B: 24}, whists={(A, B): 48, (C, B): 24, (D, B): 24})


def test_e12_rostov_passer_consolation() -> None:
    got = score(sheet("rostov"), declarer=A, contract="6C", tricks=(5, 4, 1), whisters=(B,))
    assert got == entries(mountain={A: 2}, whists={(B, A): 12, (C, A): 2})


def test_e12_rostov_failed_whist_half_cost() -> None:
    got = score(sheet("rostov"), declarer=A, contract="8H", tricks=(10, 0, 0), whisters=(B, C))
    assert got == entries(pool={A: 6}, mountain={C: 3})


def test_consolation_flat10() -> None:
    s = sheet("rostov", consolation_rate="flat10")
    got = score(s, declarer=A, contract="7S", tricks=(5, 4, 1), whisters=(B,))
    # A down 2 at 7: mountain 4·2; B side 5 × 4 + 10·2; C (passer, Rostov) 10·2
    assert got == entries(mountain={A: 8}, whists={(B, A): 40, (C, A): 20})


def test_e13_talon_premium_4p() -> None:
    got = score(sheet("sochi", 4), declarer=A, contract="7D", tricks=(7, 2, 1, 0), whisters=(B,),
                talon=("AH", "KH"))
    assert got == entries(4, pool={A: 4}, whists={(B, A): 12, (D, A): 8})


def test_e13_talon_premium_3p() -> None:
    got = score(sheet("sochi"), declarer=A, contract="6S", tricks=(6, 3, 1), whisters=(B, C),
                talon=("AS", "AD"))
    assert got == entries(pool={A: 2}, whists={(B, A): 9, (C, A): 5})


@pytest.mark.parametrize(
    ("talon", "units"),
    [(("AH", "KH"), 2), (("AS", "AD"), 3), (("AS", "7S"), 1), (("AS", "KD"), 1),
     (("KC", "QC"), 1), (("KC", "QD"), 0), (("KC", "JC"), 0), (("QS", "JS"), 0)],
)
def test_talon_units(talon: tuple[str, str], units: int) -> None:
    # 6♠, both defenders passed: the premium alone, half by each opponent (q·2 / 2 = q).
    got = score(sheet("sochi"), declarer=A, contract="6S", talon=talon)
    assert got == entries(pool={A: 2}, whists={(B, A): units, (C, A): units} if units else {})


def test_no_talon_premium_in_peter_or_on_miser() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="6S", talon=("AS", "AD"))
    assert got == entries(pool={A: 2})
    got = score(sheet("sochi"), "miser", declarer=A, contract="miser", tricks=(0, 5, 5),
                talon=("AS", "AD"))
    assert got == entries(pool={A: 10})


def test_e14_sochi_4p_raspasy_2_1_5_2() -> None:
    got = score(sheet("sochi", 4), "raspasy", tricks=(2, 1, 5, 2))
    assert got == entries(4, mountain={A: 1, C: 4, D: 1})


def test_e15_sochi_raspasy_zero() -> None:
    got = score(sheet("sochi"), "raspasy", tricks=(0, 4, 6))
    assert got == entries(mountain={A: -1, B: 4, C: 6})


def test_e15_zero_trick_reward_pool_and_none() -> None:
    got = score(sheet("sochi", zero_trick_reward="pool"), "raspasy", tricks=(0, 4, 6))
    assert got == entries(pool={A: 1}, mountain={B: 4, C: 6})
    got = score(sheet("sochi", zero_trick_reward="none"), "raspasy", tricks=(0, 4, 6))
    assert got == entries(mountain={B: 4, C: 6})


def test_e16_peter_raspasy_state_2() -> None:
    s = sheet("leningrad", first_dealer=B)  # B deals a first raspasy, C deals this one
    score(s, "raspasy", tricks=(2, 3, 5))
    assert s.next_context().raspasy_state == 2 and s.next_context().dealer == C
    got = score(s, "raspasy", tricks=(0, 3, 7))
    assert got == entries(mountain={A: -8, B: 12, C: 28})
    assert s.state == 3


def test_e17_peter_4p_dealer_took_nothing() -> None:
    got = score(sheet("leningrad", 4), "raspasy", tricks=(1, 4, 5, 0))
    assert got == entries(4, mountain={A: 2, B: 8, C: 10})


def test_raspasy_talon_unused_4p_dealer_not_a_participant() -> None:
    """17.3: with an unused talon the dealer has no cards; amnesty over the three."""
    got = score(sheet("sochi", 4, raspasy_talon="unused"), "raspasy", tricks=(1, 4, 5, 0))
    assert got == entries(4, mountain={B: 3, C: 4})


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        ((1, 3, 6), {"whists": {(A, B): 15, (A, C): 30}}),
        ((2, 2, 6), {"whists": {(A, C): 15, (B, C): 15}}),
        ((0, 5, 5), {"pool": {A: 1}, "whists": {(A, B): 25, (A, C): 25}}),
        ((6, 4, 0), {"pool": {C: 1}, "whists": {(C, A): 30, (C, B): 20}}),
    ],
)
def test_e18_rostov_raspasy(tricks: tuple[int, ...], expected: dict) -> None:
    assert score(sheet("rostov"), "raspasy", tricks=tricks) == entries(**expected)


def test_e18d_rostov_4p_dealer_pool() -> None:
    got = score(sheet("rostov", 4), "raspasy", tricks=(1, 3, 6, 0))
    assert got == entries(4, pool={D: 1}, whists={(A, B): 15, (A, C): 30})


def test_rostov_raspasy_zero_writeoff() -> None:
    """17.3: ``writeoff`` in whists mode is ``M -= k`` for the same seats as ``pool``."""
    s = sheet("rostov", 4, zero_trick_reward="writeoff")
    got = score(s, "raspasy", tricks=(0, 5, 5, 0))
    assert got == entries(4, mountain={A: -1, D: -1}, whists={(A, B): 25, (A, C): 25})


def test_17_3_played_rostov_raspasy_writeoff_four_players() -> None:
    """17.3, a deal played out: in whists-mode raspasy ``writeoff`` is ``M -= k`` for the
    active player who took no trick and for the 4-player dealer, as ``pool`` would be."""
    state = deal(RASPASY_HANDS, "AH 7D", players=4, dealer=D, variant="rostov",
                 zero_trick_reward="writeoff")
    act(state, "bid:pass", "bid:pass", "bid:pass")
    play_tricks(state, RASPASY_TRICKS)
    s = sheet("rostov", 4, first_dealer=D, zero_trick_reward="writeoff")
    assert s.add(state.result())["entries"] == entries(
        4, mountain={C: -1, D: -1}, whists={(C, A): 30, (C, B): 20})


@pytest.mark.parametrize(("variant", "charge"), [("sochi", 12), ("leningrad", 24)])
def test_e19_walkaway_no_whists(variant: str, charge: int) -> None:
    s = sheet(variant, walkaway="no_whists")
    got = score(s, "walkaway", declarer=A, contract="7S")
    assert got == entries(mountain={A: charge})


def test_walkaway_with_consolation_4p() -> None:
    s = sheet("sochi", 4, walkaway="with_consolation")
    got = score(s, "walkaway", declarer=A, contract="7S", talon=("AS", "AD"))
    # down three at 7: 3·4 mountain; B, C and the dealer 3·s(7) = 12; no talon premium
    assert got == entries(4, mountain={A: 12}, whists={(B, A): 12, (C, A): 12, (D, A): 12})


def test_e20_checked_ten_failed() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="10NT", tricks=(9, 1, 0), checked=True)
    assert got == entries(mountain={A: 20}, whists={(B, A): 20, (C, A): 20})


def test_e20_checked_ten_made() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="10NT", tricks=(10, 0, 0), checked=True)
    assert got == entries(pool={A: 10})


def test_whisted_ten_failed_whist() -> None:
    """Sochi whists the ten (O = 1): a lone whister without a trick pays f(10) = 10."""
    got = score(sheet("sochi"), declarer=A, contract="10S", tricks=(10, 0, 0), whisters=(B,))
    assert got == entries(pool={A: 10}, mountain={B: 10})


def test_gentleman_passer_writes_only_when_the_declarer_fails() -> None:
    got = score(sheet("leningrad"), declarer=A, contract="6S", tricks=(7, 2, 1), whisters=(B,))
    # made: the lone whister writes the side's 3 tricks at w = 4 and answers for the 4th
    assert got == entries(pool={A: 2}, mountain={B: 2}, whists={(B, A): 12})
