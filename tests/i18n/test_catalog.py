"""The catalogs: every message of the source is translated in each complete language,
with the same placeholders and HTML tags; the checks themselves catch what they must."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot import catalog
from bot.catalog import COMPLETE, for_games, messages, problems, undeclared_calls
from bot.screens.examples import played
from bot.screens.sheet import render_sheet
from bot.ui import i18n
from engine.base import ActionError
from engine.games import get_game
from tests.manual.helpers import match
from tests.pictures.checks import assert_sound


@pytest.mark.parametrize("language", [*COMPLETE, *for_games()])
def test_a_complete_language_translates_every_message(language: str) -> None:
    """Fails on any message id of the source (or declared) missing from the catalog (for a
    language of some games, of the bot's own texts and those games'); run
    `python -m bot.catalog extract`, translate, and `python -m bot.catalog check`."""
    assert problems(language) == []


def test_ukrainian_georgian_and_russian_are_complete_and_hindi_is_for_seep() -> None:
    """Hindi leaves out only what Preferans' and Joker's own screens say (their plugins'
    texts and options): everything the bot says at a Seep table is translated."""
    assert {"ru", "uk", "ka"} <= set(COMPLETE) and for_games() == {"hi": ("seep",)}
    found = {m.text: m for m in messages()}
    skipped = catalog.out_of_scope("hi")
    assert "pool {target}" in skipped and "(khishti)" in skipped  # Preferans', Joker's
    assert "Bazzis: {list}" not in skipped and "Which game shall we play?" not in skipped
    assert "Players" not in skipped  # an option label of every game, Seep's too
    assert all(found[text].games and found[text].games <= {"preferans", "joker"}
               for text in skipped)
    hindi = catalog.read("hi")
    assert all(hindi.get(text).string for text in found if text not in skipped)
    assert len(skipped) < len(found) / 2


def test_the_players_terms_in_ukrainian_georgian_and_hindi() -> None:
    uk, ka, hi = (i18n.translator(language) for language in ("uk", "ka", "hi"))
    assert (uk("pool"), uk("mountain"), uk("whists"), uk("talon")) == (
        "пуля", "гора", "вісти", "прикуп")
    assert (uk("misère"), uk("half-whist"), uk("Raspasy")) == ("мізер", "піввіста", "Розпаси")
    assert (ka("Khishti"), ka("Premium"), ka("Joker")) == ("ხიშტი", "პრემია", "ჯოკერი")
    assert ka("pulka {number}", number=2) == "პულკა 2" and ka("no trump") == "უკოზირო"
    assert (hi("Seep"), hi("bazzis"), hi("Bid {n}", n=9)) == ("सीप", "बाज़ियाँ", "बोली 9")


def test_every_translator_call_is_extractable() -> None:
    """A tr() whose argument is not a literal must be one whose messages bot/catalog.py
    declares (options, titles, statuses, menus); anything else would go untranslated."""
    assert undeclared_calls() == []


def test_extraction_finds_literals_declared_messages_and_refusals() -> None:
    found = {m.text: m.where for m in messages()}
    assert found["It is not your turn."] == "bot/screens/refusals.py"  # engine's and bot's
    assert found["You must follow suit: play a {suit}."] == "bot/screens/refusals.py"
    assert found["pool {target}"] == "bot/games/preferans/picture.py"  # a picture label
    assert found["Stalingrad (6♠ whisted by both)"].startswith("declared: ")  # an option
    assert found["paused"].startswith("declared: ")  # a table status
    assert found["the scoresheet as a picture"].startswith("declared: ")  # a command menu
    assert "" not in found


def test_the_russian_catalog_speaks_the_players_terms() -> None:
    tr = i18n.translator("ru")
    assert tr("pool") == "пуля" and tr("mountain") == "гора" and tr("whists") == "висты"
    assert tr("misère") == "мизер" and tr("half-whist") == "полвиста"
    assert tr("pass") == "пас" and tr("whist") == "вист" and tr("talon") == "прикуп"
    assert tr("Raspasy: {tricks}", tricks="Аня 2") == "Распасы: Аня 2"
    assert tr("Your discard: {cards}", cards="7♠ 8♠") == "Ваш снос: 7♠ 8♠"
    assert i18n.normalize("ru-RU") == "ru" and i18n.normalize("xx") == "en"
    assert i18n.normalize(None) == "en"
    assert "ru" in i18n.languages() and i18n.languages()[0] == "en"


GAMES = [("preferans", 3, 30, 3, {}),
         ("preferans", 3, 30, 4, {"players": 4}),
         ("joker", 519, 24, 4, {"pairs": True}),
         ("seep", 0, 40, 4, {"bazzis": 3})]
NAMES = {"ru": ("Анна", "Борис", "Вера", "Глеб"), "uk": ("Оксана", "Богдан", "Ірина", "Тарас"),
         "ka": ("ნინო", "გიორგი", "თამარი", "ლევანი"), "hi": ("अर्जुन", "प्रिया", "विक्रम", "मीरा")}
PICTURES = [(language, game) for language in NAMES for game in GAMES
            if language != "hi" or game[0] == "seep"]


@pytest.mark.parametrize(("language", "game"), PICTURES,
                         ids=[f"{lang}-{g[0]}{g[3]}" for lang, g in PICTURES])
def test_the_pictures_in_each_language_have_no_english_left(language, game) -> None:
    """With names in the language's script, any Latin letter drawn would be an untranslated
    label; none is cut short either."""
    name, seed, deals, players, rules = game
    tr = i18n.translator(language)
    picture = render_sheet(played(name, seed, deals, NAMES[language][:players], rules), tr)
    assert_sound(picture)
    assert [item.text for item in picture.items if re.search("[A-Za-z]", item.text)] == []
    assert [item.text for item in picture.items if item.text.endswith("…")] == []  # no label cut
    assert any(item.text == tr("balance") for item in picture.items)
    assert tr("balance") != "balance"


# -- the checks catch problems --------------------------------------------------------

@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The catalogs copied to a temporary directory that the tool then works on."""
    shutil.copytree(i18n.LOCALES, tmp_path / "locales")
    monkeypatch.setattr(catalog, "LOCALES", tmp_path / "locales")
    return tmp_path / "locales"


