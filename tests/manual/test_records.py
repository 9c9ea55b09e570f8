"""A scorekept game exports and replays like any game: `python -m engine replay` agrees."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main, play_random
from engine.manual import add_entry, form_for
from engine.match import Match
from engine.records import replay
from tests.manual.helpers import match, random_game


def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str,
        record: dict[str, Any]) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


GAMES = [
    ("preferans", {"variant": "sochi", "pool": 10}),
    ("preferans", {"variant": "leningrad", "players": 4, "pool": 10, "walkaway": "no_whists"}),
    ("preferans", {"variant": "rostov", "pool": 6, "stalingrad": True}),
    ("joker", {}),
    ("joker", {"players": 3, "schedule": "nines", "pass_limit": 3}),
    ("seep", {"bazzis": 3}),
    ("seep", {"players": 2, "majority_bonus": 4, "sweep_cancel": True}),
]


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[f"{g} {r}" for g, r in GAMES])
def test_export_and_replay_score_identically(game: str, rules: dict[str, Any], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    m = match(game, first_dealer=1, **rules)
    random_game(m, 60, random.Random(f"{game}{rules}"))
    record = m.record()
    assert all(set(deal) <= {"dealer", "cards", "entry"} for deal in record["deals"])
    code, out, err = cli(capsys, tmp_path, "replay", record)
    assert (code, err) == (0, "")
    assert json.loads(out) == json.loads(json.dumps(m.report()))
    code, out, err = cli(capsys, tmp_path, "sheet", record)
    assert code == 0 and out.strip()


def test_record_of_an_entered_preferans_deal() -> None:
    m = match("preferans", variant="sochi")
    add_entry(m, form_for(m).parse("7H Ann down 1; Bob whist 3; Cid pass 1; open"))
    assert m.record()["deals"] == [{"dealer": 2, "entry": {
        "kind": "game", "declarer": 0, "contract": "7H",
        "calls": [{"seat": 1, "whist": "whist"}, {"seat": 2, "whist": "pass"}],
        "talon": 0, "tricks": [6, None, None], "open": True}}]
    assert replay(m.record()).report() == m.report()


def test_played_and_entered_deals_mix() -> None:
    """A game played with the bot can go on at a real table, and the record holds both."""
    record = play_random("preferans", 7, 2, play=True)
    m = replay(record)
    add_entry(m, form_for(m).parse("raspasy P1 3 P2 3 P3 4"))
    again = replay(m.record())
    assert again.report() == m.report() and len(again.deals) == 3


@pytest.mark.parametrize(("deal", "reason"), [
    ({"dealer": 1, "entry": {"kind": "raspasy", "tricks": [2, 3, 5]}},
     "deal 1: dealer must be 2, not 1"),
    ({"dealer": 2, "entry": {"kind": "raspasy", "tricks": [2, 3, 4]}},
     "deal 1: the tricks add up to 9, not 10"),
    ({"dealer": 2, "entry": {"kind": "game", "declarer": 0, "contract": "6S",
                             "calls": [{"seat": 1, "whist": "whist"}], "tricks": [6, 4, None]}},
     "deal 1: Cid's call is missing: whist or pass"),
    ({"dealer": 2, "entry": {"kind": "raspasy", "tricks": [2, 3, 5], "talon": "AS"}},
     "deal 1: entry field talon has the wrong type"),
    ({"dealer": 2, "hands": [], "entry": {"kind": "raspasy", "tricks": [2, 3, 5]}},
     "deal 1: unknown field(s) of an entered deal: hands"),
    ({"dealer": 2, "entry": {"kind": "raspasy", "tricks": [2, 3, 5], "declarer": 0}},
     "deal 1: raspasy has no declarer and no contract"),
])
def test_bad_entered_deals_in_a_record(deal: dict[str, Any], reason: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    first = {"dealer": 1, "entry": {"kind": "raspasy", "tricks": [2, 3, 5]}}
    record = {"game": "preferans", "rules": {"variant": "sochi"},
              "players": ["Ann", "Bob", "Cid"], "deals": [first, deal]}
    code, out, err = cli(capsys, tmp_path, "replay", record)
    assert (code, out) == (2, "")
    assert err.strip() == f"error: {reason}"


def test_joker_record_names_the_cards_of_the_deal() -> None:
    m = match("joker", first_dealer=0)
    random_game(m, 3, random.Random(3))
    assert [d["cards"] for d in m.record()["deals"]] == [1, 2, 3]
    record = m.record()
    record["deals"][1]["cards"] = 5
    with pytest.raises(Exception, match="deal 1: cards must be 2, not 5"):
        replay(record)
    assert isinstance(replay(m.record()), Match)
