"""The argument parser of ``agent-sdk``'s commands: argparse's, with short usage errors.

argparse answers a usage error with the whole usage first: for ``agent-sdk [run]``,
thirteen lines of flags above the one line that says what is wrong. A user who typed one
flag wrong needs that line, and where the rest is: ``agent-sdk: error: MESSAGE`` and a
pointer to ``--help`` (the same ``agent-sdk: error:`` the commands' other errors begin
with, ``args.print_error``).
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

__all__ = ["CommandParser"]


class CommandParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose usage errors are two short lines.

    Args:
        command: the command as a user types it (``agent-sdk``, ``agent-sdk batch``): the
            errors begin with it, and the pointer to the help names it.
        *args, **kwargs: as for :class:`argparse.ArgumentParser`.
    """

    def __init__(self, *args: Any, command: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command = command

    def error(self, message: str) -> NoReturn:
        help_ = f"({self.command} --help lists every flag)"
        self.exit(2, f"{self.command}: error: {message}\n{help_}\n")
