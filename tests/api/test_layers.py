"""No import cycle in ``agent_sdk`` (docs/architecture.md): the import graph, and its test.

The import graph is built from the source (``ast``), not from what Python happens to load:
every ``import`` and ``from ... import`` counts, relative or absolute, at the top of a
module, inside ``if TYPE_CHECKING:`` or inside a function. ``from . import x`` where ``x``
is a submodule is an edge to that submodule only; importing ``pkg.mod`` is not an edge to
``pkg`` (the package's ``__init__`` re-exporting its submodules would otherwise close a
cycle with each of them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import agent_sdk


@dataclass(frozen=True)
class Import:
    """One edge of the graph: ``source`` imports ``target`` at ``path:line``."""

    source: str
    target: str
    path: str
    line: int
    statement: str
    where: str  # "" at the top level; "type-only" or "in a function" when it is

    def __str__(self) -> str:
        where = f" ({self.where})" if self.where else ""
        return f"{self.path}:{self.line}: {self.statement}{where}  [-> {self.target}]"


def modules(package_dir: Path) -> dict[str, Path]:
    """Every module of the package in ``package_dir``, by dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [package_dir.name, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _targets(
    module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: Mapping[str, Path]
) -> list[str]:
    """The modules of the package that one import statement imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, node.module] if node.module else base)
    else:
        prefix = node.module or ""
    submodules = [f"{prefix}.{alias.name}" for alias in node.names]
    targets = [name for name in submodules if name in known]
    if len(targets) < len(submodules) and prefix in known:
        targets.append(prefix)  # a name defined in (or re-exported by) the module itself
    return targets


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(
    tree: ast.AST, where: str = ""
) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement under ``tree``, with where it is."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, where
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _statements(child, where or "in a function")
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.body:
                yield from _statements(ast.Module(body=[statement], type_ignores=[]), "type-only")
            for statement in child.orelse:
                yield from _statements(ast.Module(body=[statement], type_ignores=[]), where)
        else:
            yield from _statements(child, where)


def imports(package_dir: Path) -> list[Import]:
    """Every import, by one module of the package, of another module of it."""
    known = modules(package_dir)
    root = package_dir.parent
    edges: list[Import] = []
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, where in _statements(tree):
            statement = ast.unparse(node)
            for target in _targets(module, path.name == "__init__.py", node, known):
                if target != module:
                    edges.append(
                        Import(
                            module,
                            target,
                            path.relative_to(root).as_posix(),
                            node.lineno,
                            statement,
                            where,
                        )
                    )
    return edges


def cycles(nodes: Iterable[str], edges: Iterable[Import]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan): each is a set
    of modules that import one another, directly or not."""
    graph: dict[str, set[str]] = {node: set() for node in nodes}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

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
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def described(cycle: frozenset[str], edges: Iterable[Import]) -> str:
    """A cycle's modules and the imports that close it (those between its modules)."""
    lines = [f"cycle of {len(cycle)}: {', '.join(sorted(cycle))}"]
    inside = sorted(
        (e for e in edges if e.source in cycle and e.target in cycle),
        key=lambda e: (e.path, e.line, e.target),
    )
    lines += [f"    {edge}" for edge in inside]
    return "\n".join(lines)


def _graph_of(package_dir: Path) -> tuple[list[Import], list[frozenset[str]]]:
    edges = imports(package_dir)
    return edges, cycles(modules(package_dir), edges)


AGENT_SDK = Path(agent_sdk.__file__).parent


def test_agent_sdk_has_no_import_cycle() -> None:
    edges, found = _graph_of(AGENT_SDK)
    assert not found, (
        "import cycles: every import must point down (docs/architecture.md):\n"
        + "\n".join(described(c, edges) for c in found)
    )


def test_the_graph_sees_the_imports_that_matter() -> None:
    # A known edge of each kind, so that a graph that misses them (and so finds no cycle)
    # fails here rather than passing the tests above.
    edges = imports(AGENT_SDK)
    pairs = {(e.source, e.target) for e in edges}
    assert ("agent_sdk.live._agent", "agent_sdk.live._session") in pairs  # from ._x import
    assert ("agent_sdk", "agent_sdk.errors") in pairs  # __init__ re-exports
    assert ("agent_sdk.cli._doctor_checks", "agent_sdk") in pairs  # from .. import run_async


def _package(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_type_only_import_closes_a_cycle(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import A\nfrom .b import B\n",
            "pkg/a.py": "from .b import B\nclass A: ...\n",
            "pkg/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from .a import A\n"
                "class B: ...\n"
            ),
        },
    )
    edges, found = _graph_of(package)
    assert found == [frozenset({"pkg.a", "pkg.b"})]
    text = described(found[0], edges)
    assert "pkg/b.py:3: from .a import A (type-only)  [-> pkg.a]" in text
    assert "pkg/a.py:1: from .b import B  [-> pkg.b]" in text


def test_an_import_inside_a_function_closes_a_cycle(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "import pkg.d\n",
            "pkg/d.py": "def f():\n    from .sub import c\n    return c\n",
        },
    )
    edges, found = _graph_of(package)
    assert found == [frozenset({"pkg.sub.c", "pkg.d"})]
    assert "pkg/d.py:2: from .sub import c (in a function)  [-> pkg.sub.c]" in described(
        found[0], edges
    )


def test_a_package_re_exporting_its_modules_is_no_cycle(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import A\nfrom . import b\nVERSION = '1'\n",
            "pkg/a.py": "from . import b\nclass A: ...\n",
            "pkg/b.py": "import pkg.sub.c\n",
            "pkg/sub/__init__.py": "from .c import C\n",
            "pkg/sub/c.py": "class C: ...\n",
            "pkg/sub/d.py": "from .. import VERSION\n",
        },
    )
    edges, found = _graph_of(package)
    assert found == []
    assert {(e.source, e.target) for e in edges} == {
        ("pkg", "pkg.a"),
        ("pkg", "pkg.b"),
        ("pkg.a", "pkg.b"),
        ("pkg.b", "pkg.sub.c"),
        ("pkg.sub", "pkg.sub.c"),
        ("pkg.sub.d", "pkg"),  # a name of the package's __init__: an edge to it
    }
