"""A print run's world for the fake's hook tests (docs/protocol.md §6): a HOME, a config dir
and a workspace in a tmp dir (``Place``, and the fixture ``place``), hooks.json entries
running tests/fake/hook_script.py through ``sh -c`` (recording what each hook saw), the
scenario steps a hook looks at (``WRITE``, ``DELETE``, ``SHELL``), and readers of the call's
outcome.

Shared by test_fake_hook_files.py, test_fake_hook_events.py, test_fake_hook_answers.py and
test_fake_shell_directive.py.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env

from fake_agent import SCENARIOS_DIR

WAIT = 60
HOOK = str(Path(__file__).with_name("hook_script.py"))
NOTE = "Agent note: Do not suggest workarounds to the blocked tool."
SHELL_BLOCKED = (
    "Command execution was blocked by a hook.\n\n"
    "To view or modify configured hooks, go to Cursor Settings > Hooks.\n\n" + NOTE
)


class Place:
    """A HOME, a config dir, a workspace; hooks recording into ``record``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.workspace = root / "ws"
        for path in (self.home / ".cursor", root / "config", self.workspace):
            path.mkdir(parents=True)
        self.record = root / "record.ndjson"

    def hook(self, *, answer: Any = None, **extra: Any) -> dict[str, Any]:
        """A hooks.json entry running the recording hook: ``answer`` (JSON) on stdout;
        ``err``, ``exit``, ``sleep``; other keys (``matcher``, ``timeout``,
        ``failClosed``) go into the entry."""
        argv = [sys.executable, HOOK, str(self.record)]
        if answer is not None:
            argv += ["--out", answer if isinstance(answer, str) else json.dumps(answer)]
        for key in ("err", "exit", "sleep"):
            if key in extra:
                argv += [f"--{key}", str(extra.pop(key))]
        return {"command": shlex.join(argv), **extra}

    def hooks(self, where: Path, document: Any = None, **events: Any) -> None:
        """Write ``<where>/.cursor/hooks.json``: ``document`` as given, else version 1 with
        ``events``."""
        (where / ".cursor").mkdir(exist_ok=True)
        document = document if document is not None else {"version": 1, "hooks": events}
        (where / ".cursor" / "hooks.json").write_text(json.dumps(document), "utf-8")

    def run(
        self, *steps: dict[str, Any], flags: tuple[str, ...] = ("--trust", "--force")
    ) -> subprocess.CompletedProcess[bytes]:
        hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
        ends = bool(steps) and steps[-1].get("fake") == "exit"  # nothing may follow it
        lines = [*hello[:2], *(json.dumps(step) for step in steps), *([] if ends else hello[2:])]
        scenario = self.root / "scenario.ndjson"
        scenario.write_text("\n".join(lines) + "\n", "utf-8")
        argv = ["-p", "--output-format", "stream-json", *flags, "--workspace", str(self.workspace)]
        env = fake_env(
            HOME=str(self.home),
            CURSOR_CONFIG_DIR=str(self.root / "config"),
            FAKE_AGENT_SCENARIO=str(scenario),
        )
        return subprocess.run(
            [sys.executable, "-m", "fake_agent", *argv, "go"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            timeout=WAIT,
            check=False,
        )

    def seen(self) -> list[dict[str, Any]]:
        """What the hooks recorded, in order."""
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text("utf-8").splitlines()]

    def events_seen(self) -> list[str]:
        return [str(entry["payload"]["hook_event_name"]) for entry in self.seen()]


@pytest.fixture(name="place")
def place_fixture(tmp_path: Path) -> Place:
    return Place(tmp_path)


WRITE = {
    "fake": "write_file",
    "path": "notes.txt",
    "text": "hello\n",
    "call_id": "w1",
    "real": True,
}
DELETE = {"fake": "delete_file", "path": "old.txt", "call_id": "d1", "real": True}
SHELL = {"fake": "shell", "command": "echo built", "call_id": "s1"}


def completed(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """The ``tool_call`` object of the (one) completed event."""
    lines = [json.loads(line) for line in proc.stdout.split(b"\n") if line]
    done = [e for e in lines if e["type"] == "tool_call" and e["subtype"] == "completed"]
    assert len(done) == 1, proc.stderr
    tool_call: dict[str, Any] = done[0]["tool_call"]
    return tool_call


def result(proc: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    tool_call = completed(proc)
    kind = next(key for key in tool_call if key.endswith("ToolCall"))
    outcome: dict[str, Any] = tool_call[kind]["result"]
    return outcome
