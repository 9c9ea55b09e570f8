"""Card points (16.2), deal scores, the bazzi ledger and dealers (16.3), and their options."""

from __future__ import annotations

import pytest

from engine.seep import Rules, Scoresheet
from engine.seep.result import DealResult
from engine.seep.scoring import deal_score
from engine.seep.values import points
from tests.seep.helpers import E, N, S, W, cards


@pytest.mark.parametrize(
    ("captured", "expected"),
    [("KS 10D AH 7C 9S", 29), ("AS AC AD AH 10D", 10),
     ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 91), ("JH QH KH 10C 10H", 0)],
)
def test_card_points_16_2(captured: str, expected: int) -> None:
    assert sum(points(c, 6) for c in cards(captured)) == expected


def test_the_pack_holds_100_points_or_96_with_a_two_point_ten() -> None:
    from engine.seep.pack import seep_deck

    assert sum(points(c, 6) for c in seep_deck()) == 100
    assert sum(points(c, 2) for c in seep_deck()) == 96


def result(dealer: int, cp: tuple[int, int], ns=(0, 0, 0), ew=(0, 0, 0), rules=None,
           counts=(26, 26)) -> DealResult:
    bidder = (rules or Rules()).next_seat(dealer)
    return DealResult(dealer, bidder, 13, cp, counts, (ns, ew))


# Spec 16.3: (dealer, card points, NS sweeps, EW sweeps) -> (score, lead, bazzi, reason)
LEDGER = [
    (S, (62, 38), (1, 0, 0), (0, 1, 0), [112, 63], 49, None, None),
    (E, (30, 70), (0, 0, 0), (1, 0, 1), [30, 120], -41, None, None),
    (N, (88, 12), (2, 0, 0), (0, 0, 0), [188, 12], 0, "NS", "lead"),
    (E, (95, 5), (0, 0, 0), (0, 0, 0), [95, 5], 0, "NS", "under9"),
    (W, (3, 97), (1, 0, 0), (0, 0, 0), [53, 97], -44, None, None),
    (S, (60, 40), (0, 0, 0), (0, 0, 0), [60, 40], -24, None, None),
]


def test_ledger_and_dealers_16_3() -> None:
    rules = Rules(bazzis=3)
    sheet = Scoresheet(rules, S)
    for dealer, cp, ns, ew, score, lead, bazzi, reason in LEDGER:
        assert sheet.next_context().dealer == dealer
        out = sheet.add(result(dealer, cp, ns, ew))
        assert (out["score"], out["lead"], out["bazzi"], out["reason"]) == (score, lead, bazzi,
                                                                           reason)
        assert out["card_points"] == list(cp) and out["sweeps"] == [list(ns), list(ew)]
    assert sheet.next_context().dealer == S  # S deals D7
    assert sheet.report() == {"complete": False, "sheet": {"bazzis": [2, 0], "lead": -24},
                              "settlement": [2, -2, 2, -2]}


def test_d5_with_under_nine_on_card_points() -> None:
    sheet = Scoresheet(Rules(under_nine_counts="cards"), W)
    out = sheet.add(result(W, (3, 97), (1, 0, 0)))
    assert (out["score"], out["bazzi"], out["reason"], out["lead"]) == ([53, 97], "EW", "under9",
                                                                        0)
    assert sheet.complete and sheet.settlement() == [-1, 1, -1, 1]


def test_under_nine_counts_sweeps_by_default() -> None:
    sheet = Scoresheet(Rules(), N)
    out = sheet.add(result(N, (5, 95), (1, 0, 0)))
    assert out["bazzi"] is None and out["lead"] == 55 - 95


def test_void_deal_changes_nothing_and_the_same_dealer_deals() -> None:
    sheet = Scoresheet(Rules(dealer_rotation="simple"), E)
    sheet.add(result(E, (70, 30)))
    assert sheet.dealer == N
    out = sheet.add(DealResult(N, W))
    assert out == {"dealer": N, "bidder": W, "bid": None, "card_points": [0, 0],
                   "sweeps": [[0, 0, 0], [0, 0, 0]], "score": [0, 0], "lead": 40, "bazzi": None,
                   "reason": None}
    assert sheet.dealer == N and sheet.lead == 40


def test_simple_rotation_passes_the_deal_to_the_right() -> None:
    sheet = Scoresheet(Rules(dealer_rotation="simple"), S)
    dealers = []
    for _ in range(5):
        dealers.append(sheet.dealer)
        sheet.add(result(sheet.dealer, (40, 60)))
    assert dealers == [S, E, N, W, S]


