"""The shared setup of the tests of custom tools and hooks (docs/extend.md), end to end on
the fake and on real processes: the tools the fake's ``custom_tools`` scenario calls, a
short temp dir for the runs' sockets, a user's HOME, the
fake's scenario file, a program started and SIGKILLed while its run serves, a host serving
in this process, the official MCP client's session, a fleet's one-commit repository and
its single outcome.

Plain functions and classes: each test file keeps its own thin fixtures (its own prefix
for its temp dir, its own user), so that no fixture of one directory shadows another's."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import msgspec
import pytest
from fake_env import clean_env
from gitrepo import git

from agent_sdk._transport.owner import PREFIXES
from agent_sdk.extend import Hooks, tool
from agent_sdk.extend._host import ToolHost
from agent_sdk.extend._peers import Peer
from agent_sdk.fleet import Fleet, TaskSucceeded

if TYPE_CHECKING:  # the official MCP client: imported by the tests that use it alone
    import mcp
    from mcp.client.stdio import StdioServerParameters


class Issue(msgspec.Struct):
    """What ``lookup_issue`` returns (sent back as JSON)."""

    number: int
    title: str


# The tools the fake's ``custom_tools`` scenario calls (print mode and ACP): one that
# answers, one that raises.
@tool
def lookup_issue(number: int) -> Issue:
    """Look up an issue by its number."""
    return Issue(number, f"Issue {number}")


@tool
async def fail(reason: str) -> str:
    """Fail with a reason."""
    raise RuntimeError(reason)


LIMIT = 60.0  # only a broken relay, host or run waits this long

PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
PONG = b'{"jsonrpc":"2.0","id":1,"result":{}}\n'

CONFIG = {".cursor/cli-config.json": '{"version": 1}\n'}
"""A user's CLI config without any permission."""
LOGIN_AND_MCP = {
    ".cursor/auth.json": '{"token": "t"}\n',
    ".cursor/mcp.json": '{"mcpServers": {}}\n',
}
"""A user's login and an mcp.json of their own."""
A_FILE_OF_THEIRS = {".gitconfig": "[user]\n\tname = Me\n"}
"""A file of the user's outside their config dir."""


@contextlib.contextmanager
def short_temp_dir(
    monkeypatch: pytest.MonkeyPatch, prefix: str, *, tmpdir_env: bool = False
) -> Iterator[Path]:
    """A private temp dir under /tmp (a Unix socket's path has a limit of about 100
    bytes, and pytest's ``tmp_path`` is long), set as the system's temp dir
    (``tempfile.tempdir``): what a run makes is all in there; removed at the end.

    Args:
        monkeypatch: undoes the setting after the test.
        prefix: how the dir's name begins (which test file made it).
        tmpdir_env: also set as ``TMPDIR``, the CLI's and every child's temp dir.

    Example: ``with short_temp_dir(monkeypatch, "tools-", tmpdir_env=True) as where: ...``
    """
    with tempfile.TemporaryDirectory(prefix=prefix, dir="/tmp") as where:
        monkeypatch.setattr(tempfile, "tempdir", where)
        if tmpdir_env:
            monkeypatch.setenv("TMPDIR", where)
        yield Path(where)


