"""A print run's world for the fake's MCP tests (docs/protocol.md §7): a HOME, a config dir
and a workspace inside a project in a tmp dir (``Place``, and the fixture ``place``, which
leaves no server running), the mcp.json entries of the echo server (mcp_echo_server.py) and
of agent_sdk.extend's test server (``tools_entry``), a scenario's ``mcp_call`` step
(``call``), and readers of the call's outcome.

Shared by test_fake_mcp_calls.py, test_fake_mcp_config.py, test_fake_mcp_permission.py,
test_fake_mcp_server_lifetime.py and (``ECHO``) test_fake_hook_events.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_env import ROOT, fake_env
from proctable import is_running

from fake_agent import SCENARIOS_DIR

WAIT = 60
#: What a server is asked when the run starts it.
HANDSHAKE = ["initialize", "notifications/initialized", "tools/list"]
ECHO = str(Path(__file__).with_name("mcp_echo_server.py"))
TOOLS = str(ROOT / "tests" / "extend" / "tools_server.py")


class Place:
    """A run's world in a tmp dir: a HOME, a config dir, a workspace inside a project."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.config = root / "config"
        self.project = root / "project"
        self.workspace = self.project / "ws"
        for path in (self.home, self.config, self.workspace):
            path.mkdir(parents=True)
        self.pid_file = root / "server.pid"
        self.log = root / "server.log"

    def echo(self, *argv: str, **env: str) -> dict[str, Any]:
        """An mcp.json entry for the echo server (logging what it is asked to ``log``)."""
        env.setdefault("ECHO_LOG", str(self.log))
        return {"command": sys.executable, "args": [ECHO, str(self.pid_file), *argv], "env": env}

    def asked(self) -> list[str]:
        """What the echo servers were asked, in order (their ``$ECHO_LOG``)."""
        return self.log.read_text().split() if self.log.exists() else []

    def servers(self, where: Path, **entries: Any) -> None:
        """Write ``<where>/.cursor/mcp.json``."""
        (where / ".cursor").mkdir(exist_ok=True)
        text = json.dumps({"mcpServers": entries})
        (where / ".cursor" / "mcp.json").write_text(text, "utf-8")

    def permissions(self, allow: list[str] = [], deny: list[str] = []) -> None:  # noqa: B006
        config = {"version": 1, "permissions": {"allow": allow, "deny": deny}}
        (self.config / "cli-config.json").write_text(json.dumps(config), "utf-8")

    def scenario(self, *steps: dict[str, Any]) -> Path:
        """init, user, ``steps``, then hello's reply and result (none after a ``kill``)."""
        hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
        last = steps[-1].get("fake") if steps else None
        tail = [] if last == "kill" else hello[2:]
        lines = [*hello[:2], *(json.dumps(step) for step in steps), *tail]
        path = self.root / "scenario.ndjson"
        path.write_text("\n".join(lines) + "\n", "utf-8")
        return path

    def env(self, scenario: Path | str, **extra: str) -> dict[str, str]:
        return fake_env(
            HOME=str(self.home),
            CURSOR_CONFIG_DIR=str(self.config),
            FAKE_AGENT_SCENARIO=str(scenario),
            **extra,
        )

    def run(
        self, *steps: dict[str, Any], flags: tuple[str, ...] = ("--force",), **extra: str
    ) -> subprocess.CompletedProcess[bytes]:
        argv = ["-p", "--trust", "--output-format", "stream-json", *flags]
        return subprocess.run(
            [sys.executable, "-m", "fake_agent", *argv, "--workspace", str(self.workspace), "go"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=self.env(self.scenario(*steps), **extra),
            timeout=WAIT,
            check=False,
        )

    def server_pid(self) -> int:
        return int(self.pid_file.read_text().split()[0])


@pytest.fixture(name="place")
def place_fixture(tmp_path: Path) -> Iterator[Place]:
    place = Place(tmp_path)
    yield place
    # A failing test must not leave its server running on the machine.
    if place.pid_file.exists() and is_running(place.server_pid()):
        os.kill(place.server_pid(), signal.SIGKILL)


def call(tool: str = "echo", server: str = "echo", **args: Any) -> dict[str, Any]:
    return {"fake": "mcp_call", "server": server, "tool": tool, "args": args, "call_id": "m1"}


def events(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in proc.stdout.split(b"\n") if line]


def outcome(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """The result of the (one) mcpToolCall ``completed`` event."""
    done = [e for e in events(proc) if e["type"] == "tool_call" and e["subtype"] == "completed"]
    assert len(done) == 1, proc.stderr
    result: dict[str, Any] = done[0]["tool_call"]["mcpToolCall"]["result"]
    return result


def echoed(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """What the echo server said it saw (its one text block, parsed)."""
    success = outcome(proc)["success"]
    said: dict[str, Any] = json.loads(success["content"][0]["text"]["text"])
    return said


# ----------------------------------------------------------------------------- custom_tools


def tools_entry() -> dict[str, Any]:
    """The agent_sdk.extend test server (tests/extend/tools_server.py)."""
    env = {"TOOLS_SERVER_SECRET": "s3cret", "PYTHONPATH": str(ROOT)}
    return {"command": sys.executable, "args": [TOOLS, "asyncio"], "env": env}
