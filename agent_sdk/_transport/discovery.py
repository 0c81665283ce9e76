"""Finding the cursor-agent binary. Blocking (filesystem probes): run it in a worker thread."""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import AgentNotFoundError

INSTALL_HINT = (
    "Install the Cursor CLI with `curl https://cursor.com/install -fsS | bash`, or point "
    "agent_sdk at the binary with AgentOptions(binary=...) or the CURSOR_AGENT_BIN "
    "environment variable. To try agent_sdk without it, use the bundled fake agent: "
    "AgentOptions(binary=fake_agent.executable())."
)


def _resolve(name: str, path: str | None) -> str | None:
    """An executable file for a path (anything with a separator) or a name on PATH."""
    import shutil
    from pathlib import Path

    if os.sep in name or (os.altsep and os.altsep in name):
        candidate = Path(name).expanduser()
        return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None
    return shutil.which(name, path=path)


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

    Raises:
        AgentNotFoundError: nothing was found; the message lists where it looked.
    """
    import shutil  # late, like everything slow here: this runs in a worker thread

    path = environ.get("PATH", os.defpath)
    for source, name in (
        ("AgentOptions.binary", explicit),
        ("CURSOR_AGENT_BIN", environ.get("CURSOR_AGENT_BIN")),
    ):
        if name:
            found = _resolve(os.fspath(name), path)
            if found is None:
                raise AgentNotFoundError(
                    f"{source} is {os.fspath(name)!r}, which is not an executable file "
                    f"(or not on PATH). {INSTALL_HINT}"
                )
            return found
    found = shutil.which("cursor-agent", path=path)
    if found:
        return found
    home = environ.get("HOME") or os.path.expanduser("~")
    local = _resolve(os.path.join(home, ".local", "bin", "cursor-agent"), path)
    if local:
        return local
    agent = shutil.which("agent", path=path)
    if agent and _is_cursor_agent(agent):
        return agent
    raise AgentNotFoundError(
        "cursor-agent was not found (looked at CURSOR_AGENT_BIN, `cursor-agent` on PATH, "
        f"~/.local/bin/cursor-agent and `agent` on PATH). {INSTALL_HINT}"
    )
