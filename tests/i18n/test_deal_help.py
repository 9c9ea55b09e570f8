"""The /deal help in each language: its examples are written the way its players write,
and the bot reads every one of them."""

from __future__ import annotations

import re

import pytest

from bot.games import PLUGINS
from bot.ui.i18n import translator
from engine.manual import Step, form_for
from tests.manual.helpers import match

_CODE = re.compile(r"<code>(.*?)</code>")
NAMES = {"en": ["Ann", "Bob", "Cid"], "ru": ["Аня", "Боря", "Вика"]}


@pytest.mark.parametrize("language", ["en", "ru", "uk", "ka"])
def test_every_preferans_example_reads(language: str) -> None:
    entry = PLUGINS["preferans"].entry
    help_text = entry.text_help(translator(language))
    examples = [code.removeprefix("/deal ") for code in _CODE.findall(help_text)
                if code.startswith("/deal ")]
    assert len(examples) == 4
    for text in examples:  # the names of the example's language
        m = match("preferans", variant="sochi")
        m.players[:] = NAMES["ru" if re.search("[А-я]", text) else "en"]
        entry.parse(form_for(m), text)


def test_the_russian_help_has_no_english_keywords() -> None:
    tr = translator("ru")
    for plugin in PLUGINS.values():
        codes = _CODE.findall(plugin.entry.text_help(tr))
        assert codes and all(not re.search("[A-Za-z]", c.removeprefix("/deal")) for c in codes)
    joker = PLUGINS["joker"].entry
    trump = Step("trump", None, ("S", "C", "D", "H", "NT"))
    assert [joker._read(trump, w) for w in ("ч", "п", "бк", "H")] == ["H", "S", "NT", "H"]


HELP_DEAL = ("/deal — enter a deal in one line, e.g. /deal 7H Ann made; Bob whist 3; Cid pass "
             "(/deal alone shows the format of your game)")


@pytest.mark.parametrize(("language", "names"), [
    ("en", ["Ann", "Bob", "Cid"]), ("ru", ["Аня", "Боря", "Вика"]),
    ("uk", ["Оля", "Богдан", "Іра"]), ("ka", ["ნინო", "გიო", "ლევანი"])])
def test_the_help_line_of_deal_gives_an_example_in_the_readers_language(
        language: str, names: list[str]) -> None:
    """/help's example of /deal is written with the reader's names (and, in Russian and
    Ukrainian, words), and the bot reads it (issue 33.8)."""
    line = translator(language)(HELP_DEAL)
    assert language == "en" or "Ann" not in line
    example = line.split("/deal ", 2)[2].rsplit(" (", 1)[0]
    m = match("preferans", variant="sochi")
    m.players[:] = names
    PLUGINS["preferans"].entry.parse(form_for(m), example)
    if language in ("ru", "uk"):
        assert not re.search("[A-Za-z]", example)