def test_a_new_language_starts_empty_and_the_check_lists_everything(locales: Path) -> None:
    catalog.init("de")
    assert catalog.catalog_languages() == ["de", "hi", "ka", "ru", "uk"]
    found = problems("de")
    assert len(found) == len(messages())
    assert all(line.startswith("missing") for line in found)
    with pytest.raises(SystemExit):
        catalog.init("uk")  # never overwrites a catalog


def test_the_check_catches_wrong_placeholders_tags_and_fuzzy(locales: Path) -> None:
    before = set(problems("ru"))  # messages others added meanwhile may wait for translation
    ru = catalog.read("ru")
    ru.get("Dealer: {name}").string = "Сдаёт: {имя}"
    ru.get("<b>Your hand</b>:").string = "Ваши карты:"
    ru.get("Deal {n}").flags.add("fuzzy")
    ru.get("Open play").string = ""
    catalog.write(ru, "ru")
    found = set(problems("ru")) - before
    assert len(found) == 4
    assert any(line.startswith("placeholders differ") and "Dealer" in line for line in found)
    assert any(line.startswith("HTML tags differ") and "Your hand" in line for line in found)
    assert any(line.startswith("fuzzy") and "Deal {n}" in line for line in found)
    assert any(line.startswith("missing") and "Open play" in line for line in found)


def test_extract_brings_in_new_messages_and_keeps_translations(locales: Path) -> None:
    catalog.merge("ru", catalog.template())
    before = set(problems("ru"))
    ru = catalog.read("ru")
    ru.delete("Dealer: {name}")
    catalog.write(ru, "ru")
    [missing] = set(problems("ru")) - before
    assert missing.startswith("missing (") and missing.endswith("): 'Dealer: {name}'")
    assert catalog.merge("ru", catalog.template()) == (1, 0)
    merged = catalog.read("ru")
    assert merged.get("Dealer: {name}").string == ""
    assert merged.get("Open play").string == "Игра в открытую"
    assert catalog.main(["check"]) == 1  # ru must be complete


@pytest.mark.parametrize("language", [*COMPLETE, *for_games()])
def test_the_check_fails_on_one_message_missing_in_a_complete_language(
        locales: Path, language: str) -> None:
    """Hindi is held to the bot's own texts and Seep's: a lobby button they all show."""
    assert catalog.main(["check"]) == 0
    found = catalog.read(language)
    found.delete("✅ I play")
    catalog.write(found, language)
    assert catalog.main(["check"]) == 1
    assert any(line.startswith("missing") and "I play" in line for line in problems(language))


_NAMES = r"\{(name|names|target|writer|team|side|other|old|new|bidder|dealer|one|two)\}"
# The words after which Russian and Ukrainian decline the name that follows.
_GOVERNORS = {"ru": "на|у|против|для|от|к|без|про|о|об|с|со|из|до|после|вместо|ждём|знаю|"
                    "посадить",
              "uk": "на|у|в|проти|для|від|до|без|про|о|об|з|із|зі|після|замість|чекаємо|"
                    "знаю|посадити"}


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_russian_and_ukrainian_texts_need_no_declension_of_names(language: str) -> None:
    """A name is never put where the language would decline it ("Боря на Аня", "у Аня"): it
    stands as the subject, after a colon or an arrow, or after a noun ("игрока Аня")."""
    governed = re.compile(rf"(?<![\w{{])({_GOVERNORS[language]}) «?" + _NAMES, re.IGNORECASE)
    found = []
    for message in catalog.read(language):
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        found += [form for form in forms if form and governed.search(form)]
    assert found == []
    tr = i18n.translator(language)
    assert tr("{writer} on {target} {n}", writer="Боря", target="Аня", n=12) == "Боря → Аня: 12"


def test_one_term_per_thing_no_gendered_brackets_and_counts_in_their_form() -> None:
    """Issue 33.8: Russian says бази everywhere (not баззи); no translation writes a verb for
    either gender ("заказал(а)"); Ukrainian's calls and whists written are two words; an
    engine explanation counts "1 trick"."""
    ru, uk = catalog.read("ru"), catalog.read("uk")

    def strings(found: object) -> list[str]:
        return [s for m in found if m.id for s in (  # type: ignore[attr-defined]
            m.string if isinstance(m.string, tuple) else (m.string,)) if s]

    assert not [s for s in strings(ru) if "баззи" in s.lower()]
    assert not [s for s in strings(ru) + strings(uk) if re.search(r"\w\((а|ла|ла?сь)\)", s)]
    assert uk.get("Whists: {calls}").string != uk.get("Whists written: {entries}").string
    m = match("preferans", variant="sochi")
    form = get_game("preferans").entry_form(m.rules, m.players, m.sheet.next_context())
    with pytest.raises(ActionError, match="took 1 trick: "):
        form.parse("7H Ann made; Bob whist 9; Cid pass")
