"""What all pictures share: the bundled font, the dispatch per game, translation, examples."""

from __future__ import annotations

import dataclasses
import re
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.screens.examples import EXAMPLES, main, played
from bot.screens.sheet import draw_sheet, render_sheet
from bot.ui.pictures.fonts import DEVANAGARI_FILES, FILES, font
from engine.games import get_game
from engine.match import Match
from tests.pictures.checks import assert_sound

FONTS = Path(__file__).parent.parent.parent / "bot" / "ui" / "pictures" / "fonts"
GAMES = [("preferans", 3, 30, ("Анна", "Борис", "Вера"), {}),
         ("preferans", 3, 30, ("Анна", "Борис", "Вера", "Глеб"), {"players": 4}),
         ("joker", 519, 24, ("Нино", "Гиорги", "Тамар", "Леван"), {"pairs": True}),
         ("seep", 0, 40, ("Арджун", "Прия", "Викрам", "Мира"), {"bazzis": 3})]


def test_fonts_are_bundled_with_their_licences():
    for name in (*FILES.values(), *DEVANAGARI_FILES.values()):
        assert (FONTS / name).stat().st_size > 100_000
    assert "Bitstream" in (FONTS / "LICENSE").read_text(encoding="utf-8")
    assert "SIL Open Font License" in (FONTS / "LICENSE-Noto").read_text(encoding="utf-8")


@pytest.mark.parametrize("bold", [False, True])
def test_the_fonts_draw_cyrillic_georgian_devanagari_and_suits(bold):
    """No character players will see falls back to the empty box of a missing glyph."""
    face = font(30, bold)

    def glyph(one: ImageFont.FreeTypeFont, char: str) -> tuple:
        mask = one.getmask(char)
        return mask.size, bytes(mask)

    for one, chars in ((face.main, "пуляПУЛЯгоравистыЁёЙй♠♣♦♥★●◀▶…−·ჯოკერიЄєІіЇїҐґ"),
                       (face.devanagari, "सीपबाज़ीकुलअंकघरपत्ताहुकुमदेवनागरी।")):
        missing = glyph(one, "\U000f0000")  # a private-use character: surely not in the font
        for char in chars:
            assert glyph(one, char) != missing, char


def test_a_mixed_text_is_drawn_in_runs_on_one_baseline():
    """Devanagari goes to its font, everything else (digits, suits, Latin) to DejaVu; the
    length is the runs' and a text of one script is laid out as before."""
    face = font(30)
    runs = face.runs("बाज़ी 3 ♠ टीम A")
    assert [(part, one is face.devanagari) for part, one in runs] == [
        ("बाज़ी ", True), ("3 ♠ ", False), ("टीम ", True), ("A", False)]
    assert face.getlength("बाज़ी 3") == pytest.approx(
        face.devanagari.getlength("बाज़ी ") + face.main.getlength("3"))
    image = Image.new("RGB", (400, 100), "white")
    draw = ImageDraw.Draw(image)
    assert face.box(draw, (10, 50), "Anna 3", "lm") == tuple(
        int(v) + (i > 1) for i, v in enumerate(draw.textbbox((10, 50), "Anna 3",
                                                             font=face.main, anchor="lm")))
    left, top, right, bottom = face.draw(draw, (200, 50), "टीम 3", "#000000", "mm")
    assert left < 200 < right and top < 50 < bottom
    assert right - left == pytest.approx(face.getlength("टीम 3"), abs=4)


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
