"""The architecture as a reader sees it, read from the source independently of import-linter.

Every import counts, those made only for annotations (under ``TYPE_CHECKING``) too: a reader
follows ``svc: Services`` to its module as much as a call.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400
# Being split into the sending wing (issue 29, item 1): drop them from here when they are.
LONG_YET = {"bot.telegram.outbox", "bot.telegram.presenter"}


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
    assert set(long) - LONG_YET == set()