class UserHome:
    """A user's HOME, ``root/home``, with a config dir ``~/.cursor`` and the files of
    theirs a test gives (paths relative to HOME: ``CONFIG``, ``LOGIN_AND_MCP``,
    ``A_FILE_OF_THEIRS``), so that a test can prove none of them changes.

    Example: ``user = UserHome(temp_dir, {**CONFIG, **A_FILE_OF_THEIRS})``
    """

    def __init__(self, root: Path, files: Mapping[str, str] | None = None) -> None:
        self.home = root / "home"
        self.cursor = self.home / ".cursor"
        self.cursor.mkdir(parents=True)
        for name, text in (files or {}).items():
            (self.home / name).write_text(text)

    def snapshot(self) -> dict[str, bytes]:
        """Every file under HOME (its path relative to HOME) and its bytes."""
        return {
            str(p.relative_to(self.home)): p.read_bytes()
            for p in sorted(self.home.rglob("*"))
            if p.is_file()
        }

    def run_env(self, **extra: str) -> dict[str, str]:
        """An ``AgentOptions(env=...)`` overlay running as this user: ``clean_env`` with
        this HOME and ``extra``; a config dir set by this machine's environment blanked
        (empty is unset, for the SDK and the CLI), so theirs is ``~/.cursor``."""
        blank = {"CURSOR_CONFIG_DIR": "", "XDG_CONFIG_HOME": ""}
        return clean_env(HOME=str(self.home), **{**blank, **extra})

    def program_env(self, **extra: str) -> dict[str, str]:
        """The whole environment of a program started as this user: this process's,
        without ``CURSOR_CONFIG_DIR`` (their config dir is ``~/.cursor``), with
        ``clean_env(**extra)`` and this HOME on top."""
        env = {**os.environ, **clean_env(**extra), "HOME": str(self.home)}
        env.pop("CURSOR_CONFIG_DIR", None)
        return env

    def set_as_home(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Make it this process's HOME (and its children's), with ``~/.cursor`` as the
        config dir (no ``CURSOR_CONFIG_DIR``), until the test ends."""
        monkeypatch.setenv("HOME", str(self.home))
        monkeypatch.delenv("CURSOR_CONFIG_DIR", raising=False)


def left_behind(temp_dir: Path, prefixes: tuple[str, ...] = PREFIXES[1:]) -> list[str]:
    """The names, sorted, of the dirs in ``temp_dir`` whose names begin with one of
    ``prefixes`` (by default every kind a run makes; a fleet's config dirs are not a
    run's)."""
    return sorted(p.name for p in temp_dir.iterdir() if p.name.startswith(prefixes))


def write_scenario(path: Path, steps: Sequence[Mapping[str, Any]]) -> Path:
    """Write the fake's scenario ``steps`` to ``path`` (one JSON object a line); ``path``."""
    path.write_text("".join(json.dumps(step) + "\n" for step in steps))
    return path


@contextlib.contextmanager
def program_started(
    program: str,
    steps: Sequence[Mapping[str, Any]],
    ready: str,
    *,
    fake_binary: str,
    temp_dir: Path,
    tmp_path: Path,
) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A program of a user's (``python -c program fake_binary temp_dir``, in ``tmp_path``,
    its HOME ``tmp_path/home``), whose run is on the fake with ``steps``, once it has
    printed the line ``ready`` (every line before it blank); it and the socket path of
    its run's tools (the one dir of theirs in ``temp_dir``). Killed and reaped at the end
    if the test did not: for the tests that SIGKILL it (docs/lifecycle.md, "When the
    program dies")."""
    scenario = write_scenario(tmp_path / "scenario.ndjson", steps)
    user = UserHome(tmp_path)
    parent = subprocess.Popen(
        [sys.executable, "-c", program, fake_binary, str(temp_dir)],
        env=user.program_env(FAKE_AGENT_SCENARIO=str(scenario)),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        while (line := parent.stdout.readline()).strip() != ready:
            assert line, f"the program ended before it printed {ready!r}"
            assert line.strip() == "", line
        (tools_dir,) = [p for p in temp_dir.iterdir() if p.name.startswith(PREFIXES[3])]
        yield parent, tools_dir / "tools.sock"
    finally:
        parent.kill()
        parent.communicate()


def anyone(peer: Peer | None, mode: bytes, token: str) -> None:
    """A host's check of its peers that lets every process in: for the tests of what a
    host serves, whose clients are the tests' own processes, not a CLI's relays
    (``extend/_peers.py`` is tested by itself, tests/extend/test_peers.py)."""
    return None


@contextlib.asynccontextmanager
async def serving(
    tools: Sequence[Any] = (), hooks: Hooks | None = None, **host_options: Any
) -> AsyncIterator[ToolHost]:
    """A ``ToolHost`` of ``tools`` and ``hooks`` (and ``host_options``, as ``redact``)
    open and serving in this process, closed at the end; unless ``peers`` is given, it
    serves any process (:func:`anyone`)."""
    host_options.setdefault("peers", anyone)
    host = ToolHost(list(tools), hooks=hooks, **host_options)
    host.open()
    host.start()
    try:
        yield host
    finally:
        await host.aclose()


@contextlib.asynccontextmanager
async def mcp_session(
    params: StdioServerParameters, stderr: Path
) -> AsyncIterator[mcp.ClientSession]:
    """A session (not initialized) of the official MCP client (``mcp``, a test extra)
    with the process ``params`` starts, as an MCP host would start it; its stderr goes to
    the file ``stderr``. Everything it waits for is bounded by ``LIMIT``."""
    import mcp
    from mcp.client.stdio import stdio_client

    with anyio.fail_after(LIMIT), stderr.open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            mcp.ClientSession(read, write) as session,
        ):
            yield session


async def raw_ping(host: ToolHost, token: str) -> bytes:
    """Send ``token``'s line and a ping on the host's socket as the relay does; the first
    bytes of the answer (``anyio.EndOfStream`` if it closes the socket unanswered)."""
    stream = await anyio.connect_unix(host.socket_path)
    async with stream:
        await stream.send(token.encode() + b"\n" + PING)
        with anyio.fail_after(LIMIT):
            return await stream.receive()


def committed_repo(path: Path) -> Path:
    """A git repository at ``path`` with one commit of a README; ``path``."""
    path.mkdir()
    (path / "README").write_text("hello\n")
    git(path, "init", "-q")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return path


async def outcome_of(fleet: Fleet) -> Any:
    """The outcome of a fleet of one task, which must have succeeded."""
    async with fleet:
        (outcome,) = [outcome async for outcome in fleet]
    assert isinstance(outcome, TaskSucceeded), outcome
    return outcome
