"""The Preferans pulya picture against the sheet it was drawn from (3 and 4 players)."""

from __future__ import annotations

import pytest

from bot.screens.examples import played
from bot.screens.sheet import render_sheet
from bot.ui.pictures.canvas import ELLIPSIS
from bot.ui.pictures.numbers import parse
from engine.__main__ import play_random
from engine.match import Match
from engine.records import replay
from tests.pictures.checks import assert_sound, cut, one, shows_name, tokens, value

THREE = ("Anna", "Boris", "Clara")
FOUR = ("Anna", "Boris", "Clara", "Dmitri")


def check_against_sheet(match: Match) -> None:
    """Every name, section, total and balance drawn is the sheet's (the replay output's)."""
    picture = render_sheet(match)
    assert_sound(picture)
    report = match.report()
    sheet, n = report["sheet"], len(match.players)
    assert one(picture, "target").text == str(match.rules.pool)
    for x, name in enumerate(match.players):
        assert shows_name(one(picture, "name", x).text, name)
        assert shows_name(one(picture, "legend-name", x).text, name)
        assert value(picture, "total-pool", x) == sheet["pool"][x]
        assert value(picture, "total-mountain", x) == sheet["mountain"][x]
        net = sum(sheet["whists"][x][y] - sheet["whists"][y][x] for y in range(n))
        assert value(picture, "total-whists", x) == net
        assert value(picture, "balance", x) == report["settlement"][x]
        sections = [("pool", x), ("mountain", x), *(("whists", x, y) for y in range(n) if y != x)]
        for tag in sections:
            drawn = [item for item in picture.items if item.tag == tag]
            if any(_entry(deal, tag) for deal in report["deals"]):
                assert parse(tokens(drawn[0].text)[-1]) == _entry(report, tag), tag
            else:
                assert drawn == [], tag  # nothing written there yet: the section stays blank


def _entry(doc: dict, tag: tuple) -> int:
    """A section's figure in a deal's ``entries`` or in the ``sheet``: pool, mountain, whists."""
    figures = doc["entries"] if "entries" in doc else doc["sheet"]
    section, x, *target = tag
    return figures[section][x][target[0]] if target else figures[section][x]


@pytest.mark.parametrize("seed", [1, 3, 12])
def test_three_player_pulyas(seed):
    check_against_sheet(played("preferans", seed, 80, THREE))


@pytest.mark.parametrize("seed", [3, 8])
def test_four_player_pulyas(seed):
    check_against_sheet(played("preferans", seed, 80, FOUR, {"players": 4}))


@pytest.mark.parametrize("rules", [{"variant": "leningrad"}, {"variant": "rostov"},
                                   {"variant": "leningrad", "players": 4},
                                   {"settlement_rounding": "integer"}])
def test_other_variants(rules):
    names = FOUR if rules.get("players") == 4 else THREE
    check_against_sheet(played("preferans", 5, 30, names, rules))


def test_a_fresh_sheet_is_blank_but_named():
    match = played("preferans", 1, 0, THREE)
    check_against_sheet(match)
    picture = render_sheet(match)
    assert not picture.tagged("pool") and not picture.tagged("whists")
    assert [value(picture, "balance", x) for x in range(3)] == [0, 0, 0]


def test_sections_hold_running_totals_as_on_paper():
    """A short game: each section is the sequence of totals after every deal that wrote in it."""
    match = played("preferans", 2, 6, THREE)
    picture = render_sheet(match)
    deals = match.report()["deals"]
    for x in range(3):
        for tag in [("pool", x), ("mountain", x), *(("whists", x, y) for y in range(3) if y != x)]:
            totals, running = [], 0
            for deal in deals:
                if delta := _entry(deal, tag):
                    running += delta
                    totals.append(running)
            drawn = picture.tagged(*tag)
            assert ([parse(t) for t in tokens(drawn[0].text)] if drawn else []) == totals
            assert not drawn or not drawn[0].text.startswith(ELLIPSIS)


def test_long_sequences_keep_the_latest_entries():
    """Random play piles up mountains: the oldest entries give way to an ellipsis."""
    match = played("preferans", 8, 80, FOUR, {"players": 4})
    picture = render_sheet(match)
    cut_short = [item for item in picture.items if item.text.startswith(ELLIPSIS)]
    assert cut_short
    for item in cut_short:
        section = item.tag[0]
        x = item.tag[1]
        total = (match.sheet.whists[x][item.tag[2]] if section == "whists"
                 else getattr(match.sheet, section)[x])
        assert parse(tokens(item.text)[-1]) == total


def test_long_and_cyrillic_names():
    names = ("Александр Сергеевич Пушкин", "Ёжик",
             "Bartholomew Montgomery-Smythe the Third of Edinburgh and Leith, Esq.", "Ли")
    match = played("preferans", 3, 40, names, {"players": 4})
    check_against_sheet(match)
    picture = render_sheet(match)
    assert one(picture, "legend-name", 0).text == names[0]
    assert one(picture, "legend-name", 1).text == "Ёжик"
    assert one(picture, "legend-name", 2).text.endswith(ELLIPSIS)
    three = played("preferans", 3, 40, names[:3])
    check_against_sheet(three)


def test_a_deal_in_progress_is_noted():
    record = play_random("preferans", 4, 5, play=True)
    match = replay(cut(record, 3))
    assert match.in_deal
    picture = render_sheet(match)
    check_against_sheet(match)
    assert any("in progress" in item.text for item in picture.tagged("note"))


def test_raspasy_state_and_rounding_are_noted():
    rules = {"variant": "leningrad", "settlement_rounding": "integer"}
    for seed in range(40):
        match = played("preferans", seed, 12, THREE, rules)
        if match.sheet.state > 1 and not match.over:
            break
    else:
        pytest.fail("no Leningrad game in raspasy state 2 or 3")
    notes = [item.text for item in render_sheet(match).tagged("note")]
    assert "rounded to whole whists" in notes[0]
    assert notes[1].startswith(f"Raspasy state {match.sheet.state}: bidding opens at 7♠")
