"""The argument parser of ``agent-sdk``'s commands: argparse's, with short usage errors,
both fitted to the terminal at word boundaries.

argparse answers a usage error with the whole usage first: for ``agent-sdk [run]``,
thirteen lines of flags above the one line that says what is wrong. A user who typed one
flag wrong needs that line, and where the rest is: ``agent-sdk: error: MESSAGE`` and a
pointer to ``--help`` (the same ``agent-sdk: error:`` the commands' other errors begin
with, ``args.print_error``). On a terminal it is folded at spaces to the width: a line
wider than the terminal is wrapped by the terminal wherever the edge falls (``a`` /
``gent-sdk --fake ...``).

The help's usage has the same trouble: argparse fits it to ``COLUMNS`` but keeps each
``[--flag VALUE]`` whole after an indent as wide as ``usage: agent-sdk [run]``, so in a
narrow terminal a group wider than what is left runs past the edge, and the terminal cuts
it mid-word. :class:`FittedUsage` folds such a usage again, at word boundaries.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any, NoReturn

from ._screen import fitted

__all__ = ["CommandParser", "FittedRawUsage", "FittedUsage", "fold_usage"]

_USAGE_INDENT = 4  # of a usage folded again: the lines after "usage: agent-sdk ..."


def _groups(usage: str) -> list[str]:
    """The usage's words, a bracketed group (``[--color {auto,always}]``) kept as one."""
    groups: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(usage + " "):
        if char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(depth - 1, 0)
        elif char == " " and depth == 0:
            if index > start:
                groups.append(usage[start:index])
            start = index + 1
    return groups


def _packed(words: Iterable[str], width: int, indent: str) -> list[str]:
    """``words`` in lines of at most ``width`` characters, the lines after the first
    beginning with ``indent``; a word wider than a line has one of its own."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def fold_usage(usage: str, width: int) -> list[str]:
    """A one-line usage (``usage: agent-sdk [run] [-h] ...``) in lines of at most
    ``width`` characters: broken between groups where they fit, inside a group (at its
    spaces) only where one alone does not."""
    indent = " " * min(_USAGE_INDENT, max(width // 4, 1))
    room = width - len(indent)
    words: list[str] = []
    for group in _groups(usage):
        words += [group] if len(group) <= room else group.split(" ")
    return _packed(words, width, indent)


class FittedUsage(argparse.HelpFormatter):
    """argparse's formatter, whose usage a narrow terminal gets folded at word boundaries
    rather than cut by the terminal."""

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None,
    ) -> str:
        actions, groups = list(actions), list(groups)
        text = super()._format_usage(usage, actions, groups, prefix)
        if all(len(line) <= self._width for line in text.splitlines()):
            return text
        width, self._width = self._width, sys.maxsize  # the usage on one line, then folded
        try:
            one = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width = width
        return "\n".join(fold_usage(" ".join(one.split()), width)) + "\n\n"


class FittedRawUsage(FittedUsage, argparse.RawDescriptionHelpFormatter):
    """:class:`FittedUsage` with the description and epilog as written."""


# The formatter a CommandParser uses for the one asked for.
_FITTED: dict[type[argparse.HelpFormatter], type[argparse.HelpFormatter]] = {
    argparse.HelpFormatter: FittedUsage,
    argparse.RawDescriptionHelpFormatter: FittedRawUsage,
}


class CommandParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose usage errors are two short lines, and
    whose help's usage fits a narrow terminal (argparse's formatters are swapped for
    :class:`FittedUsage` and :class:`FittedRawUsage`).

    Args:
        command: the command as a user types it (``agent-sdk``, ``agent-sdk batch``): the
            errors begin with it, and the pointer to the help names it.
        *args, **kwargs: as for :class:`argparse.ArgumentParser`.
    """

    def __init__(self, *args: Any, command: str, **kwargs: Any) -> None:
        chosen = kwargs.get("formatter_class", argparse.HelpFormatter)
        kwargs["formatter_class"] = _FITTED.get(chosen, chosen)
        super().__init__(*args, **kwargs)
        self.command = command

    def error(self, message: str) -> NoReturn:
        help_ = f"({self.command} --help lists every flag)"
        self.exit(2, fitted(f"{self.command}: error: {message}\n{help_}", sys.stderr) + "\n")
