"""Translations: gettext catalogs (``bot/locales/<lang>/LC_MESSAGES/cardtable.po``).

English is the source language: message ids are the English texts, with
``{name}`` placeholders filled by ``str.format``. A message whose wording
depends on a count has a plural form too: ``tr("{n} trick", "{n} tricks", n=3)``
picks the language's form for ``n`` (gettext's ngettext). Catalogs are compiled in
memory with Babel when first used, so no compiled files are kept in the tree.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "cardtable"
DEFAULT_LANGUAGE = "en"


def languages() -> list[str]:
    """English plus every language with a catalog (the folder is read once: a press must not
    need a file descriptor to learn the languages)."""
    return list(_languages())


@cache
def _languages() -> tuple[str, ...]:
    found = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT_LANGUAGE, *[lang for lang in found if lang != DEFAULT_LANGUAGE])


@cache
def _catalog(language: str) -> gettext.NullTranslations:
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def normalize(language: str | None) -> str:
    """A Telegram language_code ("ru", "en-US", "pt-br") -> a supported language."""
    code = (language or DEFAULT_LANGUAGE).split("-")[0].lower()
    return code if code in _languages() else DEFAULT_LANGUAGE


Translate = Callable[..., str]


def translator(language: str | None) -> Translate:
    """``tr("Trick {n}", n=3)``: the text in ``language``, formatted; with a plural form,
    ``tr("{n} trick", "{n} tricks", n=3)``, the form for the count ``n``."""
    catalog = _catalog(normalize(language))

    def tr(text: str, plural: str | None = None, /, **values: object) -> str:
        if plural is None:
            out = catalog.gettext(text)
        else:
            count = values["n"]
            assert isinstance(count, int), "a plural message counts with n="
            out = catalog.ngettext(text, plural, count)
        return out.format(**values) if values else out

    return tr
