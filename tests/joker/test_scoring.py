"""Deal points (spec 18.1), the pulka premium (18.5, 18.6), totals and settlement."""

from __future__ import annotations

import pytest

from engine.joker import Rules, Scoresheet
from engine.joker.result import DealResult
from engine.joker.scoring import deal_points, premium, settlement

# (options, pulka, N, bid, taken, points): spec 18.1, every row.
DEAL_SCORES = [
    ({}, 1, 5, 0, 0, 50),
    ({}, 1, 5, 2, 2, 150),
    ({}, 1, 8, 7, 7, 400),
    ({}, 2, 9, 8, 8, 450),
    ({}, 1, 5, 5, 5, 500),
    ({}, 2, 9, 9, 9, 900),
    ({}, 1, 2, 2, 2, 200),
    ({}, 1, 1, 1, 1, 100),
    ({}, 1, 5, 3, 1, 10),
    ({}, 1, 5, 3, 4, 40),
    ({}, 2, 9, 8, 9, 90),
    ({}, 1, 5, 0, 2, 20),
    ({}, 1, 5, 3, 0, -200),
    ({}, 2, 9, 1, 0, -200),
    ({"khishti": "per_pulka"}, 2, 9, 1, 0, -500),
    ({"khishti": "per_pulka"}, 4, 9, 1, 0, -500),
    ({"khishti": "per_pulka"}, 1, 4, 1, 0, -200),
    ({"khishti": "per_pulka"}, 3, 4, 1, 0, -200),
    ({"khishti": "dynamic"}, 1, 5, 3, 0, -500),
    ({"khishti": 900}, 1, 5, 3, 0, -900),
    ({"scoring": "negative"}, 1, 6, 4, 4, 400),
    ({"scoring": "negative"}, 1, 6, 4, 2, -200),
    ({"scoring": "negative"}, 1, 6, 4, 0, -400),
    ({"scoring": "negative"}, 1, 6, 6, 6, 600),
    ({"scoring": "negative"}, 1, 6, 0, 0, 50),
    ({"scoring": "negative"}, 1, 6, 2, 3, 30),
    ({"scoring": "negative"}, 1, 6, 0, 2, 20),
]


@pytest.mark.parametrize(("options", "pulka", "cards", "bid", "taken", "points"), DEAL_SCORES)
def test_deal_points(options, pulka, cards, bid, taken, points):
    assert deal_points(Rules.from_dict(options), pulka, cards, bid, taken) == points


# Spec 18.5: pulka 2, dealers A..D, bids (by seat) and tricks (by seat).
PULKA_2 = [
    (0, (2, 2, 3, 1), (3, 2, 3, 1), [30, 150, 200, 100]),
    (1, (3, 1, 4, 0), (5, 0, 4, 0), [50, -200, 250, 50]),
    (2, (0, 2, 5, 1), (1, 2, 5, 1), [10, 150, 300, 100]),
    (3, (2, 3, 2, 0), (2, 3, 2, 2), [150, 200, 150, 20]),
]


def play_pulka_2(options: dict) -> tuple[Scoresheet, list[list[int]]]:
    """A standard game whose first dealer is A: pulka 1 all passes made, then 18.5's pulka."""
    sheet = Scoresheet(Rules.from_dict(options), 0)
    for _ in range(8):
        ctx = sheet.next_context()
        tricks = (ctx.cards, 0, 0, 0)
        sheet.add(DealResult(ctx.number, ctx.pulka, ctx.cards, ctx.dealer, "H", (0,) * 4, tricks))
    outputs = []
    for dealer, bids, tricks, _ in PULKA_2:
        ctx = sheet.next_context()
        assert (ctx.number, ctx.pulka, ctx.cards, ctx.dealer) == (9 + dealer, 2, 9, dealer)
        assert ctx.trump_mode == "chooser"
        result = DealResult(ctx.number, 2, 9, dealer, "NT", bids, tricks)
        outputs.append(sheet.add(result)["points"])
    return sheet, outputs


