"""Finding the cursor-agent binary (docs/protocol.md §1): ``locate_binary`` from async code,
``binary_for`` from code that may block."""

from __future__ import annotations

import os
from collections.abc import Mapping

import anyio

from ..errors import AgentNotFoundError
from ..options import AgentOptions

INSTALL_HINT = (
    "Install the Cursor CLI with `curl https://cursor.com/install -fsS | bash`, or point "
    "agent_sdk at the binary with AgentOptions(binary=...) or the CURSOR_AGENT_BIN "
    "environment variable. To try agent_sdk without it, use the bundled fake agent: "
    "AgentOptions(binary=fake_agent.executable())."
)


async def locate_binary(options: AgentOptions) -> str:
    """The CLI to run for these options, searched in a worker thread: the filesystem
    probes block, and a loop's blocking-call detectors rightly complain of them."""
    return await anyio.to_thread.run_sync(binary_for, options)


async def locate_cli(options: AgentOptions) -> tuple[str, str | None]:
    """The CLI to run and its version (:func:`installed_version`), in one worker thread."""
    return await anyio.to_thread.run_sync(_cli_for, options)


def _cli_for(options: AgentOptions) -> tuple[str, str | None]:
    binary = binary_for(options)
    return binary, installed_version(binary, options.cwd)


def binary_for(options: AgentOptions) -> str:
    """The CLI to run for these options (:func:`find_binary`, with their environment)."""
    return find_binary(options.binary, {**os.environ, **(options.env or {})})


def installed_version(binary: str, cwd: str | os.PathLike[str] | None = None) -> str | None:
    """The CLI's whole version string, from the install ``binary`` runs, read without
    starting a process; ``None`` when the binary lies in no install of that layout.

    The installer unpacks each release in ``…/cursor-agent/versions/<version>/`` and
    links the commands on PATH into it (docs/protocol.md §1, "Finding the binary"), so the
    real path of the binary names the release it runs now: a few ``lstat`` calls, where
    ``--version`` would start the CLI's node once more per run. Read just before the CLI
    starts, since the CLI updates itself between runs. A relative ``binary`` is taken
    from ``cwd``, as the child's exec takes it.
    """
    where = os.path.join(os.fspath(cwd), binary) if cwd is not None else binary
    try:
        real = os.path.realpath(where)
    except (OSError, ValueError):  # a link loop, a NUL: no version to read
        return None
    release = os.path.dirname(real)
    versions = os.path.dirname(release)
    if (
        os.path.basename(versions) == "versions"
        and os.path.basename(os.path.dirname(versions)) == "cursor-agent"
        and os.path.basename(release)
    ):
        return os.path.basename(release)
    return None


def _resolve(name: str, path: str) -> str | None:
    """An executable file for a path (anything with a separator) or a name on PATH."""
    if os.sep in name or (os.altsep and os.altsep in name):
        # As spelled, `~` expanded: `./cursor-agent` must stay a path for exec, which
        # searches PATH for a bare name.
        candidate = os.path.expanduser(name)
        return candidate if os.path.isfile(candidate) and os.access(candidate, os.X_OK) else None
    return _which(name, path)


def _which(name: str, path: str) -> str | None:
    """``shutil.which(name, path=path)`` as it is on POSIX, without importing shutil: that
    loads bz2, lzma and zlib, a few milliseconds of every short script (docs/benchmarks.md).
    """
    if not path:
        return None  # PATH="" finds nothing; PATH=":" looks in the current directory
    seen: set[str] = set()
    for directory in path.split(os.pathsep):
        if directory not in seen:
            seen.add(directory)
            candidate = os.path.join(directory, name)
            if (
                os.path.exists(candidate)
                and os.access(candidate, os.F_OK | os.X_OK)
                and not os.path.isdir(candidate)
            ):
                return candidate
    return None


