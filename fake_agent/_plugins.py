"""``--plugin-dir`` plugins: the per-run channel of docs/protocol.md §9
(fake_agent/scenarios/README.md, "Builds and plugins").

A plugin is a folder holding ``.cursor-plugin/plugin.json`` (a JSON object whose
``name`` is the documented kebab-case identifier), and optionally ``mcp.json`` (the
format of every other MCP file, §7) and ``hooks/hooks.json`` (the format of every other
hook file, §6.1). A folder without a readable, valid manifest is ignored without a word
(what the real CLI does then is unknown). What the fake takes from a plugin:

- its servers (:func:`plugin_server_files`), after every other file's: loaded without
  approval, or only with ``--approve-mcps`` when the build says so (``_build.py``); a
  ``no-mcp`` build loads none;
- its hooks (:func:`plugin_hook_files`), run in print mode beside every other source's,
  from the plugin's folder (the Cursor plugins' own hook files name their scripts
  ``./hooks/x.sh``, relative to it); under ACP none (acp-protocol §3.14, reported).
"""

from __future__ import annotations

import json
import os
import re
from typing import NamedTuple

from ._build import Build, PluginServers, Quirk

#: The documented form of a plugin's ``name``: lowercase kebab-case, alphanumerics,
#: hyphens and periods, starting and ending with an alphanumeric.
_NAME = re.compile(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?")


class Plugin(NamedTuple):
    """One loaded plugin: its manifest's name and its folder (absolute)."""

    name: str
    root: str

    @property
    def mcp_file(self) -> str:
        return os.path.join(self.root, "mcp.json")

    @property
    def hooks_file(self) -> str:
        return os.path.join(self.root, "hooks", "hooks.json")


def _name_of(root: str) -> str | None:
    """The manifest's ``name``, or None: no manifest, not a regular file (a FIFO would
    block the run), not JSON, not an object, or a name of the wrong form."""
    manifest = os.path.join(root, ".cursor-plugin", "plugin.json")
    if not os.path.isfile(manifest):
        return None
    try:
        with open(manifest, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and _NAME.fullmatch(name) else None


def load_plugins(dirs: list[str], build: Build) -> list[Plugin]:
    """The plugins of ``--plugin-dir`` (relative folders: from the fake's cwd), in the
    order given; the first of a name wins. None for an ``ignores-plugin-dir`` build."""
    if build.has(Quirk.IGNORES_PLUGIN_DIR):
        return []
    plugins: list[Plugin] = []
    for given in dirs:
        root = os.path.abspath(given)
        name = _name_of(root)
        if name is not None and all(plugin.name != name for plugin in plugins):
            plugins.append(Plugin(name, root))
    return plugins


def plugin_server_files(plugins: list[Plugin], approve: bool, build: Build) -> list[str]:
    """The plugins' ``mcp.json`` files the run reads: all of them, unless the build wants
    ``--approve-mcps`` for them and it was not given (then none, silently)."""
    if build.plugin_servers is PluginServers.NEEDS_APPROVAL and not approve:
        return []
    return [plugin.mcp_file for plugin in plugins]


def plugin_hook_files(plugins: list[Plugin]) -> list[tuple[str, str]]:
    """``(hooks file, the folder its commands run in)`` of each plugin."""
    return [(plugin.hooks_file, plugin.root) for plugin in plugins]
