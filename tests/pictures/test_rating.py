"""The rating history picture: a line per game kind played, the legend naming each kind's
last rating, the y axis in order; sound in every language."""

from __future__ import annotations

import pytest

from bot.screens.ratings import history_picture, rating
from bot.service.queries import Stats
from bot.service.ratings import PRIOR, conservative
from bot.ui.i18n import translator
from bot.ui.pictures.numbers import parse
from storage.rows import RatingPoint, Skill, UserRow
from tests.pictures.checks import assert_sound

USER = UserRow(1, "Anna", None, "en", True)


def history(games: dict[str, list[float]]) -> list[RatingPoint]:
    """Points of each game kind, its mu falling or rising game by game."""
    points = []
    for game, mus in games.items():
        for n, mu in enumerate(mus):
            points.append(RatingPoint(game, n, float(n), Skill(mu, PRIOR.sigma - n / 2)))
    return points


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_line_per_game_kind_with_its_last_rating(language: str) -> None:
    points = history({"joker": [27.0, 28.5, 26.0, 30.0], "seep": [23.0, 24.0]})
    picture = history_picture(Stats(USER, history=points, scope="group"), translator(language))
    assert_sound(picture)
    tr = translator(language)
    legend = [item.text for item in picture.tagged("legend")]
    last = {"Seep": points[5].skill, "Joker": points[3].skill}  # in the plugins' order
    assert legend == [f"{tr(game)}: {rating(conservative(skill))}"
                      for game, skill in last.items()]
    ticks = [parse(item.text) for item in picture.tagged("y")]
    assert ticks == sorted(ticks) and ticks[0] <= conservative(PRIOR)
    assert ticks[-1] >= conservative(points[3].skill)
    assert [item.text for item in picture.tagged("x")] == ["0", "1", "2", "3", "4"]
    assert picture.tagged("status")[0].text == tr("in this group")


def test_one_game_and_a_long_history() -> None:
    for mus in ([26.0], [25 + (n % 7) - 3 for n in range(120)]):
        picture = history_picture(Stats(USER, history=history({"preferans": mus})),
                                  translator("en"))
        assert_sound(picture)
        xs = [int(item.text) for item in picture.tagged("x")]
        assert xs[0] == 0 and xs[-1] == len(mus) and len(xs) <= 6
