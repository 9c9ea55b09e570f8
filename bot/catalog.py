"""The message catalogs: extraction from the source, merging into each language, checks.

``python -m bot.catalog extract`` collects every message id (below) and merges
them into each ``bot/locales/<lang>/LC_MESSAGES/cardtable.po``: new ids arrive
untranslated, changed ones leave their old translation as an obsolete ``#~``
entry. ``python -m bot.catalog check`` lists what a complete language lacks (``COMPLETE``;
``for_games``: complete for the bot's own texts and those games');
``python -m bot.catalog init uk`` starts a new language.

The message ids are:

- every literal first argument of a translator call in ``bot/`` (Babel's
  Python extractor), with its literal second argument as the plural form
  where there is one (``tr("{n} trick", "{n} tricks", n=n)``). A translator is
  any callee named ``tr``, ``*_tr`` or ``tr_*`` (``tr``, ``ctx.tr``,
  ``group_tr``...; not ``_private_tr`` helpers nor ``NOT_TRANSLATORS``), found by
  scanning the source,
  so a new name for a translator is picked up without listing it here;
- the messages the bot translates from data (``DYNAMIC``): the games' titles,
  lobby options and their values, command menus, table statuses.
  ``dynamic_calls`` finds every translator call whose argument is not a
  literal; each must match one of ``DYNAMIC``'s patterns, whose messages are
  declared here.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from bot.ui.i18n import DEFAULT_LANGUAGE, DOMAIN, LOCALES

ROOT = Path(__file__).parent
PROJECT = ROOT.parent
COMPLETE = ("ru", "uk", "ka")  # languages whose catalog must translate every message
NOT_TRANSLATORS = {"tr_chat", "tr_user", "str", "getattr", "setattr", "hasattr", "delattr"}
_TRANSLATOR = re.compile(r"^(tr|[a-z]\w*_tr|tr_\w+)$")  # not _helpers_tr(...)
_PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
_TAG = re.compile(r"</?\w+[^>]*>")


@dataclass(frozen=True)
class Message:
    """``games``: the games whose own texts alone use it (their plugin folders and
    options); empty for the bot's own texts, which every game shows."""

    text: str
    where: str  # "bot/hub.py" or "declared: <what>"
    games: frozenset[str] = frozenset()
    plural: str | None = None  # the plural form of a message that counts

    @property
    def id(self) -> str | tuple[str, str]:
        """The catalog's id: the text, or (singular, plural)."""
        return self.text if self.plural is None else (self.text, self.plural)


# -- the message ids ---------------------------------------------------------------------

def sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "locales" not in p.parts)


def _relative(path: Path) -> str:
    return path.relative_to(PROJECT).as_posix()


def _callee(node: ast.Call) -> str | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr \
        if isinstance(func, ast.Attribute) else None
    if name is None or name in NOT_TRANSLATORS or not _TRANSLATOR.match(name):
        return None
    return name


