"""A tool's words from its docstring: the description the agent reads, and one line per
parameter for the input schema (docs/extend.md, "Defining a tool").

Google style is understood: an ``Args:`` section (also ``Arguments:``, ``Parameters:``,
``Params:``) whose entries read ``name: text`` or ``name (type): text``, continued on more
deeply indented lines. The section is taken out of the description (its words are in the
schema, beside each parameter); every other section (``Returns:``, ``Raises:``,
``Example:``) stays in it, for the agent to read. A docstring in another style is the
description as it is.
"""

from __future__ import annotations

import inspect
import re

__all__ = ["split_docstring"]

_ARGS = re.compile(r"(?:Args|Arguments|Parameters|Params)\s*:\s*$")
_ENTRY = re.compile(r"(?P<name>\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(?P<text>.*)$")


def split_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The description (the docstring cleaned, its ``Args:`` section left out) and the
    parameters' texts by name. ``None`` or a blank docstring gives ``("", {})``."""
    lines = inspect.cleandoc(doc or "").splitlines()
    kept: list[str] = []
    params: dict[str, str] = {}
    i = 0
    while i < len(lines):
        if not _ARGS.match(lines[i]):
            kept.append(lines[i])
            i += 1
            continue
        i = _read_args(lines, i + 1, params)
    return "\n".join(kept).strip(), params


def _read_args(lines: list[str], i: int, params: dict[str, str]) -> int:
    """Read the entries of an ``Args:`` section from line ``i``; the index after it.

    The section is its indented lines (blank ones included); the first entry's indent
    is the entries' indent, and a line indented more continues the entry before it."""
    entry_indent: int | None = None
    current: str | None = None
    while i < len(lines) and (not lines[i].strip() or lines[i][:1] in (" ", "\t")):
        line = lines[i]
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        match = _ENTRY.match(text) if text else None
        if match and (entry_indent is None or indent <= entry_indent):
            entry_indent = indent
            current = match["name"].lstrip("*")
            params[current] = match["text"].strip()
        elif current is not None and text:
            params[current] = f"{params[current]} {text}".strip()
        i += 1
    return i
