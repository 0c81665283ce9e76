"""Running git, as the fleet's worktrees (``fleet/_worktree.py``) and the checkpoints
(``checkpoints/_git.py``) do: an argv list, never a shell; none of the caller's variables
that point git at another repository; never a prompt nobody would see.

A missing git surfaces as ``FileNotFoundError`` and any other failure to start it as
``OSError``: each caller turns them into its own error, with its own hint.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio

__all__ = ["LOCATION_VARS", "git_env", "run_git", "said"]

# Variables that point git at another repository, index or tree: inherited from a git hook
# or a caller's shell, they would make every command act on the wrong thing.
LOCATION_VARS = frozenset(("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"))
LOCATION_VARS |= {"GIT_COMMON_DIR", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE"}
LOCATION_VARS |= {"GIT_PREFIX", "GIT_IMPLICIT_WORK_TREE"}


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without :data:`LOCATION_VARS`, never prompting, plus
    ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in LOCATION_VARS}
    env["GIT_TERMINAL_PROMPT"] = "0"  # never wait on a prompt nobody sees
    env.update(extra or {})
    return env


async def run_git(
    cwd: Path,
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    *,
    config: Sequence[str] = (),
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``git -c core.quotePath=false [config] -C cwd args``, whatever its exit code.

    Args:
        config: more ``-c name=value`` pairs, as ``("-c", "name=value", ...)``.
        stdin: bytes for git's standard input (none: ``/dev/null``).

    Raises:
        FileNotFoundError: git is not installed.
        OSError: git could not be started.
    """
    argv = ["git", "-c", "core.quotePath=false", *config, "-C", str(cwd), *args]
    if stdin is None:
        return await anyio.run_process(
            argv, stdin=subprocess.DEVNULL, check=False, env=git_env(env)
        )
    return await anyio.run_process(argv, input=stdin, check=False, env=git_env(env))


def said(done: subprocess.CompletedProcess[bytes]) -> str:
    """What a git command that failed said (its stderr, else its stdout, else its code)."""
    text = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
    return text or f"exit code {done.returncode}"
