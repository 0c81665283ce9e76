"""How a print-mode run's Python tools and hooks reach the CLI (docs/extend.md, "The
CLI's side"), through ``AgentOptions.tools_channel``: a per-run plugin folder
(``_plugin.py``, the default) or, described here, a run-specific HOME.

No flag takes an MCP server inline (docs/protocol.md §7). The CLI reads the user's
``$HOME/.cursor/mcp.json`` without approval, so a run given tools on the ``"home"``
channel runs with:

- a **run-specific HOME**: a private 0700 directory (with the owner marker of
  ``_transport/owner.py``, swept after a dead owner) holding a link to every entry of the real
  ``$HOME`` except ``.cursor``, and a real ``.cursor`` holding a link to every entry of the
  real ``~/.cursor`` except ``mcp.json`` and ``cli-config.json``, and an ``mcp.json``
  naming only our server,
  ``agent_sdk``: the relay, with the socket's path and ``"${env:AGENT_SDK_TOOLS_TOKEN}"``
  (expanded by the CLI, §7) in its ``env``. The token itself is only in the CLI's
  environment: never in a file, never in argv. The user's own user-level servers are not
  copied (their file may hold secrets): a documented cost.
- a **private config dir** (``config_dir.py``, as a ``--model`` run has) whose copy of
  ``cli-config.json`` gets ``Mcp(agent_sdk:*)`` in ``permissions.allow``: without
  ``--force`` an MCP call no allow rule covers is rejected (§8.4). The user's own file is
  never changed. It also keeps a ``--model`` of the run out of the user's config.
- the **host** (``extend/_host.py``) serving the tools in this process.

A run given hooks (``AgentOptions(hooks=...)``, docs/extend.md "Hooks that decide") gets the
same three: its HOME's ``.cursor/hooks.json`` runs the relay in hook mode for each event
with a callback, the user's own ``~/.cursor/hooks.json`` entries merged in before ours (so
they keep running, from a ``.cursor`` that links to every entry of theirs). Without tools,
the user's ``mcp.json`` is linked as any other entry and no allow rule is added.

All three are released once the CLI's process group is dead.
"""

from __future__ import annotations

import _thread  # the low-level lock: `threading` costs a run's import time
import contextlib
import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec

from .._options.redaction import redaction_of
from .._transport.config_dir import CONFIG_DIR_ENV, CONFIG_NAME, PrivateConfig, user_config_dir
from .._transport.owner import PREFIXES, mark, sweep
from .._transport.served_tools import RELEASE_AT_EXIT
from .._transport.users_file import users_file
from ..errors import AgentStartError
from ..options import AgentOptions, Invocation
from ._hooks import hooks_file
from ._host import (
    HOOKS_TOKEN_ENV,
    SERVER_NAME,
    SOCKET_ENV,
    TOKEN_ENV,
    ToolHost,
    new_token,
    open_host,
    relay_command,
)
from ._plugin import make_plugin, with_plugin_dir

__all__ = [
    "ALLOW_RULE",
    "PREFIX",
    "RunTools",
    "allow_rule_added",
    "hooks_json",
    "mcp_file",
    "release_all",
    "with_run_token",
    "with_tools",
]

# Not yet released: released at interpreter exit. A forked child starts with none: they
# are its parent's (docs/lifecycle.md, "When the program forks").
_live: set[RunTools] = set()
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_live.clear)

PREFIX = PREFIXES[4]
"""How the names of the run-specific HOMEs begin (in the system's temp dir)."""
ALLOW_RULE = f"Mcp({SERVER_NAME}:*)"
"""The permission token that allows every tool of our server (docs/protocol.md §8.4)."""
_MAX_CONFIG = 16 * 1024 * 1024  # bytes of the user's cli-config.json read at most


class RunTools:
    """What a run given tools holds: the host, the channel's folder (a plugin folder or a
    HOME), the private config dir. :meth:`release` ends them (synchronous, idempotent)."""

    def __init__(self, host: ToolHost) -> None:
        self.host = host
        self.folder: Path | None = None  # the owned dir: its ``plugin`` or its ``home``
        self.config: PrivateConfig | None = None
        self._releasing = _thread.allocate_lock()
        _live.add(self)

    def release(self) -> None:
        """Close the host, remove the folder, release the config dir (once the CLI's
        process group is dead). The exit's release waits for one under way in a run's
        teardown, and this leaves the live set only once all is removed (as
        ``PrivateConfig.release``)."""
        with self._releasing:
            self.host.close()
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
                self.folder = None
            if self.config is not None:
                self.config.release()
                self.config = None
            _live.discard(self)


