"""The command line: ``agent-sdk [run] PROMPT... [options]``, ``agent-sdk replay FILE``,
``agent-sdk batch TASKS.jsonl``, ``agent-sdk rewind``, ``agent-sdk checkpoints`` and
``agent-sdk doctor``.

``args`` parses the arguments (the agent flags derived from AgentOptions), ``live`` runs
the agent, ``replay`` renders a recorded run, ``batch`` runs a file of tasks (a fleet),
``rewind`` undoes a checkpointed run and ``render`` is how events look on screen.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TextIO

from .args import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, print_error
from .live import run_main
from .replay import replay_main

__all__ = ["main"]


def _tolerant(stream: TextIO) -> TextIO:
    # A reply with emoji must not crash on a terminal whose encoding lacks them.
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    return stream


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``agent-sdk`` and ``python -m agent_sdk``; returns the exit status.

    Example::

        main(["--fake", "tools", "add a test"])  # 0
    """
    args = sys.argv[1:] if argv is None else list(argv)
    out, err = _tolerant(sys.stdout), _tolerant(sys.stderr)
    try:
        if args[:1] == ["replay"]:
            return replay_main(args[1:], out, err, sys.stdin)
        if args[:1] == ["batch"]:
            from .batch import batch_main  # only a batch needs the fleet

            return batch_main(args[1:], out, err, sys.stdin)
        if args[:1] in (["rewind"], ["checkpoints"]):
            from .rewind import checkpoints_main, rewind_main  # loads the checkpoints

            chosen = rewind_main if args[0] == "rewind" else checkpoints_main
            return chosen(args[1:], out, err)
        if args[:1] == ["doctor"]:
            from .doctor import doctor_main

            return doctor_main(args[1:], out, err)
        if args[:1] == ["run"]:
            args = args[1:]
        return run_main(args, out, err, sys.stdin)
    except KeyboardInterrupt:
        print_error(err, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`agent-sdk ... | head`): no traceback, and no second
        # error when Python flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
