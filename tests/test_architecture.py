"""The architecture as a reader sees it, read from the source independently of import-linter.

Every import counts, those made only for annotations (under ``TYPE_CHECKING``) too: a reader
follows ``svc: Services`` to its module as much as a call.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400


def _modules(package: str) -> dict[str, Path]:
    """Module name -> file, for every module of ``package`` (a package is its __init__)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` imports, at any depth of its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from a import b`` imports the module a.b when there is one, else a's name b
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def _graph(package: str) -> dict[str, set[str]]:
    modules = _modules(package)
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_reads_type_checking_imports() -> None:
    """The reading itself: an import under TYPE_CHECKING is an edge (the check below would
    pass vacuously otherwise)."""
    graph = _graph("bot")
    assert "bot.service.ports" in graph["bot.service.play"]  # ``svc: Services`` only
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles_in_bot() -> None:
    assert _cycles(_graph("bot")) == []


def test_no_import_cycles_in_engine_and_storage() -> None:
    assert _cycles(_graph("engine")) == []
    assert _cycles(_graph("storage")) == []


def test_bot_modules_are_small() -> None:
    long = {name: n for name, path in _modules("bot").items()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}


# -- one folder per game -------------------------------------------------------------------

CARD_WORDS = {"joker"}  # also a card (engine.cards, the Mini App's card faces), not only a game


def _own(path: Path, games: set[str]) -> bool:
    """A file a game may be named in: its own folders, the registry, the catalogs."""
    parts = path.relative_to(ROOT).parts
    return ((parts[:1] in (("engine",), ("bot",)) and len(parts) > 2
            and (parts[1] in games or parts[1:3] in {("games", g) for g in games}))
            or parts == ("engine", "games.py") or "locales" in parts)


def _named_in_python(path: Path, games: set[str]) -> list[str]:
    """Where a module names a game in code: a string (not a docstring) with a game's name as a
    word, or a name with a game's as one of its parts (``preferans_deck``)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    word = re.compile(r"(?i)\b(" + "|".join(sorted(games)) + r")\b")
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and word.search(node.value):
                found.append(f"{path.name}:{node.lineno} {node.value[:40]!r}")
            continue
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute | ast.keyword | ast.arg | ast.alias):
            names = [getattr(node, a) or "" for a in ("attr", "arg", "name", "asname")
                     if hasattr(node, a)]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            if set(re.split(r"[._]", name.lower())) & (games - CARD_WORDS):
                found.append(f"{path.name}:{getattr(node, 'lineno', '?')} {name}")
    return found


def test_a_game_is_named_only_in_its_own_folders() -> None:
    """Adding a game touches engine/<game>/, bot/games/<game>/, one line of engine/games.py
    and the catalogs: no other module of the bot, the engine or the storage lists the games
    (they come from ``engine.games.GAMES``)."""
    from engine.games import GAMES

    games = set(GAMES)
    assert games >= {"preferans", "seep", "joker"}
    found = []
    for package in ("bot", "engine", "storage"):
        for path in sorted((ROOT / package).rglob("*")):
            if not path.is_file() or _own(path, games):
                continue
            if path.suffix == ".py":
                found += [f"{path.relative_to(ROOT)}: {f}" for f in _named_in_python(path, games)]
            elif path.suffix in (".js", ".css", ".html"):
                word = re.compile(r"(?i)\b(" + "|".join(sorted(games - CARD_WORDS)) + r")\b")
                found += [f"{path.relative_to(ROOT)}" for _ in word.finditer(path.read_text())]
    assert found == []


def test_the_check_finds_a_game_named_in_code(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Preferans in a docstring is prose."""\n'
                      'from engine.seep.pack import seep_deck\n'
                      'DRAW = {"preferans": 1}\nis_joker = True\n')
    found = _named_in_python(module, {"preferans", "seep", "joker"})
    assert [f.split(" ", 1)[0] for f in found] == ["m.py:2", "m.py:2", "m.py:3"]
