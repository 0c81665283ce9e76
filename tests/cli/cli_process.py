"""Running ``python -m agent_sdk`` as a child process, for the command line's tests."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from proctable import processes_with_arg as processes_with_arg

DATA = Path(__file__).resolve().parents[1] / "data" / "cli"
# tools.stream.ndjson: `fake-cursor-agent --print --output-format=stream-json --trust
# --resume=<SESSION> -- "add a test"` run in / with FAKE_AGENT_SCENARIO=tools.
RECORDED = DATA / "tools.stream.ndjson"
SESSION = "7f3c9d2e-0a41-4b8e-9c55-2d6e1f0a7b31"
ESC = "\x1b["


def cli_env(**extra: str) -> dict[str, str]:
    """This environment without what would change the CLI's behaviour, ``extra`` on top
    (``COLUMNS`` and ``LINES`` too: argparse would take them over a terminal's size)."""
    drop = ("NO_COLOR", "FAKE_AGENT_SCENARIO", "CURSOR_AGENT_BIN", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def cli(*args: str, input: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m agent_sdk ARGS`` to completion, text captured (so not a TTY)."""
    return subprocess.run(
        [sys.executable, "-m", "agent_sdk", *args],
        capture_output=True,
        text=True,
        input=input if input is not None else "",
        timeout=60,
        env=cli_env(**env),
    )


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True
