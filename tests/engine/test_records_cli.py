"""`python -m engine replay|deal|settle`: the output document, and one line + exit 2 for
anything malformed or illegal (records.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import play_random
from engine.records import replay


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin,
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play_random("preferans", 11, 6, play=True)


def test_replay_prints_the_document(record: dict[str, Any]) -> None:
    done = run("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["game"] == "preferans" and len(doc["deals"]) == len(record["deals"])
    assert set(doc) >= {"complete", "deals", "sheet", "settlement"}
    assert sum(doc["settlement"]) == pytest.approx(0, abs=0.02)
    for deal in doc["deals"]:
        assert set(deal) >= {"dealer", "kind", "contract", "declarer", "tricks", "entries"}


def test_deal_prints_a_skeleton_with_explicit_hands() -> None:
    done = run("deal", "--game", "preferans", "--seed", "5")
    skeleton = json.loads(done.stdout)
    deal = skeleton["deals"][0]
    assert deal["actions"] == [] and len(deal["talon"]) == 2
    assert sorted(len(h) for h in deal["hands"]) == [10, 10, 10]
    assert run("replay", "-", stdin=done.stdout).returncode == 0  # unfinished is fine


def _broken(record: dict[str, Any], change: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    change(copy)
    return copy


def _illegal_play(record: dict[str, Any]) -> None:
    """The first card play of deal 0 becomes a card its player does not hold."""
    deal = record["deals"][0]
    for action in deal["actions"]:
        if "play" in action:
            held = set(deal["hands"][action["seat"]])
            action["play"] = next(c for h in deal["hands"] for c in h if c not in held)
            return
    raise AssertionError("no card play in deal 0")


@pytest.mark.parametrize(("change", "expected"), [
    (lambda r: r.update(game="poker"), "unknown game"),
    (lambda r: r["rules"].update(pool="ten"), "pool"),
    (lambda r: r["rules"].update(nonsense=True), "unknown rules option"),
    (lambda r: r.update(players=["A", "B"]), "players"),
    (lambda r: r["deals"][0]["hands"][0].pop(), "deal 0"),
    (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "1X"), "deal 0"),
    (lambda r: r["deals"][1].update(dealer=(r["deals"][1]["dealer"] + 1) % 3), "deal 1"),
    (lambda r: r["deals"][0]["actions"].insert(0, {"seat": 0, "bid": "11S"}), "deal 0, action 0"),
    (lambda r: r["deals"][0]["actions"].insert(0, {"seat": 9, "bid": "pass"}),
     "deal 0, action 0"),
    (lambda r: r["deals"][0]["actions"].insert(0, {"seat": 0, "fold": True}), "deal 0, action 0"),
    (_illegal_play, "deal 0, action"),
])
def test_bad_records_exit_2_with_one_line(record: dict[str, Any], change: Any,
                                          expected: str) -> None:
    done = run("replay", "-", stdin=json.dumps(_broken(record, change)))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], done.stderr


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"game": "preferans"}'])
def test_malformed_documents(text: str) -> None:
    done = run("replay", "-", stdin=text)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_missing_file() -> None:
    done = run("replay", "/nonexistent/record.json")
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_settle_a_paper_sheet() -> None:
    sheet = {"game": "preferans", "rules": {"variant": "leningrad", "players": 3, "pool": 30},
             "players": ["E", "S", "W"],
             "sheet": {"pool": [14, 26, 10], "mountain": [38, 41, 28],
                       "whists": [[0, 148, 10], [28, 0, 0], [46, 94, 0]]}}
    done = run("settle", "-", stdin=json.dumps(sheet))
    assert json.loads(done.stdout) == [7.33, -80.67, 73.33]  # spec S4, exact
    sheet["sheet"]["pool"] = [14, 26]
    assert run("settle", "-", stdin=json.dumps(sheet)).returncode == 2


RECORDS = Path(__file__).parent.parent / "records"


@pytest.mark.parametrize("players", [3, 4])
def test_random_rostov_records_replay_identically(players: int) -> None:
    """`deal --play random` records of Rostov (raspasy without the talon) replay to the same
    document through the command line and in process, and the record round-trips."""
    rules = json.dumps({"variant": "rostov", "players": players, "pool": 20})
    dealt = run("deal", "--game", "preferans", "--seed", "14", "--play", "random",
                "--deals", "40", "--rules", rules)
    assert dealt.returncode == 0, dealt.stderr
    record = json.loads(dealt.stdout)
    done = run("replay", "-", stdin=dealt.stdout)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc == replay(record).report()
    assert replay(record).record() == record
    assert sum(d["kind"] == "raspasy" for d in doc["deals"]) >= 3


def test_leningrad_checked_ten_trick_winners_in_replay() -> None:
    """A Leningrad checked 10♣ (spec 6.5, 7, E20): seat 1 trumps trick 1 and leads trick 2;
    the declarer takes the other nine, one down."""
    done = run("replay", str(RECORDS / "preferans_leningrad_checked_ten.json"))
    assert done.returncode == 0, done.stderr
    deal, = json.loads(done.stdout)["deals"]
    assert (deal["kind"], deal["contract"], deal["declarer"]) == ("game", "10C", 0)
    assert deal["tricks"] == [9, 1, 0]
    assert deal["entries"] == {"pool": [0, 0, 0], "mountain": [20, 0, 0],
                               "whists": [[0, 0, 0], [20, 0, 0], [20, 0, 0]]}
