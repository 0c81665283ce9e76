"""Where the fake agent's command is, for ``AgentOptions(binary=...)``."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def executable() -> str:
    """The absolute path of the ``fake-cursor-agent`` console script.

    It is installed beside the interpreter (``.venv/bin``), which need not be on PATH
    when a venv's Python is run without activating the venv; PATH is searched next.
    ``agent-sdk --fake-path`` prints it, whichever ``python`` is first on PATH.

    Raises:
        FileNotFoundError: the package is importable but its script is not installed
            for this interpreter: another Python than the one agent_sdk was installed
            with (the message names it), or ``PYTHONPATH`` points at a checkout.
    """
    beside = Path(sys.executable).with_name("fake-cursor-agent")
    if beside.is_file():
        return str(beside)
    found = shutil.which("fake-cursor-agent")
    if found is None:
        # Most often a `python` that is not the venv's, run in the checkout (where the
        # import works): installing again is not the fix, that venv's own command is.
        raise FileNotFoundError(
            f"the fake-cursor-agent script is not installed for this Python "
            f"({sys.executable}) nor on PATH: run the Python agent_sdk was installed with "
            "(a venv's: .venv/bin/python), or ask its command for the path: "
            ".venv/bin/agent-sdk --fake-path; if agent_sdk is not installed anywhere, "
            "run `pip install .` in its checkout (or use `python -m fake_agent`)"
        )
    return os.path.abspath(found)
