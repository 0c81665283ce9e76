"""A print run's world for the tests of the fake's channels (``--plugin-dir``, the user and
project files) and builds (tests/fake/test_fake_plugins.py, test_fake_builds.py,
test_fake_run_start.py): a HOME, a config dir, a workspace, plugin folders, the echo MCP
server logging what it is asked, and the recording hook."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from fake_env import fake_env

from fake_agent import SCENARIOS_DIR

WAIT = 60
HERE = Path(__file__).parent
ECHO = str(HERE / "mcp_echo_server.py")
HOOK = str(HERE / "hook_script.py")
#: What a server is asked when the run starts it.
HANDSHAKE = ["initialize", "notifications/initialized", "tools/list"]

Message = dict[str, Any]


class World:
    """Everything one run reads, in a tmp dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.config = root / "config"
        self.workspace = root / "ws"
        for path in (self.home / ".cursor", self.config, self.workspace):
            path.mkdir(parents=True)
        self.log = root / "server.log"
        self.record = root / "hooks.ndjson"

    # ------------------------------------------------------------------ what it holds

    def echo(self, label: str, *argv: str) -> Message:
        """An MCP entry for the echo server; its pid goes to ``<label>.pid``, what it is
        asked to ``<label>.log``."""
        pid_file = str(self.root / f"{label}.pid")
        env = {"ECHO_LOG": str(self.root / f"{label}.log")}
        return {"command": sys.executable, "args": [ECHO, pid_file, *argv], "env": env}

    def asked(self, label: str) -> list[str]:
        """What the echo server ``label`` was asked, in order."""
        log = self.root / f"{label}.log"
        return log.read_text().split() if log.exists() else []

    def hook(self, label: str, answer: Any = None, **entry: Any) -> Message:
        """A hooks.json entry running the recording hook, which records ``label`` and
        prints ``answer``."""
        argv = [sys.executable, HOOK, str(self.record), "--label", label]
        if answer is not None:
            argv += ["--out", json.dumps(answer)]
        return {"command": shlex.join(argv), **entry}

    def fired(self) -> list[tuple[str, str]]:
        """``(event, label)`` of every hook that ran, in order."""
        if not self.record.exists():
            return []
        seen = [json.loads(line) for line in self.record.read_text("utf-8").splitlines()]
        return [(entry["payload"]["hook_event_name"], entry["label"]) for entry in seen]

    def hook_cwds(self) -> dict[str, str]:
        """Where each label's hook ran."""
        seen = [json.loads(line) for line in self.record.read_text("utf-8").splitlines()]
        return {entry["label"]: entry["cwd"] for entry in seen}

    def user_files(self, servers: Message | None = None, hooks: Message | None = None) -> None:
        """``$HOME/.cursor/mcp.json`` and ``hooks.json``."""
        write_files(self.home / ".cursor", servers, hooks)

    def plugin(
        self,
        folder: str = "plugin",
        name: str | None = "agent-sdk-run",
        servers: Message | None = None,
        hooks: Message | None = None,
        manifest: str | None = None,
    ) -> Path:
        """A plugin folder: ``.cursor-plugin/plugin.json`` (``{"name": name}``, or the text
        ``manifest``; none when both are None), ``mcp.json`` with ``servers`` and
        ``hooks/hooks.json`` (version 1) with ``hooks``."""
        root = self.root / folder
        (root / ".cursor-plugin").mkdir(parents=True)
        if manifest is None and name is not None:
            manifest = json.dumps({"name": name, "version": "1.0.0"})
        if manifest is not None:
            (root / ".cursor-plugin" / "plugin.json").write_text(manifest, "utf-8")
        if servers is not None:
            (root / "mcp.json").write_text(json.dumps({"mcpServers": servers}), "utf-8")
        if hooks is not None:
            (root / "hooks").mkdir()
            document = {"version": 1, "hooks": hooks}
            (root / "hooks" / "hooks.json").write_text(json.dumps(document), "utf-8")
        return root

    # ------------------------------------------------------------------ running it

    def scenario(self, *steps: Message) -> Path:
        """init, user, ``steps``, then hello's reply and result."""
        hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
        lines = [*hello[:2], *(json.dumps(step) for step in steps), *hello[2:]]
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

    def argv(self, *flags: str) -> list[str]:
        command = [sys.executable, "-m", "fake_agent", "-p", "--trust", "--force"]
        return [
            *command,
            "--output-format",
            "stream-json",
            *flags,
            "--workspace",
            str(self.workspace),
            "go",
        ]

    def run(
        self,
        *steps: Message,
        flags: tuple[str, ...] = (),
        scenario: str | None = None,
        **extra: str,
    ) -> subprocess.CompletedProcess[bytes]:
        """One run to its end: ``steps`` (or the bundled ``scenario``), ``flags`` added."""
        return subprocess.run(
            self.argv(*flags),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=self.env(scenario or self.scenario(*steps), **extra),
            timeout=WAIT,
            check=False,
        )


def write_files(where: Path, servers: Message | None, hooks: Message | None) -> None:
    """``<where>/mcp.json`` and ``<where>/hooks.json`` (version 1), those given."""
    if servers is not None:
        (where / "mcp.json").write_text(json.dumps({"mcpServers": servers}), "utf-8")
    if hooks is not None:
        document = {"version": 1, "hooks": hooks}
        (where / "hooks.json").write_text(json.dumps(document), "utf-8")


def events(proc: subprocess.CompletedProcess[bytes]) -> list[Message]:
    return [json.loads(line) for line in proc.stdout.split(b"\n") if line]


def outcomes(proc: subprocess.CompletedProcess[bytes]) -> list[Message]:
    """The result of every ``completed`` tool call, in order."""
    done = [e for e in events(proc) if e["type"] == "tool_call" and e["subtype"] == "completed"]
    kinds = [next(key for key in e["tool_call"] if key.endswith("ToolCall")) for e in done]
    return [e["tool_call"][kind]["result"] for e, kind in zip(done, kinds, strict=True)]


def call(server: str, tool: str = "echo", **args: Any) -> Message:
    return {"fake": "mcp_call", "server": server, "tool": tool, "args": args}