def test_worked_pulka_with_premium():
    sheet, points = play_pulka_2({})
    assert points == [row[3] for row in PULKA_2]
    pulka = sheet.pulkas()[1]
    assert pulka == {"sums": [240, 300, 900, 270], "premium": [-150, -200, 300, -100],
                     "totals": [90, 100, 1200, 170]}


@pytest.mark.parametrize(("options", "totals"), [
    ({"premium_excludes_last_deal": True}, [190, 150, 1200, 170]),
    ({"khishti": "per_pulka"}, [90, -200, 1200, 170]),
    ({"premium_penalty_basis": "exact_only"}, [90, 100, 1200, 170]),
    ({"premium": False}, [240, 300, 900, 270]),
])
def test_worked_pulka_options(options, totals):
    sheet, _ = play_pulka_2(options)
    assert sheet.pulkas()[1]["totals"] == totals


def test_per_pulka_khishti_changes_only_the_deal():
    _, points = play_pulka_2({"khishti": "per_pulka"})
    assert points[1] == [50, -500, 250, 50]


def test_pulka_one_premium_for_everyone_who_made_every_bid():
    sheet, _ = play_pulka_2({})
    # In pulka 1 seat 0 took every trick with a pass bid, the others passed and took none.
    assert sheet.pulkas()[0]["premium"] == [0, 50, 50, 50]
    assert sheet.pulkas()[0]["sums"] == [sum(10 * n for n in range(1, 9)), 400, 400, 400]


def test_report_totals_and_settlement():
    sheet, _ = play_pulka_2({})
    report = sheet.report()
    assert report["complete"] is False
    assert len(report["pulkas"]) == 2
    totals = [p1 + p2 for p1, p2 in zip(report["pulkas"][0]["totals"],
                                        report["pulkas"][1]["totals"], strict=True)]
    assert report["sheet"] == {"totals": totals}
    assert report["settlement"] == [4 * t - sum(totals) for t in totals]
    assert sum(report["settlement"]) == 0


def test_settlement_of_the_worked_example():
    assert settlement([90, 100, 1200, 170]) == [-1200, -1160, 3240, -880]


# Spec 18.6: A and B exact in every deal, C and D not.
TWO_ON_PREMIUM = [[100, 50, 20, -200], [150, 100, 150, 50], [200, 100, 10, 10], [150, 250, 30, 100]]
TWO_EXACT = [[True, True, False, False], [True, True, True, True], [True, True, False, True],
             [True, True, False, True]]


def test_two_players_on_premium():
    assert premium(Rules(), TWO_ON_PREMIUM, TWO_EXACT) == [200, 250, 0, 0]


def test_two_on_premium_with_multi_premium_penalises():
    rules = Rules.from_dict({"multi_premium_penalises": True})
    assert premium(rules, TWO_ON_PREMIUM, TWO_EXACT) == [200, 250, -150, -100]


def test_nobody_on_premium():
    exact = [[False] * 4] + [[True] * 4] * 3
    assert premium(Rules(), TWO_ON_PREMIUM, exact) == [0, 0, 0, 0]


def test_khishti_breaks_the_premium_and_best_is_never_negative():
    points = [[-200, 50, 50, 50], [-200, 50, 50, 50]]
    exact = [[False, True, True, True], [False, True, True, True]]
    # Three on premium: each adds their best; the loser's best would be 0 anyway.
    rules = Rules.from_dict({"multi_premium_penalises": True})
    assert premium(rules, points, exact) == [0, 50, 50, 50]


def test_exact_only_with_excluded_last_deal():
    # Seat 1's only exact deal is the last: both filters leave nothing, best 0 (18.7.7).
    points = [[100, 300], [150, 20], [100, 150]]
    exact = [[True, False], [True, False], [True, True]]
    rules = Rules.from_dict({"players": 2, "premium_penalty_basis": "exact_only",
                             "premium_excludes_last_deal": True})
    assert premium(rules, points, exact) == [150, 0]
    assert premium(Rules.from_dict({"players": 2}), points, exact) == [150, -300]