def _why_not(name: str) -> str:
    """Why ``name``, which :func:`_resolve` did not find, is no program to run."""
    if os.sep not in name and not (os.altsep and os.altsep in name):
        return "which is not on PATH"
    candidate = os.path.expanduser(name)
    if not os.path.exists(candidate):
        return "which does not exist"
    return "which is a directory" if os.path.isdir(candidate) else "which is not executable"


def _fake_path_command() -> str:
    """The command that prints the fake agent's path: ``agent-sdk --fake-path``, by the
    path of the ``agent-sdk`` beside this interpreter when there is one (the venv's
    ``bin`` need not be on PATH)."""
    import shlex
    import sys

    beside = os.path.join(os.path.dirname(sys.executable), "agent-sdk")
    return f"{shlex.quote(beside) if os.path.isfile(beside) else 'agent-sdk'} --fake-path"


def _from_variable(value: str, path: str) -> str:
    """The CLI ``CURSOR_AGENT_BIN`` names. Set, it is the only place looked at: set but
    empty (a ``$(...)`` whose command failed) or wrong, a search of PATH could run a real
    cursor-agent where another binary, often the fake, was meant.

    Raises:
        AgentNotFoundError: the variable is empty or names no program; the hint says how
            to fix or unset it.
    """
    fake = f'for the bundled fake agent: export CURSOR_AGENT_BIN="$({_fake_path_command()})"'
    unset = "unset it (`unset CURSOR_AGENT_BIN`) to search PATH and ~/.local/bin"
    if not value.strip():
        raise AgentNotFoundError(
            "CURSOR_AGENT_BIN is set but empty",
            hint=f"{unset} for cursor-agent, or set it to the path of the CLI to run; {fake}",
        )
    found = _resolve(value, path)
    if found is None:
        raise AgentNotFoundError(
            f"CURSOR_AGENT_BIN is {value!r}, {_why_not(value)}",
            hint=f"set CURSOR_AGENT_BIN to the path of cursor-agent, or {unset}; {fake}",
        )
    return found


def _is_cursor_agent(path: str) -> bool:
    # Other tools install an `agent` too; the installer's `agent` is a link into a
    # cursor-agent install, so the resolved path names it.
    from pathlib import Path

    resolved = Path(path).resolve()
    return resolved.name == "cursor-agent" or "cursor-agent" in resolved.parts


def find_binary(explicit: str | os.PathLike[str] | None, environ: Mapping[str, str]) -> str:
    """The CLI to run, searched in the order of docs/protocol.md §1.

    ``explicit`` (``AgentOptions.binary``), then ``CURSOR_AGENT_BIN``, then
    ``cursor-agent`` on PATH, then ``~/.local/bin/cursor-agent``, then ``agent`` on
    PATH if it really is cursor-agent.

    A ``CURSOR_AGENT_BIN`` that is set is the only place looked at after ``explicit``.

    Raises:
        AgentNotFoundError: nothing was found (the message lists where it looked), or
            ``explicit`` or a set ``CURSOR_AGENT_BIN`` (empty, too) names no program (the
            message says why, the hint how to fix it).
    """
    path = environ.get("PATH", os.defpath)
    if explicit:
        found = _resolve(os.fspath(explicit), path)
        if found is None:
            raise AgentNotFoundError(
                f"AgentOptions.binary is {os.fspath(explicit)!r}, {_why_not(os.fspath(explicit))}",
                hint=INSTALL_HINT,
            )
        return found
    variable = environ.get("CURSOR_AGENT_BIN")
    if variable is not None:
        return _from_variable(variable, path)
    found = _which("cursor-agent", path)
    if found:
        return found
    home = environ.get("HOME") or os.path.expanduser("~")
    local = _resolve(os.path.join(home, ".local", "bin", "cursor-agent"), path)
    if local:
        return local
    agent = _which("agent", path)
    if agent and _is_cursor_agent(agent):
        return agent
    raise AgentNotFoundError(
        "cursor-agent was not found (looked at CURSOR_AGENT_BIN, `cursor-agent` on PATH, "
        "~/.local/bin/cursor-agent and `agent` on PATH)",
        hint=INSTALL_HINT,
    )