def with_run_token(options: AgentOptions) -> AgentOptions:
    """``options`` of a run given tools or hooks, with the run's own token in ``env``
    (under the variable of each relay mode it serves): made before the run's redaction,
    which reads it there, so the token is masked wherever the CLI shows it (a debug log
    of what it passes on). :func:`with_tools` serves the tools with it."""
    token = new_token()
    env = dict(options.env or {})
    if options.tools:
        env[TOKEN_ENV] = token
    if options.hooks is not None:
        env[HOOKS_TOKEN_ENV] = token
    return msgspec.structs.replace(options, env=env)


def _token_of(invocation: Invocation, options: AgentOptions) -> str | None:
    """The token :func:`with_run_token` put in the run's environment, if it did. Without
    tools, ``TOKEN_ENV`` may be another host's (a fleet task's): the hooks' one is ours."""
    return invocation.env.get(TOKEN_ENV if options.tools else HOOKS_TOKEN_ENV)


def with_tools(
    invocation: Invocation,
    options: AgentOptions,
    *,
    admit: Callable[[str], str | None] | None = None,
) -> tuple[RunTools, Invocation]:
    """The run's tools served, and ``invocation`` as it must run to reach them through
    ``options.tools_channel`` (``--plugin-dir``, or ``HOME``; ``CURSOR_CONFIG_DIR``, the
    token). Call it in a running event loop; release what it returns once the CLI's
    process group is dead. ``admit``: what the host asks before it runs a call (the
    run's budget, docs/budgets.md "Your own tools"); ``None`` runs every call.

    Raises:
        AgentStartError: a directory, the socket or the config could not be made.
        AgentConfigError: two tools have one name (checked by the options already).
    """
    host = ToolHost(
        options.tools,
        hooks=options.hooks,
        redact=redaction_of(options, os.environ).text,
        token=_token_of(invocation, options),
        admit=admit,
    )
    tools = RunTools(host)
    try:
        open_host(host)
        host.start()
        env = dict(invocation.env)
        real_home = Path(env.get("HOME") or os.path.expanduser("~"))
        user_config = user_config_dir(env)
        home = options.tools_channel == "home"
        try:
            if home:
                tools.folder = _make_home(real_home, host)
            else:
                tools.folder = make_plugin(host, mcp_file(host) if host.names else None)
            tools.config = PrivateConfig(user_config)
            if options.tools:
                allow_rule_added(tools.config.path / CONFIG_NAME)
        except OSError as exc:
            made = "HOME" if home else "plugin folder"
            raise AgentStartError(
                f"could not make the run's own {made} and config dir (for its tools): {exc}",
                hint="check that TMPDIR names a writable directory with free space, and "
                "that your home and the CLI's config dir are readable",
            ) from exc
    except BaseException:
        tools.release()
        raise
    if home:
        env["HOME"] = str(tools.folder / "home")
    else:
        invocation = with_plugin_dir(invocation, tools.folder)
    env[CONFIG_DIR_ENV] = str(tools.config.path)
    # Each relay mode its own variable: a fleet task's tools may be another host's.
    if options.tools:
        env[TOKEN_ENV] = host.token
    if options.hooks is not None:
        env[HOOKS_TOKEN_ENV] = host.token
    return tools, msgspec.structs.replace(invocation, env=env)


def release_all() -> None:
    """Release every run's tools not released yet (at interpreter exit)."""
    for tools in list(_live):
        tools.release()


# At the interpreter's exit, once the CLI groups are dead: the HOMEs, plugin folders
# and config dirs not yet released.
RELEASE_AT_EXIT.append(release_all)


def mcp_file(host: ToolHost) -> bytes:
    """``mcp.json`` naming only our server (docs/protocol.md §7): the relay, the socket's
    path, and the token as ``${env:...}``, which the CLI expands from its environment."""
    command, *args = relay_command()
    env = {SOCKET_ENV: host.socket_path, TOKEN_ENV: "${env:" + TOKEN_ENV + "}"}
    entry = {"command": command, "args": args, "env": env}
    return msgspec.json.encode({"mcpServers": {SERVER_NAME: entry}})


