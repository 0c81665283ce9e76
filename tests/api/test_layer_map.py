"""docs/architecture.md's map is the code's: every module of ``agent_sdk`` is on one row of
its table, every entry of the table exists, and no import points from a row to a row
below it (the import graph of ``test_layers.py``: type-only imports and imports inside
functions count)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from test_layers import AGENT_SDK, Import, imports, modules

MAP = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
_ROW = re.compile(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \|")


def rows(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The table's rows, top-down: each layer's name and the modules and folders it
    lists (as dotted prefixes: ``_wire/`` is ``agent_sdk._wire``)."""
    found = []
    for line in text.splitlines():
        match = _ROW.match(line)
        if match:
            entries = re.findall(r"`([^`]+)`", match.group(3))
            found.append((match.group(2).strip(), tuple(_dotted(entry) for entry in entries)))
    return found


def _dotted(entry: str) -> str:
    name = entry.removesuffix("/").removesuffix(".py").replace("/", ".")
    return "agent_sdk" if name == "__init__" else f"agent_sdk.{name}"


def layer_of(module: str, table: Sequence[tuple[str, tuple[str, ...]]]) -> int | None:
    """The row of ``module``: the one listing it or its folder (the longest match)."""
    best: tuple[int, int] | None = None
    for index, (_, entries) in enumerate(table):
        for entry in entries:
            inside = entry != "agent_sdk" and module.startswith(entry + ".")
            if (module == entry or inside) and (best is None or len(entry) > best[1]):
                best = (index, len(entry))
    return None if best is None else best[0]


def arrows_back_up(
    edges: Iterable[Import], table: Sequence[tuple[str, tuple[str, ...]]]
) -> list[str]:
    """Each import from a row to a row below it, said with both rows."""
    found = []
    for edge in edges:
        source, target = layer_of(edge.source, table), layer_of(edge.target, table)
        if source is not None and target is not None and target > source:
            found.append(f"{table[source][0]} -> {table[target][0]}: {edge}")
    return found


TABLE = rows(MAP.read_text(encoding="utf-8"))


def test_the_map_has_the_layers_in_order() -> None:
    numbers = [
        int(m.group(1)) for m in map(_ROW.match, MAP.read_text().splitlines()) if m is not None
    ]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(TABLE) >= 8


def test_every_module_of_agent_sdk_is_on_the_map() -> None:
    missing = [name for name in modules(AGENT_SDK) if layer_of(name, TABLE) is None]
    assert missing == [], f"add them to a row of {MAP.name}'s table"


def test_every_entry_of_the_map_exists() -> None:
    known = set(modules(AGENT_SDK))
    ghosts = [entry for _, entries in TABLE for entry in entries if entry not in known]
    assert ghosts == []


def test_no_import_points_back_up_the_map() -> None:
    found = arrows_back_up(imports(AGENT_SDK), TABLE)
    assert found == [], (
        f"imports from a layer to one below it ({MAP.name}: a module imports only from "
        "its own row and the rows above):\n" + "\n".join(found)
    )


def test_an_arrow_back_up_is_seen() -> None:
    table = [("low", ("agent_sdk._wire",)), ("high", ("agent_sdk._run",))]
    down = Import("agent_sdk._run.engine", "agent_sdk._wire.stream", "engine.py", 1, "", "")
    up = Import("agent_sdk._wire.stream", "agent_sdk._run.engine", "stream.py", 1, "", "")

    assert arrows_back_up([down], table) == []
    assert arrows_back_up([up], table) == [f"low -> high: {up}"]


def test_the_root_holds_the_public_modules_the_layer_folders_and_few_private_ones() -> None:
    entries = [p for p in AGENT_SDK.iterdir() if p.name not in ("__pycache__", "py.typed")]
    private = [p.name for p in entries if p.is_file() and p.name.startswith("_")]
    private = [name for name in private if name not in ("__init__.py", "__main__.py")]
    assert len(private) <= 3, private
    listed = {entry for _, row in TABLE for entry in row}
    folders = [p.name for p in entries if p.is_dir()]
    assert [name for name in folders if f"agent_sdk.{name}" not in listed] == []
