"""The Joker table against the sheet it was drawn from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.screens.examples import played
from bot.screens.sheet import render_sheet
from bot.ui.pictures.numbers import number, parse
from bot.ui.pictures.style import STAR
from engine.__main__ import play_random
from engine.match import Match
from engine.records import replay
from tests.pictures.checks import assert_sound, cut, one, shows_name, value

NAMES = ("Nino", "Giorgi", "Tamar", "Levan")
RECORDS = Path(__file__).parent.parent / "records"


def check_against_sheet(match: Match) -> None:
    picture = render_sheet(match)
    assert_sound(picture)
    report = match.report()
    plan = match.sheet.plan
    assert [one(picture, "cards", k).text for k in range(len(plan))] == [str(c) for _, c in plan]
    for s, name in enumerate(match.players):
        assert shows_name(one(picture, "name", s).text, name)
        assert value(picture, "total", s) == report["sheet"]["totals"][s]
        assert value(picture, "balance", s) == report["settlement"][s]
        for k, deal in enumerate(report["deals"]):
            bid = "–" if deal["bids"][s] is None else str(deal["bids"][s])
            assert one(picture, "bid", k, s).text == f"{bid}/{deal['tricks'][s]}"
            if not deal.get("unfinished"):
                assert value(picture, "points", k, s) == deal["points"][s]
        assert not picture.tagged("bid", len(report["deals"]))  # deals to come are blank
        for p, pulka in enumerate(report["pulkas"], start=1):
            assert value(picture, "pulka", p, s) == pulka["totals"][s]
            notes = picture.tagged("pulka", p, s, "note")
            premium = pulka["premium"][s]
            if premium:
                assert parse(notes[0].text.removeprefix(STAR)) == premium
            else:
                assert not notes or notes[0].text == STAR


def test_a_whole_game_with_a_premium():
    match = played("joker", 519, 24, NAMES)
    assert match.over and any(any(p["premium"]) for p in match.report()["pulkas"])
    check_against_sheet(match)
    picture = render_sheet(match)
    assert one(picture, "pulka", 2, 0, "note").text == f"{STAR}+200"
    assert one(picture, "status").text == "deals: 24/24 · game over"


def test_the_worked_pulka_of_the_spec():
    """Spec 18.5 played card by card: C alone on premium doubles his best deal, the others
    lose theirs."""
    match = replay(json.loads((RECORDS / "joker_pulka_premium.json").read_text("utf-8")))
    check_against_sheet(match)
    picture = render_sheet(match)
    assert [one(picture, "pulka", 1, s).text for s in range(4)] == ["90", "100", "1200", "170"]
    assert [one(picture, "pulka", 1, s, "note").text for s in range(4)] == [
        "−150", "−200", f"{STAR}+300", "−100"]
    assert [one(picture, "balance", s).text for s in range(4)] == ["−1200", "−1160", "+3240",
                                                                   "−880"]


@pytest.mark.parametrize("rules", [{"players": 3}, {"players": 2}, {"pairs": True},
                                   {"schedule": "short"}, {"khishti": "per_pulka"}])
def test_other_tables(rules):
    names = NAMES[: rules.get("players", 4)]
    match = played("joker", 7, 24, names, rules)
    check_against_sheet(match)
    if rules.get("pairs"):
        teams = match.report()["sheet"]["teams"]
        note = render_sheet(match).tagged("note")[-1].text
        assert note == f"Teams: Nino + Tamar {number(teams[0])} · Giorgi + Levan {number(teams[1])}"


def test_a_deal_in_progress_and_a_fresh_sheet():
    record = play_random("joker", 11, 10, play=True)
    check_against_sheet(replay(cut(record, 5)))
    check_against_sheet(played("joker", 11, 0, NAMES))
