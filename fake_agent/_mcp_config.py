"""Where the fake finds MCP servers, and whether a call may run (docs/protocol.md §7, §8).

- :func:`find_servers`: the project files ``<dir>/.cursor/mcp.json`` of the workspace and
  each of its parents, only with ``--approve-mcps`` (silently skipped otherwise, as the
  real CLI does), and the user file ``$HOME/.cursor/mcp.json``, loaded without approval.
  The first definition of a name wins, in the documented order project → global →
  nested: the workspace's own file, then the user file, then the parents' files, then
  the ``mcp.json`` files of ``--plugin-dir`` plugins (``_plugins.py``; where the real CLI
  ranks them is unknown).
- :func:`expand`: ``${env:NAME}``, ``${userHome}``, ``${workspaceFolder}``,
  ``${workspaceFolderBasename}``, ``${pathSeparator}`` / ``${/}`` in ``command``,
  ``args`` and ``env`` (anything else is left as written).
- :func:`permission`: ``--force`` runs a call unless a ``permissions.deny`` token covers
  it; without it only an ``Mcp(server:tool)`` token in ``permissions.allow`` of the
  effective ``cli-config.json`` does (``*`` as wildcard); deny always wins.

A file that is not JSON, or an entry that is not an object, is skipped: what the real CLI
says of it is unknown.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ._fleet import CONFIG_NAME, config_dir

_VARIABLE = re.compile(r"\$\{([^}]*)\}")
_TOKEN = re.compile(r"^Mcp\((.*):(.*)\)$")


class ServerEntry:
    """One configured server: its name, its entry (already expanded) and its file."""

    def __init__(self, name: str, entry: dict[str, Any], source: str) -> None:
        self.name = name
        self.entry = entry
        self.source = source

    @property
    def command(self) -> str | None:
        command = self.entry.get("command")
        return command if isinstance(command, str) and command else None

    @property
    def args(self) -> list[str]:
        args = self.entry.get("args", [])
        return [str(a) for a in args] if isinstance(args, list) else []

    def environment(self, base: Mapping[str, str]) -> dict[str, str]:
        """The server's environment: ``base`` updated with ``envFile``, then ``env``."""
        env = dict(base)
        env_file = self.entry.get("envFile")
        if isinstance(env_file, str) and env_file:
            env.update(_read_env_file(env_file))
        extra = self.entry.get("env", {})
        if isinstance(extra, dict):
            env.update({str(k): str(v) for k, v in extra.items()})
        return env


def _read_env_file(path: str) -> dict[str, str]:
    """``KEY=VALUE`` lines (``#`` comments, blank lines skipped); a missing file: none."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    found = {}
    for line in lines:
        key, eq, value = line.strip().partition("=")
        if eq and key and not key.startswith("#"):
            found[key.strip()] = value.strip()
    return found


def expand(value: Any, environ: Mapping[str, str], workspace: str) -> Any:
    """``value`` with the documented ``${...}`` variables expanded, in every string of it."""
    if isinstance(value, str):

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.startswith("env:"):
                return environ.get(name[4:], "")
            known = {
                "userHome": os.path.expanduser("~"),
                "workspaceFolder": workspace,
                "workspaceFolderBasename": os.path.basename(workspace),
                "pathSeparator": os.sep,
                "/": os.sep,
            }
            return known.get(name, match.group(0))

        return _VARIABLE.sub(one, value)
    if isinstance(value, list):
        return [expand(item, environ, workspace) for item in value]
    if isinstance(value, dict):
        return {key: expand(item, environ, workspace) for key, item in value.items()}
    return value


def user_file() -> str:
    """The user's MCP file: ``$HOME/.cursor/mcp.json`` (never the config dir, §7)."""
    return os.path.join(os.path.expanduser("~"), ".cursor", "mcp.json")


def _project_files(workspace: str) -> list[str]:
    """``.cursor/mcp.json`` of the workspace and of each parent, nearest first (the user
    file, met on the way up from a workspace under ``$HOME``, is not a project file)."""
    found = []
    here = os.path.abspath(workspace)
    user = os.path.abspath(user_file())
    while True:
        candidate = os.path.join(here, ".cursor", "mcp.json")
        if os.path.abspath(candidate) != user:
            found.append(candidate)
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent


def _servers_of(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return servers if isinstance(servers, dict) else {}


def find_servers(
    workspace: str,
    approve: bool,
    environ: Mapping[str, str],
    plugin_files: Sequence[str] = (),
) -> dict[str, ServerEntry]:
    """Every server the run may use, by name (see the module's docstring for the order)."""
    projects = _project_files(workspace) if approve else []
    order = [*projects[:1], user_file(), *projects[1:], *plugin_files]
    servers: dict[str, ServerEntry] = {}
    for path in order:
        for name, entry in _servers_of(path).items():
            if isinstance(entry, dict) and name not in servers:
                servers[name] = ServerEntry(name, expand(entry, environ, workspace), path)
    return servers


def _matches(pattern: str, value: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, value) is not None


def _covered(tokens: Any, server: str, tool: str) -> bool:
    if not isinstance(tokens, list):
        return False
    for token in tokens:
        match = _TOKEN.match(token) if isinstance(token, str) else None
        if match and _matches(match.group(1), server) and _matches(match.group(2), tool):
            return True
    return False


def _permissions(environ: Mapping[str, str]) -> dict[str, Any]:
    path = os.path.join(config_dir(environ), CONFIG_NAME)
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    permissions = data.get("permissions") if isinstance(data, dict) else None
    return permissions if isinstance(permissions, dict) else {}


def rule(server: str, tool: str, environ: Mapping[str, str]) -> str | None:
    """``"deny"`` or ``"allow"``: the permission tokens that cover a call of ``tool`` on
    ``server`` (deny wins, §8.3); None when none does."""
    permissions = _permissions(environ)
    if _covered(permissions.get("deny"), server, tool):
        return "deny"
    return "allow" if _covered(permissions.get("allow"), server, tool) else None


def permission(server: str, tool: str, force: bool, environ: Mapping[str, str]) -> bool:
    """Whether a call of ``tool`` on ``server`` may run in print mode (§8.3, §8.4)."""
    found = rule(server, tool, environ)
    return found != "deny" and (force or found == "allow")
