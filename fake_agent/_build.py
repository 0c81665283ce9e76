"""Which CLI build the fake plays: the environment variables that make it a build that
does not honour a channel, so that a wrapper's detection of one can be tested
(docs/protocol.md §9; fake_agent/scenarios/README.md, "Builds and plugins").

- ``$FAKE_AGENT_BUILD``: a comma-separated list of :class:`Quirk` values (empty or unset:
  none). ``ignores-plugin-dir`` accepts ``--plugin-dir`` and loads nothing from it;
  ``no-hooks`` runs no hook of any source (a signed-out CLI, an old build);
  ``no-mcp`` starts no MCP server of any source (print mode and ACP).
- ``$FAKE_AGENT_PLUGIN_SERVERS``: whether a plugin's MCP servers need ``--approve-mcps``
  (:class:`PluginServers`). Unknown for the real CLI (§7, §9): the fake's default loads
  them without approval, ``needs-approval`` plays a build that skips them silently
  without the flag, as it skips unapproved project servers.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

#: Env var: the quirks of the build the fake plays (see :class:`Quirk`).
BUILD_ENV = "FAKE_AGENT_BUILD"
#: Env var: whether plugin servers need ``--approve-mcps`` (see :class:`PluginServers`).
PLUGIN_SERVERS_ENV = "FAKE_AGENT_PLUGIN_SERVERS"


class Quirk(enum.Enum):
    """One way a build does not honour a channel."""

    IGNORES_PLUGIN_DIR = "ignores-plugin-dir"
    NO_HOOKS = "no-hooks"
    NO_MCP = "no-mcp"


class PluginServers(enum.Enum):
    """When a ``--plugin-dir`` plugin's MCP servers load."""

    WITHOUT_APPROVAL = "no-approval"
    NEEDS_APPROVAL = "needs-approval"


class Build:
    """The build the environment asks the fake to play."""

    def __init__(self, quirks: frozenset[Quirk], plugin_servers: PluginServers) -> None:
        self.quirks = quirks
        self.plugin_servers = plugin_servers

    def has(self, quirk: Quirk) -> bool:
        """Whether this build has ``quirk``."""
        return quirk in self.quirks


def _choices(kind: type[enum.Enum]) -> str:
    return ", ".join(repr(member.value) for member in kind)


def build_of(environ: Mapping[str, str]) -> Build:
    """The build ``environ`` names.

    Raises:
        ValueError: a value the fake does not know (the fake's own setup is wrong).
    """
    quirks = set()
    for word in environ.get(BUILD_ENV, "").split(","):
        word = word.strip()
        if not word:
            continue
        try:
            quirks.add(Quirk(word))
        except ValueError:
            raise ValueError(
                f"{BUILD_ENV} must be a comma-separated list of {_choices(Quirk)}, not {word!r}"
            ) from None
    servers = environ.get(PLUGIN_SERVERS_ENV, "").strip() or PluginServers.WITHOUT_APPROVAL.value
    try:
        plugin_servers = PluginServers(servers)
    except ValueError:
        raise ValueError(
            f"{PLUGIN_SERVERS_ENV} must be one of {_choices(PluginServers)}, not {servers!r}"
        ) from None
    return Build(frozenset(quirks), plugin_servers)
