"""Records (spec section 15): the example records, the CLI, action text and record objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.base import IllegalAction, MalformedAction
from engine.records import replay
from engine.seep import SPEC
from engine.seep.notation import MAX_TEXT, decode_action, encode_action
from tests.seep.helpers import S, position

RECORDS = Path(__file__).parents[1] / "records"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_worked_record_replays_a_redeal_and_an_unfinished_deal(capsys) -> None:
    code, out, err = run(capsys, "replay", str(RECORDS / "seep_worked_s11.json"))
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["game"] == "seep" and doc["complete"] is False
    assert doc["deals"] == [
        {"dealer": 2, "bidder": 1, "bid": None, "card_points": [0, 0],
         "sweeps": [[0, 0, 0], [0, 0, 0]], "score": [0, 0], "lead": 0, "bazzi": None,
         "reason": None},
        {"dealer": 2, "bidder": 1, "bid": 13, "unfinished": True, "plays": 17,
         "card_points": None, "sweeps": None, "score": None, "lead": 0, "bazzi": None,
         "reason": None},
    ]
    assert doc["sheet"] == {"bazzis": [0, 0], "lead": 0} and doc["settlement"] == [0, 0, 0, 0]


def test_random_record_is_what_the_cli_deals_and_replays_to_a_bazzi(capsys) -> None:
    path = RECORDS / "seep_random_match.json"
    code, out, _ = run(capsys, "deal", "--game", "seep", "--seed", "4", "--play", "random",
                       "--deals", "8")
    assert code == 0 and json.loads(out) == json.loads(path.read_text())
    code, out, _ = run(capsys, "replay", str(path))
    doc = json.loads(out)
    assert [(d["dealer"], d["bid"], d["lead"], d["bazzi"], d["reason"]) for d in doc["deals"]] == [
        (3, 9, -90, None, None), (2, 10, -42, None, None), (2, None, -42, None, None),
        (2, 12, 0, "EW", "lead")]
    assert doc["complete"] is True and doc["settlement"] == [-1, 1, -1, 1]
    for deal in doc["deals"]:
        if deal["bid"] is not None:
            assert sum(deal["card_points"]) == 100
    code, out, _ = run(capsys, "sheet", str(path))
    assert code == 0 and out.splitlines()[-1] == "bazzis: NS 0, EW 1; lead +0"


def test_an_illegal_action_names_deal_and_action(tmp_path, capsys) -> None:
    record = json.loads((RECORDS / "seep_worked_s11.json").read_text())
    record["deals"][1]["actions"][2] = {"seat": 0, "cement": "7C", "value": 13, "with": ["6S"],
                                        "absorb": [["8D"]]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err == "error: deal 1, action 2: 8♦ sums to 8, not 13\n"


def test_a_deal_after_the_wrong_dealer_is_refused(tmp_path, capsys) -> None:
    record = json.loads((RECORDS / "seep_random_match.json").read_text())
    record["deals"][1]["dealer"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and err.startswith("error: deal 1: the dealer must be seat 2")


def test_record_objects_round_trip() -> None:
    record = json.loads((RECORDS / "seep_worked_s11.json").read_text())
    for item in record["deals"][1]["actions"]:
        seat, action = decode_action(item)
        assert encode_action(seat, action) == item


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"bid": 13}, "an action needs a seat number"),
        ({"seat": 1, "bid": 13, "throw": "3H"}, "exactly one of"),
        ({"seat": 1, "throw": "3H", "value": 3}, "unexpected field(s) for throw: value"),
        ({"seat": 1, "bid": "13"}, "bid must be a whole number"),
        ({"seat": 1, "build": "5S", "with": []}, "value must be a whole number"),
        ({"seat": 1, "capture": "KD", "groups": "10H"}, "groups must be a list"),
        ({"seat": 1, "capture": "KD", "groups": [[]]}, "a group may not be empty"),
        ({"seat": 1, "capture": "KX"}, "no suit"),
        ({"seat": 1, "capture": "KD", "groups": [["KD"]]}, "named twice"),
    ],
)
def test_bad_record_actions(item, message) -> None:
    with pytest.raises(MalformedAction) as err:
        decode_action(item)
    assert message in str(err.value)


def test_break_with_floor_cards_writes_with() -> None:
    assert encode_action(2, "break:2C:9:AD") == {"seat": 2, "break": "2C", "house": 9,
                                                 "with": ["AD"], "absorb": []}
    assert decode_action({"seat": 2, "break": "2C", "house": 9, "absorb": []}) == (2,
                                                                                  "break:2C:9")


def test_a_long_capture_is_written_compactly() -> None:
    state = position("QS", "AS AC AD AH 2S 2C 2D 2H 3S 3C 3D 3H")
    (action,) = state.legal_actions(S)
    readable = "cap:QS:3S+3C+3D+3H/2S+2C+2D+2H+AS+AC+AD+AH"
    assert action.startswith("cap:QS:=") and len(action) < MAX_TEXT < len(readable)
    item = encode_action(S, action)
    assert item == {"seat": S, "capture": "QS", "groups": [
        ["3S", "3C", "3D", "3H"], ["2S", "2C", "2D", "2H", "AS", "AC", "AD", "AH"]]}
    assert decode_action(item) == (S, readable)
    assert state.describe(action) == state.describe(readable)
    state.apply(S, readable)
    assert state.floor.empty and state.capture_points() == [12 + 3 + 2 + 1 + 3, 0]


def test_compact_build_round_trip() -> None:
    state = position("AS KS", "AC AD AH 2S 2C 2D 2H 3C 3D 3H 4C 4D")
    long = [a for a in state.legal_actions(S) if "=" in a]
    assert long and all(len(a) < MAX_TEXT for a in long)
    for action in long:
        _, text = decode_action(encode_action(S, action))
        assert state.describe(text) == state.describe(action)
    with pytest.raises(IllegalAction):  # a mask of cards that cannot make groups of 13
        state.apply(S, "build:AS:13:=AAAAAAAAAAAAAAAAAB")


def test_spec_example_deal_object() -> None:
    """Spec section 15's example actions read back as text."""
    items = [
        {"seat": 1, "bid": 13},
        {"seat": 1, "build": "5S", "value": 13, "with": ["8D"], "absorb": [["10H", "3C"]]},
        {"seat": 0, "capture": "6H", "groups": [["6S"]]},
        {"seat": 3, "cement": "JC", "value": 11, "with": [], "absorb": []},
        {"seat": 2, "break": "2C", "house": 9, "absorb": []},
        {"seat": 1, "throw": "3H"},
    ]
    assert [SPEC.decode_action(i)[1] for i in items] == [
        "bid:13", "build:5S:13:8D:absorb:10H+3C", "cap:6H:6S", "cement:JC:11", "break:2C:9",
        "throw:3H"]
    assert [SPEC.encode_action(i["seat"], SPEC.decode_action(i)[1]) for i in items] == items


def test_replay_reproduces_a_record_exactly() -> None:
    record = json.loads((RECORDS / "seep_random_match.json").read_text())
    assert replay(record).record() == record