def translator_calls(path: Path) -> Iterator[tuple[str, ast.Call]]:
    """(callee name, call) for every translator call in a source file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args:
            name = _callee(node)
            if name is not None:
                yield name, node


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def dynamic_calls() -> list[tuple[str, int, str]]:
    """(file, line, argument) of each translator call whose message (or plural form) is not
    a literal."""
    found = []
    for path in sources():
        for _, call in translator_calls(path):
            for arg in call.args[:2]:
                if not _literal(arg):
                    found.append((_relative(path), call.lineno, ast.unparse(arg)))
    return found


Owned = tuple[str, str | None]  # a message and the game whose own text it is (None: the bot's)


def _game_messages() -> Iterator[Owned]:
    from bot.games import PLUGINS
    from engine.base import offered_values

    for plugin in PLUGINS.values():
        yield plugin.title, None  # every game's title is in the bot's menus
        options = plugin.options
        for key in options.keys:
            yield options.labels[key], plugin.name
            for value in offered_values(options.rules, key):
                name = options.name(key, value)
                if re.search(r"[^\W\d_]", name):  # figures are not translated
                    yield name, plugin.name


def _menu_messages() -> Iterator[Owned]:
    from bot.telegram.commands import COMMANDS

    for command in COMMANDS:
        yield from ((text, None) for text in (command.group, command.private)
                    if text is not None)


def _help_messages() -> Iterator[Owned]:
    from bot.telegram.commands import COMMANDS

    yield from ((command.help, None) for command in COMMANDS if command.help is not None)


def _status_messages() -> Iterator[Owned]:
    from storage.rows import Status

    yield from ((status, None) for status in get_args(Status))


@dataclass(frozen=True)
class Dynamic:
    """Translator arguments matching ``pattern`` (in any file) take their messages from
    ``messages``, each with the game whose text it is (None: the bot's own)."""

    pattern: str
    what: str
    messages: Callable[[], Iterable[Owned]]


DYNAMIC = (
    Dynamic(r"\.labels\[\w+\]$", "lobby option labels", _game_messages),
    Dynamic(r"\.name\(.*\)$", "lobby option values", _game_messages),
    Dynamic(r"\.title$", "game titles", _game_messages),
    Dynamic(r"(^|\.)status$", "table statuses", _status_messages),
    Dynamic(r"^text$", "command menus (bot/telegram/commands.py)", _menu_messages),
    Dynamic(r"\.help$", "the /help lines (bot/telegram/commands.py)", _help_messages),
)


def undeclared_calls() -> list[tuple[str, int, str]]:
    """Dynamic translator calls that no ``DYNAMIC`` pattern accounts for."""
    return [(where, line, arg) for where, line, arg in dynamic_calls()
            if not any(re.search(d.pattern, arg) for d in DYNAMIC)]


def _game_of(path: Path) -> str | None:
    """The game whose plugin folder a source file is in (None: the bot's own code)."""
    parts = path.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 and parts[0] == "games" else None


def messages() -> list[Message]:
    """Every message id with where it first comes from and the games it belongs to, in
    source order, each once."""
    where: dict[str, str] = {}
    owners: dict[str, set[str | None]] = {}
    plurals: dict[str, str] = {}

    def found(text: str, place: str, game: str | None) -> None:
        where.setdefault(text, place)
        owners.setdefault(text, set()).add(game)

    for path in sources():
        calls = list(translator_calls(path))
        names = {name for name, _ in calls}
        if not names:
            continue
        # Plural messages from the syntax tree first (Babel's (1, 2) spec would take any
        # later literal of the call for the plural), then Babel's singular ones.
        for _, call in calls:
            if len(call.args) > 1 and all(map(_literal, call.args[:2])):
                text, plural = (arg.value for arg in call.args[:2])  # type: ignore[attr-defined]
                plurals.setdefault(text, plural)
                found(text, _relative(path), _game_of(path))
        with path.open("rb") as fh:
            for _, text, _, _ in extract("python", fh, keywords=dict.fromkeys(names)):
                if isinstance(text, str) and text:
                    found(text, _relative(path), _game_of(path))
    for dynamic in DYNAMIC:
        for text, game in dynamic.messages():
            found(text, f"declared: {dynamic.what}", game)
    return [Message(text, place, frozenset() if None in owners[text] else
                    frozenset(g for g in owners[text] if g is not None), plurals.get(text))
            for text, place in where.items()]


def template() -> Catalog:
    catalog = Catalog(domain=DOMAIN, project="cardtable", locale=DEFAULT_LANGUAGE)
    for message in messages():
        catalog.add(message.id, locations=[(message.where, None)], flags=())
    return catalog


# -- the catalogs ----------------------------------------------------------------------

def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as fh:
        return read_po(fh, locale=language)


def write(catalog: Catalog, language: str) -> None:
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, include_lineno=False, width=100)
    path.write_bytes(buffer.getvalue())


def catalog_languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def merge(language: str, source: Catalog) -> tuple[int, int]:
    """Bring a language's catalog up to the source: (new ids, ids gone obsolete)."""
    catalog = read(language)
    before = {m.id for m in catalog if m.id}
    catalog.update(source, no_fuzzy_matching=True)
    after = {m.id for m in catalog if m.id}
    if after != before:
        write(catalog, language)
    return len(after - before), len(before - after)


