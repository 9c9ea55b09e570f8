"""Records and replay (records.md, spec 17-18): example records, the CLI, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.base import RecordError
from engine.records import replay

RECORDS = Path(__file__).parent.parent / "records"


def load(name: str) -> dict:
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def test_worked_pulka_replays_to_the_spec_tables():
    """Spec 18.5 played out card by card as the first pulka of the nines schedule."""
    report = replay(load("joker_pulka_premium.json")).report()
    assert report["complete"] is False
    assert [d["bids"] for d in report["deals"]] == [[2, 2, 3, 1], [3, 1, 4, 0], [0, 2, 5, 1],
                                                    [2, 3, 2, 0]]
    assert [d["tricks"] for d in report["deals"]] == [[3, 2, 3, 1], [5, 0, 4, 0], [1, 2, 5, 1],
                                                      [2, 3, 2, 2]]
    assert [d["points"] for d in report["deals"]] == [[30, 150, 200, 100], [50, -200, 250, 50],
                                                      [10, 150, 300, 100], [150, 200, 150, 20]]
    assert [d["dealer"] for d in report["deals"]] == [0, 1, 2, 3]
    assert report["pulkas"] == [{"sums": [240, 300, 900, 270], "premium": [-150, -200, 300, -100],
                                 "totals": [90, 100, 1200, 170]}]
    assert report["sheet"] == {"totals": [90, 100, 1200, 170]}
    assert report["settlement"] == [-1200, -1160, 3240, -880]


@pytest.mark.parametrize("name", ["joker_pulka_premium.json", "joker_random_game.json"])
def test_replay_reproduces_the_record(name):
    doc = load(name)
    match = replay(doc)
    again = replay(match.record())
    assert again.record() == match.record()
    assert again.report() == match.report()
    assert match.record()["deals"] == doc["deals"]


def test_random_game_record_is_complete():
    report = replay(load("joker_random_game.json")).report()
    assert report["complete"] is True and len(report["deals"]) == 24
    assert all(sum(d["tricks"]) == d["cards"] for d in report["deals"])
    assert len(report["pulkas"]) == 4 and sum(report["settlement"]) == 0
    assert report["sheet"]["totals"] == [sum(p["totals"][s] for p in report["pulkas"])
                                         for s in range(4)]


def test_unfinished_deal_and_pulka():
    doc = load("joker_pulka_premium.json")
    doc["deals"][3]["actions"] = doc["deals"][3]["actions"][:7]  # trump, 4 bids, 2 cards
    report = replay(doc).report()
    assert report["complete"] is False
    assert report["deals"][3] == {"dealer": 3, "cards": 9, "trump": "S", "bids": [2, 3, 2, 0],
                                  "tricks": [0, 0, 0, 0], "points": [0, 0, 0, 0],
                                  "unfinished": True}
    assert report["pulkas"] == [{"sums": [90, 100, 750, 250], "premium": [0, 0, 0, 0],
                                 "totals": [90, 100, 750, 250]}]
    doc["deals"][3]["actions"] = []
    assert replay(doc).report()["deals"][3]["trump"] is None


def _break(mutate) -> str:
    doc = load("joker_pulka_premium.json")
    mutate(doc)
    with pytest.raises(RecordError) as err:
        replay(doc)
    return str(err.value)


def test_replay_errors_name_deal_and_action():
    def forbidden(doc):
        doc["deals"][0]["actions"][4]["bid"] = 3

    assert _break(forbidden).startswith("deal 0, action 4: the dealer may not bid 3")

    def extra_field(doc):
        doc["deals"][1]["actions"][0]["note"] = "x"

    assert _break(extra_field).startswith("deal 1, action 0: unknown field(s) in a trump action")

    def wrong_dealer(doc):
        doc["deals"][1]["dealer"] = 3

    assert _break(wrong_dealer).startswith("deal 1: the dealer must be seat 1")

    def out_of_turn(doc):
        actions = doc["deals"][0]["actions"]
        actions[6], actions[7] = actions[7], actions[6]

    assert _break(out_of_turn).startswith("deal 0, action 6: it is C's turn")

    def revoke(doc):  # C holds JS and AD; a six of spades was led
        doc["deals"][0]["actions"][6]["play"] = "AD"

    assert _break(revoke) == "deal 0, action 6: you must follow suit: play a ♠"

    def wrong_cards(doc):
        doc["deals"][0]["cards"] = 8

    assert "9 cards each" in _break(wrong_cards)

    def bad_rules(doc):
        doc["rules"] = {"nine_card_trump": "turn_up"}

    assert "turn_up needs 3 or 2 players" in _break(bad_rules)


def test_cli_deal_replay_and_sheet(tmp_path, capsys):
    args = ["deal", "--game", "joker", "--seed", "4", "--play", "random", "--deals", "24"]
    assert main(args) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["game"] == "joker" and len(record["deals"]) == 24
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is True and set(report) == {"game", "complete", "deals", "pulkas",
                                                         "sheet", "settlement"}
    assert main(["sheet", str(path)]) == 0
    text = capsys.readouterr().out
    assert "pulka 4 sums" in text and "settlement" in text


def test_cli_deal_without_play_and_error_line(tmp_path, capsys):
    assert main(["deal", "--game", "joker", "--seed", "9"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["deals"]) == 1 and record["deals"][0]["actions"] == []
    dealer = record["deals"][0]["dealer"]
    record["deals"][0]["actions"] = [{"seat": (dealer + 2) % 4, "bid": 1}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: deal 0, action 0: it is ") and err.count("\n") == 1


def test_record_keeps_the_rules():
    match = replay(load("joker_pulka_premium.json"))
    assert match.record()["rules"]["schedule"] == "nines"
    assert match.record()["rules"]["khishti"] == 200
