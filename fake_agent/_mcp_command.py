"""``cursor-agent mcp list`` and ``mcp list-tools <name>`` (docs/protocol.md §1, "Subcommands";
§7): the servers a print run in this directory would load, from every source the build
honours (``--plugin-dir`` included, given before ``mcp``), started and asked for their
tools. What the real CLI prints is not recorded: the fake prints ``<name>: ready`` (as
``mcp list`` was reported to show a server) and one tool name per line."""

from __future__ import annotations

import os

from ._build import Build, Quirk, build_of
from ._flags import Options
from ._fleet import logged_in
from ._mcp_call import McpServers
from ._mcp_client import McpError
from ._mcp_config import ServerEntry, find_servers
from ._plugins import load_plugins, plugin_server_files
from ._wire import write_stderr, write_stdout

__all__ = ["run_mcp"]

USAGE = "Usage: cursor-agent mcp list | list-tools <name>\n"


def run_mcp(options: Options, operands: list[str]) -> int:
    """Run ``mcp OPERANDS``; the exit code."""
    try:
        build = build_of(os.environ)
    except ValueError as exc:
        write_stderr(f"fake_agent: {exc}\n")
        return 2
    if operands[:1] == ["list"] and len(operands) == 1:
        names = list(_servers(options, build).entries)
        listed = "".join(f"{name}: ready\n" for name in names)
        write_stdout(listed or "No MCP servers configured\n")
        return 0
    if operands[:1] == ["list-tools"] and len(operands) == 2:
        servers = _servers(options, build)
        try:
            connection = servers.connection(operands[1])
            write_stdout("".join(f"{tool['name']}\n" for tool in connection.tools))
        except McpError as exc:
            write_stderr(f"{exc}\n")
            return 1
        finally:
            servers.end()
        return 0
    write_stderr(USAGE)
    return 1


def _servers(options: Options, build: Build) -> McpServers:
    """The servers a print run here would load (none when signed out or under no-mcp)."""
    workspace = options.workspace or os.getcwd()
    approve = options.approve_mcps
    entries: dict[str, ServerEntry] = {}
    if logged_in(options.api_key, os.environ) and not build.has(Quirk.NO_MCP):
        plugins = load_plugins(options.plugin_dirs, build)
        plugin_files = plugin_server_files(plugins, approve, build)
        entries = find_servers(workspace, approve, os.environ, plugin_files)
    return McpServers(workspace, approve, os.environ, entries)
