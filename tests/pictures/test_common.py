"""What all pictures share: the bundled font, the dispatch per game, translation, examples."""

from __future__ import annotations

import dataclasses
import re
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from bot.screens.examples import EXAMPLES, main, played
from bot.screens.sheet import draw_sheet, render_sheet
from bot.ui.pictures.fonts import FILES, font
from engine.games import get_game
from engine.match import Match
from tests.pictures.checks import assert_sound

FONTS = Path(__file__).parent.parent.parent / "bot" / "ui" / "pictures" / "fonts"
GAMES = [("preferans", 3, 30, ("Анна", "Борис", "Вера"), {}),
         ("preferans", 3, 30, ("Анна", "Борис", "Вера", "Глеб"), {"players": 4}),
         ("joker", 519, 24, ("Нино", "Гиорги", "Тамар", "Леван"), {"pairs": True}),
         ("seep", 0, 40, ("Арджун", "Прия", "Викрам", "Мира"), {"bazzis": 3})]


def test_fonts_are_bundled_with_their_licence():
    for name in FILES.values():
        assert (FONTS / name).stat().st_size > 100_000
    assert "Bitstream" in (FONTS / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.parametrize("bold", [False, True])
def test_the_font_draws_cyrillic_georgian_and_suits(bold):
    """No character players will see falls back to the empty box of a missing glyph."""
    face = font(30, bold)

    def glyph(char: str) -> tuple:
        mask = face.getmask(char)
        return mask.size, bytes(mask)

    missing = glyph("\U000f0000")  # a private-use character: surely not in the font
    for char in "пуляПУЛЯгоравистыЁёЙй♠♣♦♥★●◀▶…−·ჯოკერი":
        assert glyph(char) != missing, char


def test_draw_sheet_gives_png_bytes():
    match = played("preferans", 1, 5, ("A", "B", "C"))
    png = draw_sheet(match)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png == render_sheet(match).png  # the same drawing, deterministic
    assert Image.open(BytesIO(png)).size == render_sheet(match).size


def test_a_game_without_a_picture_is_refused_clearly():
    spec = dataclasses.replace(get_game("preferans"), name="bridge")
    match = Match(spec, spec.rules.from_dict({}), ["A", "B", "C"], 0)
    with pytest.raises(ValueError, match="no scoresheet picture for the game 'bridge'"):
        draw_sheet(match)


@pytest.mark.parametrize(("game", "seed", "deals", "names", "rules"), GAMES,
                         ids=["pulya-3p", "pulya-4p", "joker", "seep"])
def test_every_label_goes_through_tr(game, seed, deals, names, rules):
    """With Cyrillic names, a Latin letter can only come from a label: each must be translated
    (marked here by the translation function)."""
    match = played(game, seed, deals, names, rules)
    picture = render_sheet(match, lambda text: f"⟦{text}⟧")
    assert_sound(picture)
    labels = [item for item in picture.items if re.search("[A-Za-z]", item.text)]
    assert labels
    for item in labels:
        assert item.text.startswith("⟦") and "⟧" in item.text, item


def test_examples_regenerate(tmp_path):
    assert main([str(tmp_path)]) == 0
    for name in EXAMPLES:
        with Image.open(tmp_path / name) as image:
            assert image.format == "PNG" and image.width == 1080