def test_pairs_partner_of_premium_player_loses_nothing():
    points = [[100, 200, 300, 150]] * 2
    exact = [[True, False, False, False]] * 2
    assert premium(Rules.from_dict({"pairs": True}), points, exact) == [100, -200, 0, -150]
    assert premium(Rules(), points, exact) == [100, -200, -300, -150]
    both_teams = [[True, True, False, False]] * 2
    rules = Rules.from_dict({"pairs": True, "multi_premium_penalises": True})
    assert premium(rules, points, both_teams) == [100, 200, 0, 0]


def test_pairs_team_totals():
    sheet = Scoresheet(Rules.from_dict({"pairs": True, "schedule": "short"}), 0)
    ctx = sheet.next_context()
    sheet.add(DealResult(1, 1, 9, ctx.dealer, "H", (2, 3, 1, 0), (2, 3, 1, 3)))
    report = sheet.report()
    assert report["sheet"] == {"totals": [150, 200, 100, 30], "teams": [250, 230]}


def test_three_players_one_on_premium_the_other_two_lose_their_best():
    points = [[150, 100, 30], [100, -200, 200]]
    exact = [[True, True, False], [True, False, True]]
    assert premium(Rules.from_dict({"players": 3}), points, exact) == [150, -100, -200]


def test_unfinished_pulka_has_no_premium():
    sheet = Scoresheet(Rules(), 0)
    ctx = sheet.next_context()
    sheet.add(DealResult(1, 1, 1, ctx.dealer, "H", (1, 0, 0, 0), (1, 0, 0, 0)))
    assert sheet.pulkas() == [{"sums": [100, 50, 50, 50], "premium": [0, 0, 0, 0],
                               "totals": [100, 50, 50, 50]}]


def test_schedule_dealers_and_sizes():
    sheet = Scoresheet(Rules(), 2)
    sizes = []
    for k in range(24):
        ctx = sheet.next_context()
        assert ctx.number == k + 1 and ctx.dealer == (2 + k) % 4
        sizes.append((ctx.pulka, ctx.cards, ctx.trump_mode))
        sheet.add(DealResult(ctx.number, ctx.pulka, ctx.cards, ctx.dealer, "NT", (0,) * 4,
                             (ctx.cards, 0, 0, 0)))
    assert [c for _, c, _ in sizes] == [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9]
    assert [p for p, _, _ in sizes] == [1] * 8 + [2] * 4 + [3] * 8 + [4] * 4
    assert {m for _, c, m in sizes if c == 9} == {"chooser"}
    assert {m for _, c, m in sizes if c < 9} == {"turn_up"}
    assert sheet.complete and len(sheet.report()["pulkas"]) == 4


@pytest.mark.parametrize(("schedule", "deals"), [("nines", 16), ("short", 8)])
def test_other_schedules(schedule, deals):
    sheet = Scoresheet(Rules.from_dict({"schedule": schedule}), 0)
    for _ in range(deals):
        ctx = sheet.next_context()
        assert ctx.cards == 9
        sheet.add(DealResult(ctx.number, ctx.pulka, 9, ctx.dealer, "NT", (0,) * 4, (9, 0, 0, 0)))
    assert sheet.complete
    assert len(sheet.pulkas()) == deals // 4


def test_passes_are_counted_for_the_pass_limit():
    sheet = Scoresheet(Rules.from_dict({"pass_limit": 2}), 0)
    ctx = sheet.next_context()
    sheet.add(DealResult(1, 1, 1, ctx.dealer, "H", (0, 1, 0, 0), (0, 1, 0, 0)))
    assert sheet.next_context().passes == (1, 0, 1, 1)
