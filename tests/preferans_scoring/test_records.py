"""Whole short games (tests/records/preferans_*.json) replayed by `python -m engine`.

Each record was dealt and played by random legal play, then checked by hand
deal by deal; the comments give the arithmetic. Seats: A Ann, B Bob, C Cid, D Dan.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main
from engine.preferans.scoring import settle_document
from tests.preferans_scoring.helpers import A, B, C, D, entries

RECORDS = Path(__file__).parent.parent / "records"

# Sochi, 3 players, pool 4.
SOCHI = [
    # B 6♠ whisted by both, B takes 0: down 6 → mountain 2·6; C 2·6 + 2·6, A 2·4 + 2·6
    ("game", entries(mountain={B: 12}, whists={(A, B): 20, (C, B): 24})),
    # raspasy 6-3-1, r = 1: amnesty over 1
    ("raspasy", entries(mountain={A: 5, B: 2})),
    # C 9♣ takes 5, down 4: 8·4; B whists alone (greedy): side 5·8 + consolation 8·4
    ("game", entries(mountain={C: 32}, whists={(B, C): 72})),
    ("raspasy", entries(mountain={A: 5, C: 2})),  # 6-1-3
    ("game", entries(pool={C: 2})),  # C 6♠, both defenders pass
    # B misère made: +10 at pool 0 of 4: 4 own, excess 6: C (2) takes 2, then A (0) takes 4
    ("miser", entries(pool={A: 4, B: 4, C: 2}, whists={(B, A): 40, (B, C): 20})),
]

# Leningrad, 3 players, pool 4: states 1 → 2 → 1 → 2 → 3 → 3 → 3 → 3 → 1.
LENINGRAD = [
    # state 1 raspasy 5-0-5, r = 2: A, C 2·5; B took none: write-off 2·r
    ("raspasy", entries(mountain={A: 10, B: -4, C: 10})),
    # state 2 (opens 7♠): C 7♠, half-whist by B stands: pool 4, B writes 8·1; exits to 1
    ("game", entries(pool={C: 4}, whists={(B, C): 8})),
    ("raspasy", entries(mountain={B: 8})),  # state 1 again, r = 2: 2-6-2
    ("raspasy", entries(mountain={B: 12, C: 16})),  # state 2, r = 4: 1-4-5
    # state 3: A 8♠ takes 3, down 5: 2·6·5; B 12·5 + 12·5, C 12·2 + 12·5
    ("game", entries(mountain={A: 60}, whists={(B, A): 120, (C, A): 84})),
    # B 7♠ takes 6: 2·4; C 8·1 + 8, A 8·3 + 8
    ("game", entries(mountain={B: 8}, whists={(A, B): 32, (C, B): 16})),
    # C 7♣ passed: C is full (4): A and B tie at 0, A is first clockwise from C: 4·20
    ("game", entries(pool={A: 4}, whists={(C, A): 80})),
    # B 7♠ made, A whists alone (open), side 3·8; whisted and made: back to state 1
    ("game", entries(pool={B: 4}, whists={(A, B): 24})),
]

# Rostov, 3 players, pool 4.
ROSTOV = [
    # raspasy 6-4-0: C alone writes 5·6 on A, 5·4 on B, and +1 pool
    ("raspasy", entries(pool={C: 1}, whists={(C, A): 30, (C, B): 20})),
    # B 6♣ takes 0, down 6: 2·6; C 2·4 + 12, A 2·6 + 12
    ("game", entries(mountain={B: 12}, whists={(A, B): 24, (C, B): 20})),
    ("game", entries(pool={B: 2}, whists={(A, B): 6, (C, B): 2})),  # B 6♦ made, 3 and 1
    # B 10♦ passed: +10 at 2 of 4: 2 own, C (1) takes 3, A (0) takes 4, 1 written off
    ("game", entries(pool={A: 4, B: 2, C: 3}, mountain={B: -1},
                     whists={(B, A): 40, (B, C): 30})),
]

# Sochi, 4 players, pool 2 (the dealer sits out).
SOCHI_4P = [
    # dealer D; A 6♣, C's half-whist stands: C 2·2; talon A♦ A♠ (q = 3): D writes 3·2
    ("game", entries(4, pool={A: 2}, whists={(C, A): 4, (D, A): 6})),
    # dealer A took 0 with his talon cards: m = 0; A is never rewarded
    ("raspasy", entries(4, mountain={B: 5, C: 1, D: 4})),
    ("raspasy", entries(4, mountain={A: 1, C: 4, D: 5})),  # dealer B took 0
    ("miser", entries(4, mountain={B: 50})),  # B misère, 5 tricks
    # B 6♠ takes 4, down 2: 2·2; A half-whists, C returns (open): side 6·2 + 2·2;
    # A, a passer, gets no consolation; the dealer D 2·2
    ("game", entries(4, mountain={B: 4}, whists={(C, B): 16, (D, B): 4})),
    # D 9♣ passed: +8, full at 2, excess 6: B and C tie at 0 (A is full), B first
    # clockwise from D; 2 written off. Talon 7♣ A♣ (q = 1): dealer A writes 8.
    ("game", entries(4, pool={B: 2, C: 2, D: 2}, mountain={D: -2},
                     whists={(A, D): 8, (D, B): 20, (D, C): 20})),
]

CASES = {
    # M' 10, 14, 34 (μ 58/3); V −20, 88, −68
    "preferans_sochi.json": (SOCHI, [73.33, 141.33, -214.67]),
    # M' 70, 24, 26 (μ 40): G −300, 160, 140; V −228, 56, 172
    "preferans_leningrad.json": (LENINGRAD, [-528, 216, 312]),
    # M' 0, 11, 0 (μ 11/3): G 110/3, −220/3, 110/3; V −40, −2, 42
    "preferans_rostov.json": (ROSTOV, [-3.33, -75.33, 78.67]),
    # M' 1, 59, 5, 7 (μ 18): G 170, −410, 130, 110; V −2, −40, 0, 42
    "preferans_sochi_4p.json": (SOCHI_4P, [168, -450, 130, 152]),
}


def _run(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_prints_the_expected_sheet(name: str) -> None:
    deals, settlement = CASES[name]
    doc: dict[str, Any] = json.loads(_run("replay", str(RECORDS / name)))
    assert doc["complete"] is True
    assert [(d["kind"], d["entries"]) for d in doc["deals"]] == deals
    sheet = doc["sheet"]
    n = len(settlement)
    record = json.loads((RECORDS / name).read_text())
    assert sheet["pool"] == [record["rules"]["pool"]] * n  # every pool closed
    for key in ("pool", "mountain"):
        assert sheet[key] == [sum(e[key][x] for _, e in deals) for x in range(n)]
    assert sheet["whists"] == [
        [sum(e["whists"][x][y] for _, e in deals) for y in range(n)] for x in range(n)
    ]
    assert doc["settlement"] == settlement
    sheet_doc = {"game": "preferans", "rules": record["rules"], "sheet": sheet}
    assert settle_document(sheet_doc) == settlement


@pytest.mark.parametrize("name", sorted(CASES))
def test_sheet_text(name: str) -> None:
    text = _run("sheet", str(RECORDS / name))
    record = json.loads((RECORDS / name).read_text())
    assert "game over" in text
    _, settlement = CASES[name]
    for player, balance in zip(record["players"], settlement, strict=True):
        row = next(line for line in text.splitlines() if line.startswith(player))
        assert row.split()[-1] == f"{balance:+}"


def test_sheet_text_of_an_unfinished_game(tmp_path: Path) -> None:
    record = json.loads((RECORDS / "preferans_leningrad.json").read_text())
    record["deals"] = record["deals"][:2]
    record["deals"][1]["actions"] = record["deals"][1]["actions"][:2]  # mid-auction
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(record))
    lines = _run("sheet", str(path)).splitlines()
    assert lines[0] == "Preferans, Leningrad, 3 players, pool 4: 1 deal scored, in progress"
    assert lines[1] == "Raspasy state 2: bidding opens at 7♠"
    assert lines[-1] == "(a deal is in progress; it is not on the sheet yet)"
    # early stop after E16-like raspasy 5-0-5: M' 10 + 8, −4 + 8, 10 + 8 (μ 40/3)
    assert [line.split()[-1] for line in lines[4:7]] == ["-46.67", "+93.33", "-46.67"]
    doc = json.loads(_run("replay", str(path)))
    assert doc["complete"] is False and doc["deals"][1]["kind"] == "unfinished"
    assert doc["settlement"] == [-46.67, 93.33, -46.67]
