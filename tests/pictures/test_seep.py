"""The Seep bazzi ledger against the match it was drawn from."""

from __future__ import annotations

import pytest

from bot.games.seep.picture import MAX_DEALS, SWEEP
from bot.screens.examples import played
from bot.screens.sheet import render_sheet
from bot.ui.pictures.numbers import parse
from bot.ui.pictures.style import STAR
from engine.__main__ import play_random
from engine.match import Match
from engine.records import replay
from tests.pictures.checks import assert_sound, cut, one, shows_name, value

FOUR = ("Arjun", "Priya", "Vikram", "Meera")


def lead(text: str) -> float:
    """A drawn lead back as the ledger's signed L: ``◀ 20`` is NS (left) ahead, ``20 ▶`` EW."""
    if text.startswith("◀ "):
        return parse(text[2:])
    return -parse(text.removesuffix(" ▶"))


def check_against_ledger(match: Match) -> None:
    picture = render_sheet(match)
    assert_sound(picture)
    report, teams = match.report(), match.rules.teams
    for seat, name in enumerate(match.players):
        assert shows_name(one(picture, "name", seat).text, name)
    for team, seats in enumerate(teams):
        assert value(picture, "bazzis", team) == report["sheet"]["bazzis"][team]
        assert all(value(picture, "balance", team) == report["settlement"][s] for s in seats)
    assert lead(one(picture, "lead").text) == report["sheet"]["lead"]
    deals = report["deals"]
    shown = range(max(0, len(deals) - MAX_DEALS), len(deals))
    assert {item.tag[1] for item in picture.tagged("dealer")} == set(shown)
    for k in shown:
        deal = deals[k]
        assert one(picture, "dealer", k).text == match.players[deal["dealer"]]
        if deal.get("unfinished") or deal["bid"] is None:
            assert not picture.tagged("score", k)
            continue
        assert value(picture, "bid", k) == deal["bid"]
        assert lead(one(picture, "lead", k).text) == deal["lead"]
        for team in (0, 1):
            assert value(picture, "score", k, team) == deal["score"][team]
            note = "".join(item.text for item in picture.tagged("score", k, team, "note"))
            won = deal["bazzi"] == match.rules.team_name(team)
            assert (STAR in note) == won
            assert ("under 9" in note) == (won and deal["reason"] == "under9")
            assert note.count(SWEEP) <= sum(deal["sweeps"][team])


def test_a_match_of_three_bazzis():
    match = played("seep", 2, 40, FOUR, {"bazzis": 3})
    assert match.over
    check_against_ledger(match)
    picture = render_sheet(match)
    assert [one(picture, "bazzis", t).text for t in (0, 1)] == ["2", "1"]
    assert [one(picture, "balance", t).text for t in (0, 1)] == ["+1", "−1"]


def test_a_long_match_shows_its_latest_deals():
    match = played("seep", 0, 200, FOUR, {"bazzis": 9})
    assert len(match.report()["deals"]) > MAX_DEALS
    check_against_ledger(match)
    notes = [item.text for item in render_sheet(match).tagged("note")]
    hidden = len(match.report()["deals"]) - MAX_DEALS
    assert f"deals 1-{hidden} are not shown" in notes


@pytest.mark.parametrize("rules", [{"players": 2, "bazzis": 3}, {"under_nine_counts": "cards"},
                                   {"bazzi_overflow": "carry", "bazzis": 2}])
def test_other_ledgers(rules):
    names = FOUR[: rules.get("players", 4)]
    check_against_ledger(played("seep", 3, 40, names, rules))


def test_a_deal_in_progress_and_redeals():
    record = play_random("seep", 5, 6, play=True)
    match = replay(cut(record, 7))
    assert match.in_deal
    check_against_ledger(match)
    with_redeal = played("seep", 0, 40, FOUR, {"bazzis": 3})
    assert any(d["bid"] is None for d in with_redeal.report()["deals"])
    check_against_ledger(with_redeal)
