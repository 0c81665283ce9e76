"""What fits on a terminal's line: the width of text in cells, and cutting or folding it.

The command line's progress goes to a terminal whose width it knows; a line wider than
the terminal wraps, and a status line redrawn with ``\\r\\x1b[K`` then clears only its last
row, leaving the rest behind at every frame (docs/cli.md, "Live output"). So every line
the renderer draws on a terminal is measured here first.

Widths follow Unicode's East Asian Width: wide and fullwidth characters take two cells,
combining marks and control characters none, everything else (ambiguous ones included, as
Western terminals draw them) one. ANSI colour sequences (``ESC [ ... m``) take none.
"""

from __future__ import annotations

import os
import re
import textwrap
import unicodedata
from typing import TextIO

__all__ = ["ReplyCursor", "cells", "cut", "fitted", "fold", "fold_parts", "terminal_columns"]

_SGR = re.compile(r"\x1b\[[0-9;]*m")
_RESET = "\x1b[0m"
_ELLIPSIS = "…"
_TAB = 8


def _char_cells(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes on one line (colour sequences take none)."""
    if text.isascii() and "\x1b" not in text:
        return sum(1 for char in text if char.isprintable())
    return sum(_char_cells(char) for char in _SGR.sub("", text))


def cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending in ``…`` when something was cut.

    Colour sequences are kept (and closed with a reset when the cut falls inside one), so
    a painted line stays painted.
    """
    if cells(text) <= width:
        return text
    if width <= 0:
        return ""
    room = width - 1  # for the ellipsis
    kept: list[str] = []
    painted = False
    position = 0
    for match in [*_SGR.finditer(text), None]:
        end = match.start() if match else len(text)
        for char in text[position:end]:
            size = _char_cells(char)
            if size > room:
                kept.append(_ELLIPSIS + (_RESET if painted else ""))
                return "".join(kept)
            room -= size
            kept.append(char)
        if match is None:
            break
        kept.append(match.group())
        painted = match.group() != _RESET
        position = match.end()
    return "".join(kept)  # pragma: no cover - cells() said it does not fit


def fold(
    text: str, width: int, *, indent: str | None = None, whole_words: bool = False
) -> list[str]:
    """Plain ``text`` folded into lines of at most ``width`` cells, at spaces where it can;
    the lines after the first begin with ``indent``, by default the first's own.

    A word wider than a line is cut in two, unless ``whole_words``: then it stays whole on
    a line of its own, wider than ``width`` (the terminal wraps it, but a path or a
    command stays one piece to copy)."""
    if cells(text) <= width:
        return [text]
    if indent is None:
        indent = text[: len(text) - len(text.lstrip(" "))]
    lines = textwrap.wrap(
        text,
        width=max(width, len(indent) + 1),
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=not whole_words,
        drop_whitespace=True,
    )
    if whole_words:
        # A word alone on its line that the indent pushes past the edge goes without it.
        lines = [line.lstrip(" ") if cells(line) > width else line for line in lines]
        return _no_orphan(lines, width, indent) or [""]
    # textwrap counts characters; a line of wide characters may still be too wide.
    return [cut(line, width) for line in lines] or [""]


def _no_orphan(lines: list[str], width: int, indent: str) -> list[str]:
    """Folded ``lines`` whose last holds one word take the word before it along, where
    that fits and leaves a word behind: no word alone at the end of a paragraph."""
    if len(lines) < 2 or len(lines[-1].split()) != 1:
        return lines
    head, _, word = lines[-2].rpartition(" ")
    last = f"{indent}{word} {lines[-1].strip()}"
    if not head.strip() or cells(last) > width:
        return lines
    return [*lines[:-2], head, last]


def fold_parts(head: str, parts: list[str], separator: str, width: int) -> list[str]:
    """``head`` followed by ``parts`` joined by ``separator``, in lines of at most
    ``width`` cells broken only between two parts (a line then ends with the separator's
    mark: `` ·`` for `` · ``), the lines after the first indented as wide as ``head``: a
    figure keeps its words, and no word is left alone on a line. A part too wide for a
    line of its own is folded at spaces."""
    trailing = separator.rstrip()
    indent = " " * cells(head)
    if cells(indent) + max(map(cells, parts), default=0) + cells(trailing) > width:
        indent = "  "  # too narrow to line the parts up under the first
    lines: list[str] = []
    line, empty = head, True
    for number, part in enumerate(parts):
        candidate = line + part if empty else line + separator + part
        room = 0 if number == len(parts) - 1 else cells(trailing)  # for a break after it
        if empty or cells(candidate) + room <= width:
            line, empty = candidate, False
        else:
            lines.append(line + trailing)
            line = indent + part
    lines.append(line)
    return [folded for line in lines for folded in fold(line, width, indent=indent)]


def fitted(text: str, stream: TextIO) -> str:
    """``text`` (lines) folded at spaces to the width of the terminal ``stream`` writes
    to, its lines' continuations indented by two spaces, no word cut (a word wider than
    the terminal stays whole); as it is when ``stream`` is no terminal. The line stays a
    cell short of the edge, where some terminals wrap already."""
    columns = terminal_columns(stream)
    if not columns:
        return text
    return "\n".join(
        folded
        for line in text.split("\n")
        for folded in fold(line, columns - 1, indent="  ", whole_words=True)
    )


def terminal_columns(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to; ``None`` when it is no terminal."""
    try:
        if not stream.isatty():
            return None
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None
    return columns or None


class ReplyCursor:
    """The terminal the reply goes to, knowing where its cursor stands on the last line:
    the cells written since the last line break (the terminal wraps them every
    ``columns`` cells).

    It wraps the terminal itself, below any redaction, so it counts what was really
    shown. The renderer draws its spinner after an unfinished line of the reply only when
    there is room; after a resize the column is unknown (terminals move or reflow the
    cursor in their own ways) until the next line break.

    Args:
        target: the terminal stream (``sys.stdout``).
    """

    def __init__(self, target: TextIO) -> None:
        self.target = target
        self.cells: int | None = 0

    def write(self, text: str) -> int:
        """Write ``text`` to the terminal and account for it."""
        written = self.target.write(text)
        self._advance(text)
        return written

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return True

    def _advance(self, text: str) -> None:
        _, newline, tail = text.rpartition("\n")
        if newline:
            self.cells = 0
            text = tail
        if self.cells is None or not text:
            return
        for char in text:
            if char == "\r":
                self.cells = 0
            elif char == "\t":
                self.cells += _TAB - self.cells % _TAB
            else:
                self.cells += _char_cells(char)

    def forget(self) -> None:
        """The terminal was resized: the column is unknown until the next line break."""
        self.cells = None

    def room(self, columns: int) -> int:
        """The cells left on the cursor's row of a ``columns``-wide terminal (0 when
        unknown, or when the row is full and the cursor waits to wrap)."""
        if self.cells is None or columns <= 0:
            return 0
        column = self.cells % columns
        if self.cells and not column:
            return 0  # exactly full: the next character wraps
        return columns - column
