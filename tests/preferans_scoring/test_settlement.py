"""Spec section 12 and S1-S4: the settlement, its rounding and the sheet-document calculator."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction as F
from typing import Any

import pytest

from engine.__main__ import main
from engine.base import RecordError
from engine.preferans.rules import Rules
from engine.preferans.scoring import settle_document
from engine.preferans.settlement import settle
from tests.preferans_scoring.helpers import A, B, C, score, sheet

S1 = {"rules": {"variant": "sochi", "pool": 10},
      "sheet": {"pool": [10, 10, 10], "mountain": [10, 4, 21],
                "whists": [[0, 30, 12], [8, 0, 40], [16, 6, 0]]}}
S2 = {"rules": {"variant": "leningrad", "pool": 20},
      "sheet": {"pool": [20, 14, 11], "mountain": [36, 20, 8],
                "whists": [[0, 40, 24], [60, 0, 12], [100, 32, 0]]}}
S3 = {"rules": {"variant": "sochi", "players": 4, "pool": 10},
      "sheet": {"pool": [10, 10, 10, 10], "mountain": [7, 0, 3, 12],
                "whists": [[0, 10, 0, 0], [0, 0, 0, 24], [6, 0, 0, 0], [0, 0, 12, 0]]}}
S4 = {"rules": {"variant": "leningrad", "pool": 30},
      "sheet": {"pool": [14, 26, 10], "mountain": [38, 41, 28],
                "whists": [[0, 148, 10], [28, 0, 0], [46, 94, 0]]}}


def _exact(doc: dict[str, Any]) -> list[F]:
    rules = Rules.from_dict(doc["rules"])
    return settle(rules, doc["sheet"]["pool"], doc["sheet"]["mountain"], doc["sheet"]["whists"])


def _settle(doc: dict[str, Any], **rules: Any) -> list[int | float]:
    return settle_document({"game": "preferans", **doc, "rules": {**doc["rules"], **rules}})


@pytest.mark.parametrize(
    ("doc", "exact", "shown", "integer"),
    [
        (S1, [F(104, 3), F(266, 3), F(-370, 3)], [34.67, 88.67, -123.33], [35, 89, -124]),
        (S2, [F(-428, 3), F(-20, 3), F(448, 3)], [-142.67, -6.67, 149.33], [-142, -7, 149]),
        (S3, [-11, 69, 19, -77], [-11, 69, 19, -77], [-11, 69, 19, -77]),
        (S4, [F(22, 3), F(-242, 3), F(220, 3)], [7.33, -80.67, 73.33], [8, -81, 73]),
    ],
    ids=["S1", "S2", "S3", "S4"],
)
def test_settlement_examples(doc: dict, exact: list, shown: list, integer: list) -> None:
    assert _exact(doc) == exact
    assert sum(_exact(doc)) == 0
    assert _settle(doc) == shown
    assert _settle(doc, settlement_rounding="integer") == integer
    assert all(type(v) is int for v in _settle(doc, settlement_rounding="integer"))


def test_s3_pairwise_form() -> None:
    """12.1: x's net against y is (W(x→y) − W(y→x)) + 10·(M'[y] − M'[x])/N."""
    w, m, n = S3["sheet"]["whists"], S3["sheet"]["mountain"], 4
    pair = [[w[x][y] - w[y][x] + F(10 * (m[y] - m[x]), n) for y in range(n)] for x in range(n)]
    assert [sum(row) for row in pair] == _exact(S3)
    assert pair[1][3] == 54 and pair[1][0] == F(15, 2) and pair[1][2] == F(15, 2)


@pytest.mark.parametrize("target", [26, 30, 50])
def test_s4_any_target_gives_the_same_balances(target: int) -> None:
    assert _settle(S4, pool=target) == [7.33, -80.67, 73.33]


def test_divisible_by_n() -> None:
    # S1: ΣM' = 35, remainder 2 with 3 players: seat 0's mountain 10 → 11, he writes
    # 3 on each of the others. μ = 12; G 10, 80, −90; V 18 + 6, 12 − 3, −30 − 3.
    assert _settle(S1, settlement_rounding="divisible_by_n") == [34, 89, -123]
    # S2: M' 36, 32, 26, ΣM' = 94, remainder 1: seat 0 → 35, the others write 3 on him.
    # μ = 31; G −40, −10, 50; V −96 − 6, 0 + 3, 96 + 3.
    assert _settle(S2, settlement_rounding="divisible_by_n") == [-142, -7, 149]
    # S3 divides already (22 = 4·5 + 2: remainder 2 with 4 players changes nothing).
    assert _settle(S3, settlement_rounding="divisible_by_n") == [-11, 69, 19, -77]


def test_four_players_remainder_one_and_three() -> None:
    doc = {"rules": {"variant": "sochi", "players": 4, "pool": 10},
           "sheet": {"pool": [10] * 4, "mountain": [1, 0, 0, 0],
                     "whists": [[0] * 4 for _ in range(4)]}}
    assert _settle(doc) == [-7.5, 2.5, 2.5, 2.5]
    # remainder 1: seat 0's mountain → 0, the others write 3 on him
    assert _settle(doc, settlement_rounding="divisible_by_n") == [-9, 3, 3, 3]
    doc["sheet"]["mountain"] = [0, 1, 1, 1]
    # remainder 3: seat 0's mountain → 1, he writes 3 on each: all mountains equal
    assert _settle(doc, settlement_rounding="divisible_by_n") == [9, -3, -3, -3]