def test_level_lead_keeps_the_dealer() -> None:
    sheet = Scoresheet(Rules(), E)
    sheet.add(result(E, (50, 50)))
    assert sheet.dealer == E and sheet.lead == 0


def test_overflow_discarded_or_carried() -> None:
    discard = Scoresheet(Rules(), N)
    carry = Scoresheet(Rules(bazzi_overflow="carry", bazzis=3), N)
    for sheet in (discard, carry):
        sheet.add(result(N, (90, 10), (1, 0, 0)))  # 140 - 10 = +130
    assert discard.lead == 0 and discard.bazzis == [1, 0]
    assert carry.lead == 30 and carry.bazzis == [1, 0]
    out = carry.add(result(carry.dealer, (10, 90), (0, 0, 0), (4, 0, 0)))  # 10 - 290
    assert out["lead"] == 30 - 280 + 100 and out["bazzi"] == "EW"  # one bazzi per deal at most
    out = carry.add(result(carry.dealer, (50, 50)))
    assert out["lead"] == -50 and out["bazzi"] == "EW" and carry.complete


def test_carry_after_under_nine_resets_the_lead() -> None:
    sheet = Scoresheet(Rules(bazzi_overflow="carry", bazzis=2), N)
    sheet.add(result(N, (70, 30)))
    out = sheet.add(result(sheet.dealer, (95, 5)))
    assert out["lead"] == 0 and out["reason"] == "under9"


def test_ten_of_diamonds_two_and_majority_bonus() -> None:
    rules = Rules(ten_of_diamonds_points=2, majority_bonus=4)
    assert deal_score(rules, result(N, (60, 36), counts=(30, 22))) == (64, 36)
    assert deal_score(rules, result(N, (60, 36), counts=(26, 26))) == (62, 38)
    assert deal_score(rules, result(N, (60, 36), counts=(20, 32))) == (60, 40)


def test_majority_bonus_is_not_card_points_for_under_nine() -> None:
    rules = Rules(majority_bonus=4, under_nine_counts="cards")
    out = Scoresheet(rules, N).add(result(N, (95, 5), counts=(20, 32)))
    assert out["score"] == [95, 9] and out["reason"] == "under9"
    out = Scoresheet(rules.replace(under_nine_counts="score"), N).add(
        result(N, (95, 5), counts=(20, 32)))
    assert out["score"] == [95, 9] and out["bazzi"] is None


def test_first_play_sweep_worth_50_by_option() -> None:
    rules = Rules(first_play_sweep_points=50)
    assert deal_score(rules, result(N, (50, 50), (0, 1, 0), (1, 0, 1))) == (100, 100)


def test_two_players_behind_deals_and_after_a_bazzi_the_same() -> None:
    rules = Rules(players=2, bazzi_target=200, bazzis=2)
    sheet = Scoresheet(rules, 0)
    sheet.add(result(0, (70, 30), rules=rules))  # seat 0 ahead: seat 1 deals
    assert sheet.dealer == 1
    sheet.add(result(1, (30, 70), rules=rules))  # level: the same dealer
    assert sheet.dealer == 1 and sheet.lead == 0
    out = sheet.add(result(1, (95, 5), rules=rules))
    assert out["bazzi"] == 0 and sheet.dealer == 1
    assert sheet.report() == {"complete": False, "sheet": {"bazzis": [1, 0], "lead": 0},
                              "settlement": [1, -1]}


@pytest.mark.parametrize(("dealer", "cp", "winner", "reason"), [
    (0, (100, 0), 0, "under9"),  # the dealer's side would be ahead: section 11 would pass
    (0, (0, 100), 1, "under9"),
    (1, (100, 0), 0, "under9"),
    (0, (80, 20), 0, "lead"),  # the dealer wins by the lead: still the same dealer
    (1, (20, 80), 1, "lead"),
    (1, (80, 20), 0, "lead"),
])
def test_16_4_13_two_players_after_a_bazzi_the_same_dealer_deals(
        dealer: int, cp: tuple[int, int], winner: int, reason: str) -> None:
    """16.4.13: with two players the ledger is level after a bazzi, so the dealer of the deal
    that ended it deals again, however it ended (there is no partner to pass it to)."""
    rules = Rules(players=2, bazzi_target=50, bazzis=3)
    sheet = Scoresheet(rules, dealer)
    out = sheet.add(result(dealer, cp, rules=rules))
    assert (out["bazzi"], out["reason"], out["lead"]) == (winner, reason, 0)
    assert sheet.dealer == dealer
