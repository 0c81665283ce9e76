"""A forked child of a program with a run in progress does not touch that run's CLI when
it exits normally (docs/lifecycle.md, "When the program forks").

The exit-time kill list (docs/lifecycle.md, "Teardown") is inherited by a fork; the
child's ``atexit`` hooks run at its normal exit. A real program (parent_program.py) runs
a run in a thread, on asyncio or trio, forks, and the child calls ``sys.exit(0)``.
These are plain functions: the event loop that matters is the forking program's.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from parent_program import GUARD, start_parent

BACKENDS = ["asyncio", "trio"]


def fork_while_running(backend: str, directory: Path) -> list[str]:
    """What the forking program printed: whether the CLI lived on, how the run ended."""
    parent, _cli = start_parent(f"fork-{backend}", directory, wait="go")
    try:
        out, _ = parent.communicate(timeout=GUARD)
    except subprocess.TimeoutExpired:
        parent.kill()
        raise
    assert parent.returncode == 0
    return out.splitlines()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_exit_of_a_forked_child_leaves_the_cli_running(backend: str, tmp_path: Path) -> None:
    assert "alive after fork: True" in fork_while_running(backend, tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_run_succeeds_after_a_forked_child_exited(backend: str, tmp_path: Path) -> None:
    assert fork_while_running(backend, tmp_path)[-1] == "result: done"
