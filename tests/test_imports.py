"""No import cycle among the project's modules: every import of pram/, algorithms/ and
reports/, read from the source (module level and inside functions alike), forms a graph
without cycles, so each floor can be read from the bottom up and nothing calls back up."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Each floor's folder and the package it installs as.
FLOORS = {"pram": "pram", "algorithms": "pram.algorithms", "reports": "pram.reports"}


def modules() -> dict[str, Path]:
    """Every module of the three floors by its installed name."""
    found = {}
    for folder, package in FLOORS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):  # sub-packages too
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            found[".".join((package, *parts[:-1 if parts[-1] == "__init__" else None]))] = path
    return found


def _type_checking_only(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``: imports for the type checker alone, never run."""
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that module ``name`` imports, anywhere in its body."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text(), str(path))]
    while pending:
        node = pending.pop()
        if _type_checking_only(node):
            continue
        pending.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:  # ``from pram.reports import plots`` imports a module
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports."""
    known = modules()
    return {name: imports(name, path, set(known)) for name, path in known.items()}


def test_the_import_reader_finds_a_cycle() -> None:
    """The cycle finder reports a two-module and a three-module cycle, and not a chain."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_import_reader_sees_every_floor() -> None:
    """The graph holds every module of the three floors and the edges known to exist."""
    edges = graph()
    assert {"pram.machine", "pram.algorithms.mqar", "pram.reports.cli"} <= set(edges)
    assert "pram.algorithms.keys" in edges["pram.algorithms.mqar"]
    assert "pram.machine" in edges["pram.testing"]


def test_no_import_cycle() -> None:
    """No module imports, directly or through others, a module that imports it back."""
    assert cycles(graph()) == []
