"""The ``"plugin"`` channel of a run's own tools and hooks (docs/extend.md, "The CLI's
side"; docs/protocol.md §9): a per-run plugin folder, given to the CLI with
``--plugin-dir``, in the documented plugin layout:

- ``.cursor-plugin/plugin.json``: the plugin's name;
- ``mcp.json``: only our server, ``agent_sdk`` (the relay, the socket's path, the token
  as ``${env:...}``), when the run has tools;
- ``hooks/hooks.json``: the relay in hook mode for each event the run's hooks answer,
  when it has hooks (hooks from every source run: the user's own keep running beside).

``HOME`` is left alone: the CLI stays signed in (the macOS keychain), and the user's own
MCP servers, skills and hooks load as in any run. Nothing is written in the user's tree
or config; nothing is approved (no ``--approve-mcps``: it is blanket, docs/protocol.md §7).
Whether the CLI loads a plugin's server without approval is unknown: a run checks that
its tools and hooks were reached before the agent acts (``channel_check.py``).

The folder is in a private 0700 directory of the temp dir, with the owner marker of
``_transport/owner.py`` (one left by a process that died is swept by the next run).
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path

import msgspec

from .._transport.owner import PREFIXES, mark, sweep
from ..options import Invocation
from ._hooks import hooks_file
from ._host import ToolHost, relay_command

__all__ = ["PLUGIN_NAME", "PREFIX", "make_plugin", "with_plugin_dir"]

PREFIX = PREFIXES[5]
"""How the names of the run-specific plugin folders' directories begin (temp dir)."""
PLUGIN_NAME = "agent-sdk"
"""The plugin's name in its ``plugin.json``."""


def make_plugin(host: ToolHost, mcp_json: bytes | None) -> Path:
    """The owned directory whose ``plugin`` is the run's plugin folder (see the module's
    docstring). ``mcp_json``: the server's file, when the run has tools.

    Raises:
        OSError: the directory or a file could not be made (nothing is left then).
    """
    sweep(PREFIX, functools.partial(shutil.rmtree, ignore_errors=True))
    owned = Path(tempfile.mkdtemp(prefix=PREFIX)).resolve()  # mode 0700
    try:
        mark(owned)
        folder = owned / "plugin"
        (folder / ".cursor-plugin").mkdir(mode=0o700, parents=True)
        manifest = {"name": PLUGIN_NAME, "description": "this run's own tools and hooks"}
        _write(folder / ".cursor-plugin" / "plugin.json", msgspec.json.encode(manifest))
        if mcp_json is not None:
            _write(folder / "mcp.json", mcp_json)
        if host.hooks is not None:
            (folder / "hooks").mkdir(mode=0o700)
            command = relay_command("hook", host.socket_path)
            _write(folder / "hooks" / "hooks.json", hooks_file(host.hooks, command))
    except BaseException:
        shutil.rmtree(owned, ignore_errors=True)
        raise
    return owned


def with_plugin_dir(invocation: Invocation, owned: Path) -> Invocation:
    """``invocation`` given the plugin folder of ``owned``: ``--plugin-dir`` right after
    the output format, before any flag of the user's (``extra_args``) and the prompt."""
    argv = list(invocation.argv)
    argv.insert(3, f"--plugin-dir={owned / 'plugin'}")
    return msgspec.structs.replace(invocation, argv=argv)


def _write(path: Path, content: bytes) -> None:
    """``path`` written whole before it has its name (docs/protocol.md §6.1: a CLI that
    reads a hook file half-written, or empty, runs no hooks)."""
    partial = path.with_name(f".{path.name}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    os.replace(partial, path)