def init(language: str) -> None:
    if po_path(language).exists():
        raise SystemExit(f"{po_path(language)} exists already")
    catalog = Catalog(domain=DOMAIN, project="cardtable", version="0.1", locale=language,
                      copyright_holder="the cardtable authors", fuzzy=False,
                      header_comment=f"# cardtable messages: {language}.\n"
                                     "# python -m bot.catalog extract brings in new messages.")
    catalog.update(template(), no_fuzzy_matching=True)
    write(catalog, language)


# -- checks ----------------------------------------------------------------------------

def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


def tags(text: str) -> list[str]:
    return sorted(re.sub(r"\s.*", ">", t) for t in _TAG.findall(text))


def for_games() -> dict[str, tuple[str, ...]]:
    """The languages that must translate every message but those only other games' screens
    use -> their games: a game's plugin names the languages its players speak (Hindi for
    Seep; a table of another game shows that game's own texts in English there)."""
    from bot.games import PLUGINS

    found: dict[str, tuple[str, ...]] = {}
    for plugin in PLUGINS.values():
        for language in plugin.languages:
            found[language] = (*found.get(language, ()), plugin.name)
    return found


def out_of_scope(language: str) -> set[str]:
    """The messages ``language`` need not translate: those only other games' texts use."""
    games = for_games().get(language)
    if games is None:
        return set()
    return {m.text for m in messages() if m.games and not m.games & set(games)}


def problems(language: str, source: Catalog | None = None) -> list[str]:
    """What keeps ``language`` from translating every message (of its games) correctly."""
    source = source or template()
    catalog = read(language)
    skip = out_of_scope(language)
    found = []
    for message in source:
        text = message.id if isinstance(message.id, str) else message.id[0]
        if not text or text in skip:
            continue
        where = next(iter(message.locations), ("?", None))[0]
        entry = catalog.get(text)
        forms = _forms(entry.string) if entry is not None else []
        if not forms or not all(forms) or message.pluralizable != entry.pluralizable:
            found.append(f"missing ({where}): {text!r}")
        elif entry.fuzzy:
            found.append(f"fuzzy ({where}): {text!r}")
        elif any(placeholders(form) != placeholders(text) for form in forms):
            found.append(f"placeholders differ ({where}): {text!r} -> {entry.string!r}")
        elif any(tags(form) != tags(text) for form in forms):
            found.append(f"HTML tags differ ({where}): {text!r} -> {entry.string!r}")
    return found


def _forms(string: object) -> list[str]:
    """A translation's forms: one, or one per plural form of the language."""
    return [str(f) for f in string] if isinstance(string, (list, tuple)) else [str(string or "")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.catalog", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("extract", "check", "init"))
    parser.add_argument("language", nargs="?", help="for init: the new language's code")
    args = parser.parse_args(argv)
    loose = undeclared_calls()
    for where, line, arg in loose:
        print(f"{where}:{line}: tr({arg}) is not a literal and not declared in bot/catalog.py")
    if args.command == "init":
        if not args.language:
            parser.error("init needs a language code")
        init(args.language)
        print(f"{po_path(args.language)} created")
        return 0
    source = template()
    if args.command == "extract":
        print(f"{len(source)} messages")
        for language in catalog_languages():
            new, gone = merge(language, source)
            print(f"{language}: {new} new, {gone} obsolete")
        return 1 if loose else 0
    bad = False
    for language in catalog_languages():
        found = problems(language, source)
        games = for_games().get(language)
        complete = language in COMPLETE or games is not None
        bad |= complete and bool(found)
        print(f"{language}: {len(found)} to do" + (
            f" (must be complete for the bot and {', '.join(games)})" if games else
            " (must be complete)" if complete else ""))
        for line in found if complete else ():
            print("  " + line)
    return 1 if bad or loose else 0


if __name__ == "__main__":
    sys.exit(main())
