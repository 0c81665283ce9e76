"""A fleet task's Python tools (``Task(options=AgentOptions(tools=[...]))``, docs/extend.md,
"In a fleet").

A task in a worktree the fleet owns reaches its tools through that tree, not through a
HOME of its own (the user's login in the keychain stays seen): the project file
``<worktree>/.cursor/mcp.json`` names the relay (the token as ``${env:...}``), the run gets
``--approve-mcps`` (project servers load only approved, docs/protocol.md §7), and its config
dir (the fleet's isolated one, else a private copy) allows ``Mcp(agent_sdk:*)`` (§8.4). The
host serves for the whole task (its retries too). The file is removed after the runs and
before the task's changes are read: nothing of it is in ``changes``.

Other tasks keep ``tools`` in their options: each run serves them itself, with its own
HOME, as any print-mode run (``_transport/tools_home.py``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec

from .._protocol.redaction import redaction_of
from .._transport.config_dir import CONFIG_DIR_ENV, CONFIG_NAME, PrivateConfig, user_config_dir
from .._transport.tools_home import allow_rule_added, mcp_file
from ..errors import AgentStartError
from ..extend._host import TOKEN_ENV, ToolHost, open_host
from ..extend._served import SERVED_FOR_RUNS
from ..options import AgentOptions
from ._worktree import Worktree

__all__ = ["PROJECT_FILE", "task_tools"]

PROJECT_FILE = Path(".cursor", "mcp.json")


@contextlib.asynccontextmanager
async def task_tools(
    options: AgentOptions, tree: Worktree | None, config_dir: Path | None
) -> AsyncIterator[AgentOptions]:
    """The options the task's runs take: as given, unless the task has tools and runs in
    a worktree whose ``.cursor/mcp.json`` is free (see the module's docstring); then the
    tools are served here until the block ends, and the file goes with them.

    Raises:
        AgentStartError: the socket, the file or the config could not be made.
    """
    if not options.tools or tree is None or (tree.path / PROJECT_FILE).exists():
        yield options  # the runs serve them (their own HOME), if any
        return
    host = ToolHost(options.tools, redact=redaction_of(options, os.environ).text)
    open_host(host)
    made: list[Path] = []
    private: PrivateConfig | None = None
    try:
        host.start()
        env = dict(options.env or {})
        try:
            made = _write_project_file(tree.path, mcp_file(host))
            if config_dir is None:  # no isolation: a private copy of the user's config
                private = PrivateConfig(user_config_dir({**os.environ, **env}))
                config_dir = private.path
            allow_rule_added(config_dir / CONFIG_NAME)
        except OSError as exc:
            raise AgentStartError(
                f"could not give the task's worktree its tools' MCP file: {exc}",
                hint="check that the worktree's directory and TMPDIR are writable",
            ) from exc
        env.update({CONFIG_DIR_ENV: str(config_dir), TOKEN_ENV: host.token})
        # The task's runs started in this context pair their calls with this host's.
        served = SERVED_FOR_RUNS.set(host.calls)
        try:
            yield msgspec.structs.replace(options, tools=(), approve_mcps=True, env=env)
        finally:
            SERVED_FOR_RUNS.reset(served)
    finally:
        for path in made:  # the file, then the directory if we made it
            with contextlib.suppress(OSError):
                path.rmdir() if path.is_dir() else path.unlink()
        if private is not None:
            private.release()
        await host.aclose()


def _write_project_file(root: Path, content: bytes) -> list[Path]:
    """``root/.cursor/mcp.json`` written; what was made, to remove in this order."""
    made: list[Path] = []
    folder = root / PROJECT_FILE.parent
    if not folder.is_dir():
        folder.mkdir(mode=0o700)
        made.append(folder)
    target = root / PROJECT_FILE
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    made.insert(0, target)
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    return made
