"""Where the fake agent's command is, for ``AgentOptions(binary=...)``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def executable() -> str:
    """The path of the ``fake-cursor-agent`` console script.

    It is installed beside the interpreter (``.venv/bin``), which need not be on PATH
    when a venv's Python is run without activating the venv; PATH is searched next.

    Raises:
        FileNotFoundError: the package is importable but its script is not installed
            (e.g. ``PYTHONPATH`` points at a checkout): run ``pip install .``.
    """
    beside = Path(sys.executable).with_name("fake-cursor-agent")
    if beside.is_file():
        return str(beside)
    found = shutil.which("fake-cursor-agent")
    if found is None:
        raise FileNotFoundError(
            "the fake-cursor-agent script is not installed; run `pip install .` "
            "(or use `python -m fake_agent`)"
        )
    return found
