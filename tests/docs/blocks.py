"""The fenced code blocks of README.md and docs/*.md, as a reader sees them.

A block is named by its file and the heading it sits under: ``readme:try-it-1`` is the
first Python block under "Try it" in README.md, ``extend:defining-a-tool-2`` the second
under "Defining a tool" in docs/extend.md. The tables of tests/docs/test_blocks.py use
those names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[^\s`]*)")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
PYTHON = {"python", "py", "python3"}


class Block(NamedTuple):
    path: Path  # the file the block is in
    heading: str  # the heading the block sits under
    number: int  # 1-based, among the python blocks under that heading in that file
    line: int  # 1-based line of the opening fence
    code: str

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-")
        return f"{self.path.stem.lower()}:{slug}-{self.number}"

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def fenced_blocks(text: str) -> list[tuple[str, str, int, str]]:
    """(language, heading, line, code) of every fenced block, in order."""
    blocks = []
    heading = "top"
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            if (match := HEADING.match(lines[i])) is not None:
                heading = match.group("title")
            i += 1
            continue
        fence, indent = opening.group("fence"), len(opening.group("indent"))
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        assert i < len(lines), f"line {start + 1}: a fenced block is never closed"
        i += 1  # the closing fence
        lang = opening.group("lang").lower()
        blocks.append((lang, heading, start + 1, "\n".join(body) + "\n"))
    return blocks


def documents() -> list[Path]:
    """README.md, then every page of docs/, in name order."""
    return [README, *sorted(DOCS.glob("*.md"))]


def python_blocks(paths: list[Path] | None = None) -> list[Block]:
    blocks: list[Block] = []
    for path in documents() if paths is None else paths:
        per_heading: dict[str, int] = {}
        for lang, heading, line, code in fenced_blocks(path.read_text(encoding="utf-8")):
            if lang in PYTHON:
                per_heading[heading] = per_heading.get(heading, 0) + 1
                blocks.append(Block(path, heading, per_heading[heading], line, code))
    return blocks
