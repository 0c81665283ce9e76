"""Entry point: ``python -m fake_agent`` and the ``fake-cursor-agent`` script."""

from __future__ import annotations

import os
import sys

from ._credentials import LEAK_ENV, credentials, fail_leaking
from ._flags import FlagError, parse_args
from ._models import VERSION
from ._wire import write_stderr, write_stdout


def _dispatch(argv: list[str]) -> int:
    try:
        options = parse_args(argv)
    except FlagError as exc:
        write_stderr(f"{exc}\n")
        return 1
    if os.environ.get(LEAK_ENV):  # a fault mode: fail everything, printing the credentials
        return fail_leaking(credentials(options.api_key, options.headers, os.environ))
    if options.version:
        write_stdout(f"{VERSION}\n")
        return 0
    # The modules below are imported on demand to keep start-up light.
    if options.help or options.list_models or options.command is not None:
        from ._commands import help_text, models_text, run_command

        if options.help:
            write_stdout(help_text())
            return 0
        if options.list_models:
            write_stdout(models_text())
            return 0
        return run_command(options)
    from ._run import run_headless

    return run_headless(options)


def main(argv: list[str] | None = None) -> int:
    """Behave like ``cursor-agent`` with ``argv`` (default: the process's); return the exit code."""
    try:
        return _dispatch(sys.argv[1:] if argv is None else argv)
    except BrokenPipeError:
        # The reader went away (a wrapper that stopped early). Point stdout at
        # /dev/null so the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