def test_integer_rounding_quarters() -> None:
    doc = {"rules": {"variant": "sochi", "players": 4, "pool": 10},
           "sheet": {"pool": [10] * 4, "mountain": [1, 0, 0, 0],
                     "whists": [[0] * 4 for _ in range(4)]}}
    # −7.5, 2.5, 2.5, 2.5: floors −8, 2, 2, 2 (sum −2); fractions all .5: +1 to seats 0, 1
    assert _settle(doc, settlement_rounding="integer") == [-7, 3, 2, 2]


def test_early_stop_settlement_of_a_running_sheet() -> None:
    s = sheet("leningrad", pool=20)
    score(s, declarer=A, contract="7H", tricks=(6, 3, 1), whisters=(B,))  # E3
    # Missing pool 20 each, ×2: M' A 8 + 40 = 48, B 40, C 40; μ = 128/3.
    # G: A 10·(128/3 − 48) = −160/3, B and C 10·(128/3 − 40) = 80/3.
    # V: A −(24 + 16) = −40, B 24, C 16.
    assert s.settlement() == [F(-280, 3), F(152, 3), F(128, 3)]
    assert s.report()["settlement"] == [-93.33, 50.67, 42.67]


def test_pool_overflow_keep_counts_pool_above_the_target() -> None:
    doc = {"rules": {"variant": "sochi", "pool": 10, "pool_overflow": "keep"},
           "sheet": {"pool": [14, 10, 6], "mountain": [0, 0, 0],
                     "whists": [[0] * 3 for _ in range(3)]}}
    # M' −4, 0, 4: μ = 0: G 40, 0, −40
    assert _settle(doc) == [40, 0, -40]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "seep"}, "game"),
        ({"extra": 1}, "unknown key"),
        ({"rules": {"variant": "moscow"}}, "variant"),
        ({"rules": {"pool": 10, "colour": "red"}}, "unknown rules option"),
        ({"rules": {"settlement_rounding": "banker"}}, "settlement_rounding"),
        ({"players": ["A", "B"]}, "players"),
        ({"sheet": {"pool": [10, 10, 10], "mountain": [0, 0, 0]}}, "sheet must be"),
        ({"sheet": {"pool": [10, 10], "mountain": [0, 0, 0],
                    "whists": [[0] * 3] * 3}}, "sheet.pool"),
        ({"sheet": {"pool": [10, 10, 10], "mountain": [0, 0.5, 0],
                    "whists": [[0] * 3] * 3}}, "sheet.mountain"),
        ({"sheet": {"pool": [10, True, 10], "mountain": [0, 0, 0],
                    "whists": [[0] * 3] * 3}}, "sheet.pool"),
        ({"sheet": {"pool": [10, 11, 10], "mountain": [0, 0, 0],
                    "whists": [[0] * 3] * 3}}, "above the target"),
        ({"sheet": {"pool": [10, -1, 10], "mountain": [0, 0, 0],
                    "whists": [[0] * 3] * 3}}, "negative"),
        ({"sheet": {"pool": [10, 10, 10], "mountain": [0, 0, 0],
                    "whists": [[0, 1, 0], [0, 0, -2], [0, 0, 0]]}}, "negative"),
        ({"sheet": {"pool": [10, 10, 10], "mountain": [0, 0, 0],
                    "whists": [[5, 0, 0], [0, 0, 0], [0, 0, 0]]}}, "himself"),
        ({"sheet": {"pool": [10, 10, 10], "mountain": [0, 0, 0],
                    "whists": [[0, 0, 0], [0, 0], [0, 0, 0]]}}, "sheet.whists[1]"),
    ],
)
def test_bad_sheet_documents(change: dict[str, Any], message: str) -> None:
    doc = {"game": "preferans", **S1, "players": ["A", "B", "C"], **change}
    with pytest.raises(RecordError, match=re.escape(message)):
        settle_document(doc)


def test_settle_command(tmp_path: Any) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({"game": "preferans", "players": ["E", "S", "W"], **S4}))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["settle", str(path)]) == 0
    assert json.loads(out.getvalue()) == [7.33, -80.67, 73.33]
    path.write_text(json.dumps({"game": "preferans", **S4, "rules": {"variant": "leningrad",
                                                                      "pool": 20}}))
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        assert main(["settle", str(path)]) == 2
    assert err.getvalue().count("\n") == 1 and "above the target 20" in err.getvalue()


def test_running_sheet_settles_like_its_document() -> None:
    s = sheet("sochi")
    score(s, declarer=A, contract="7H", tricks=(6, 3, 1), whisters=(B,))
    score(s, "raspasy", tricks=(2, 3, 5))
    score(s, declarer=C, contract="6S", tricks=(3, 1, 6), whisters=(A, B))
    doc = {"game": "preferans", "rules": {"variant": "sochi"}, "sheet": s.report()["sheet"]}
    assert settle_document(doc) == s.report()["settlement"]
