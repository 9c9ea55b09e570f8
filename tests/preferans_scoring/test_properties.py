"""Hypothesis: random games of every variant and scoring option.

Pool and whist entries are never negative, a mountain entry is negative only
for a write-off (a raspasy zero, or help with nobody left to help), pools never
pass the target under help, the sheet is the sum of its deals, each deal's notes
(why each number was written) add up to its entries, settlements sum to zero at
every moment, and replaying the record gives the live game's sheet.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import get_game
from engine.match import Match
from engine.preferans.deal_entries import Note
from engine.preferans.rules import Rules
from engine.preferans.settlement import rounded, settle
from engine.records import replay

SPEC = get_game("preferans")

scoring_options = {
    "talon_premium": st.booleans(),
    "walkaway": st.sampled_from([False, "no_whists", "with_consolation"]),
    "ten_mode": st.sampled_from(["whisted", "checked"]),
    "whist_style": st.sampled_from(["greedy", "gentleman"]),
    "failed_whist_rate": st.sampled_from(["cost", "half_cost"]),
    "both_whist_shortfall": st.sampled_from(["own_half", "capped"]),
    "consolation_to_passer": st.booleans(),
    "consolation_to_dealer": st.booleans(),
    "consolation_rate": st.sampled_from(["contract", "flat10"]),
    "miser_consolation": st.booleans(),
    "sochi_progression": st.booleans(),
    "peter_third_state": st.sampled_from(["classic", "hard"]),
    "exit_needs_whist": st.booleans(),
    "zero_trick_reward": st.sampled_from(["writeoff", "pool", "none"]),
    "pool_overflow": st.sampled_from(["help", "keep"]),
    "help_rate": st.integers(0, 30),
    "settlement_rounding": st.sampled_from(["exact", "integer", "divisible_by_n"]),
}

rules_st = st.fixed_dictionaries(
    {"variant": st.sampled_from(["sochi", "leningrad", "rostov"]),
     "players": st.sampled_from([3, 4]),
     "pool": st.integers(1, 12)},
    optional=scoring_options,
)


def _play(rules: Rules, seed: int, deals: int) -> Match:
    rng = random.Random(seed)
    match = Match(SPEC, rules, [f"P{i}" for i in range(rules.players)],
                  rng.randrange(rules.players))
    for k in range(deals):
        if match.over:
            break
        match.start_deal(seed=f"{seed}/{k}")
        while match.in_deal:
            state = match.state
            assert state is not None
            seat = state.to_act[0]
            match.apply(seat, SPEC.random_action(state, seat, rng))
    return match


def _check_deal(rules: Rules, output: dict[str, Any], pools_after: list[int],
                complete: bool) -> None:
    e, n = output["entries"], rules.players
    assert all(p >= 0 for p in e["pool"])
    assert all(w >= 0 for row in e["whists"] for w in row)
    assert all(e["whists"][x][x] == 0 for x in range(n))
    if rules.pool_overflow == "help":
        assert all(p <= rules.pool for p in pools_after)
    for x, m in enumerate(e["mountain"]):
        if m < 0:
            raspasy_zero = (output["kind"] == "raspasy" and output["tricks"][x] == 0
                            and rules.zero_trick_reward == "writeoff")
            assert raspasy_zero or (rules.pool_overflow == "help" and complete), (x, output)


def _check_notes(output: dict[str, Any], notes: list[Note], n: int) -> None:
    """Every number the deal wrote has its reasons, and they add up to it."""
    noted: dict[str, Any] = {"pool": [0] * n, "mountain": [0] * n,
                             "whists": [[0] * n for _ in range(n)]}
    for note in notes:
        assert note.amount != 0 and note.reason in REASONS, note
        if note.where == "whists":
            assert note.target is not None and note.target != note.seat
            noted["whists"][note.seat][note.target] += note.amount
        else:
            noted[note.where][note.seat] += note.amount
    assert noted == output["entries"]


REASONS = {"contract", "down", "tricks", "halfwhist", "consolation", "failed_whist", "talon",
           "miser", "walkaway", "raspasy", "zero_tricks", "help", "written_off"}


@settings(max_examples=60, deadline=None)
@given(rules_st, st.integers(0, 10**6))
def test_random_games(data: dict[str, Any], seed: int) -> None:
    rules = Rules.from_dict(data)
    match = _play(rules, seed, 14)
    sheet = match.sheet
    n = rules.players
    totals: dict[str, Any] = {"pool": [0] * n, "mountain": [0] * n,
                              "whists": [[0] * n for _ in range(n)]}
    for i, output in enumerate(sheet.history):
        for key in ("pool", "mountain"):
            totals[key] = [a + b for a, b in zip(totals[key], output["entries"][key], strict=True)]
        totals["whists"] = [[a + b for a, b in zip(r, s, strict=True)]
                            for r, s in zip(totals["whists"], output["entries"]["whists"],
                                            strict=True)]
        closed = all(p >= rules.pool for p in totals["pool"])
        _check_deal(rules, output, totals["pool"], closed and i == len(sheet.history) - 1)
        _check_notes(output, [Note(**note) for note in sheet.notes[i]], n)
        balances = settle(rules, totals["pool"], totals["mountain"], totals["whists"])
        assert sum(balances) == 0
        assert sum(rounded(rules, balances)) == 0
    report = sheet.report()
    assert report["sheet"] == totals
    assert sum(sheet.settlement()) == 0
    assert abs(sum(report["settlement"])) < Fraction(1, 100) * n
    again = replay(match.record())
    assert again.report() == match.report()
    assert again.sheet.history == sheet.history
    assert again.sheet.notes == sheet.notes


sheet_st = st.integers(3, 4).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.integers(0, 30), min_size=n, max_size=n),
    st.lists(st.integers(-50, 300), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, 500), min_size=n, max_size=n), min_size=n, max_size=n),
))


@settings(max_examples=200, deadline=None)
@given(sheet_st, st.sampled_from(["sochi", "leningrad", "rostov"]),
       st.sampled_from(["exact", "integer", "divisible_by_n"]), st.integers(0, 20))
def test_settlement_sums_to_zero_and_ignores_the_target(
    sheet: tuple[int, list[int], list[int], list[list[int]]], variant: str, rounding: str,
    extra: int,
) -> None:
    n, pool, mountain, whists = sheet
    for x in range(n):
        whists[x][x] = 0
    rules = Rules.from_dict({"variant": variant, "players": n, "pool": 30,
                             "settlement_rounding": rounding})
    balances = settle(rules, pool, mountain, whists)
    assert sum(balances) == 0
    shown = rounded(rules, balances)
    assert sum(shown) == 0
    if rounding == "integer":
        assert all(s.denominator == 1 and abs(s - b) < 1 for s, b in zip(shown, balances,
                                                                          strict=True))
    # 17.6: any T gives the same balances (k·T is added to every M' and cancels)
    assert settle(rules.replace(pool=30 + extra), pool, mountain, whists) == balances
    # 12.1's pairwise form gives the same numbers
    if rounding != "divisible_by_n":
        k = rules.k
        mp = [m + k * (30 - p) for p, m in zip(pool, mountain, strict=True)]
        pairwise = [sum(whists[x][y] - whists[y][x] + Fraction(10 * (mp[y] - mp[x]), n)
                        for y in range(n)) for x in range(n)]
        assert pairwise == balances