def hooks_json(host: ToolHost, theirs: Path) -> bytes:
    """The run's user-level ``hooks.json``: the relay in hook mode (the socket's path as
    its argument; the token stays in the CLI's environment) for each event ``host.hooks``
    has a callback for, after the entries of the user's own file at ``theirs`` when it is
    one the CLI would run (``"version": 1``, a ``hooks`` object, docs/protocol.md §6.1)."""
    assert host.hooks is not None
    ours = msgspec.json.decode(hooks_file(host.hooks, relay_command("hook", host.socket_path)))
    data = users_file(theirs, _MAX_CONFIG + 1)
    try:
        found = msgspec.json.decode(data) if data and len(data) <= _MAX_CONFIG else None
    except (ValueError, RecursionError):  # msgspec.DecodeError, bad UTF-8
        found = None  # the CLI rejects such a file too: nothing of it would have run
    if not isinstance(found, dict) or found.get("version") != 1:
        return msgspec.json.encode(ours)
    entries = found.get("hooks")
    if not isinstance(entries, dict):
        return msgspec.json.encode(ours)
    merged = dict(entries)
    for event, added in ours["hooks"].items():
        kept = merged.get(event)
        merged[event] = (kept if isinstance(kept, list) else []) + added
    return msgspec.json.encode({**found, "hooks": merged})


def _make_home(real_home: Path, host: ToolHost) -> Path:
    """The owned dir whose ``home`` is the run's HOME (see the module's docstring)."""
    sweep(PREFIX, functools.partial(shutil.rmtree, ignore_errors=True))
    owned = Path(tempfile.mkdtemp(prefix=PREFIX)).resolve()  # mode 0700
    try:
        mark(owned)
        home = owned / "home"
        home.mkdir(mode=0o700)
        _link_entries(real_home, home, lambda name: name == ".cursor")
        cursor = home / ".cursor"
        cursor.mkdir(mode=0o700)
        ours: dict[str, bytes] = {}  # the files of .cursor that are the run's own
        if host.names:
            ours["mcp.json"] = mcp_file(host)
        if host.hooks is not None:
            ours["hooks.json"] = hooks_json(host, real_home / ".cursor" / "hooks.json")
        # Not the config file either (nor its temp files): the run's is the private
        # copy (CURSOR_CONFIG_DIR), and a link would let a write reach the user's.
        _link_entries(
            real_home / ".cursor",
            cursor,
            lambda name: name in ours or name.startswith(CONFIG_NAME),
        )
        for name, content in ours.items():
            fd = os.open(cursor / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(content)
    except BaseException:
        shutil.rmtree(owned, ignore_errors=True)
        raise
    return owned


def _link_entries(source: Path, target: Path, skip: Callable[[str], bool]) -> None:
    """A link in ``target`` to every entry of ``source`` but those whose names ``skip``
    says (none if it is no directory)."""
    try:
        entries = list(os.scandir(source))
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if not skip(entry.name):
            os.symlink(os.path.abspath(entry.path), target / entry.name)


def allow_rule_added(path: Path) -> None:
    """Add :data:`ALLOW_RULE` to ``permissions.allow`` of the config file at ``path`` (a
    private copy; made if missing).

    Raises:
        AgentStartError: the file is not a JSON object (nor are its ``permissions`` or
            ``permissions.allow`` what the CLI reads: an object, a list).
    """
    config: dict[str, object] = {"version": 1}
    with contextlib.suppress(FileNotFoundError):
        with path.open("rb") as existing:
            data = existing.read(_MAX_CONFIG + 1)
        try:
            decoded = msgspec.json.decode(data) if len(data) <= _MAX_CONFIG else None
        except (ValueError, RecursionError):  # msgspec.DecodeError, bad UTF-8
            decoded = None
        if not isinstance(decoded, dict):
            raise _bad_config("is not a JSON object")
        config = decoded
    permissions = config.setdefault("permissions", {})
    if not isinstance(permissions, dict):
        raise _bad_config('has a "permissions" that is not an object')
    allow = permissions.setdefault("allow", [])
    if not isinstance(allow, list):
        raise _bad_config('has a "permissions.allow" that is not a list')
    if ALLOW_RULE not in allow:
        allow.append(ALLOW_RULE)
    # Written anew (the copy keeps its mode): no other process has this private file.
    path.write_bytes(msgspec.json.encode(config))


def _bad_config(problem: str) -> AgentStartError:
    return AgentStartError(
        f"the CLI's {CONFIG_NAME} {problem}: a run with tools needs to add the permission "
        f"{ALLOW_RULE} to a private copy of it",
        hint=f"fix or remove {CONFIG_NAME} in the CLI's config dir (CURSOR_CONFIG_DIR, "
        "else ~/.cursor); the CLI cannot read it either",
    )
