"""The processes of the fake in ACP mode (docs/acp.md §2 step 7, §5.2 item 11;
fake_agent/scenarios/acp/README.md): a ``shell`` step runs its command for real as an
``execute`` tool call, in a session of its own; a cancel leaves it running; the
``worker_server`` and ``daemon`` steps leave their helpers. Every process ends with the
test (tests/pid_log.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from acp_client import Client, prompt, start, updates
from pid_log import PidLog
from proctable import session_members, settles, stat
from test_fake_processes import running

WAIT = 60


class Place:
    """A workspace, a pid log and an ACP fake playing a scenario of given steps."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspace = root / "ws"
        self.workspace.mkdir()
        self.log = PidLog(root / "pids")
        self.clients: list[Client] = []

    def client(self, *steps: dict[str, Any]) -> Client:
        scenario = self.root / "scenario.ndjson"
        scenario.write_text("".join(json.dumps(step) + "\n" for step in steps), "utf-8")
        env = {"FAKE_AGENT_ACP_SCENARIO": str(scenario), **self.log.env()}
        made = Client(**env)
        self.clients.append(made)
        return made

    def end(self) -> None:
        for made in self.clients:
            made.kill()
        self.log.end()


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Place]:
    made = Place(tmp_path)
    try:
        yield made
    finally:
        made.end()


def test_a_shell_step_is_an_execute_call_whose_command_runs(place: Place) -> None:
    command = "echo $CURSOR_CONVERSATION_ID; pwd; echo err >&2; exit 3"
    client = place.client({"fake": "shell", "command": command, "toolCallId": "c1"})
    session_id = start(client, str(place.workspace))
    seen, answer = client.until_response(prompt(client, session_id, "go"))
    assert answer["result"] == {"stopReason": "end_turn"}
    announced, working, done = updates(seen)
    assert announced == {
        "sessionUpdate": "tool_call",
        "toolCallId": "c1",
        "title": f"`{command}`",
        "kind": "execute",
        "status": "pending",
        "rawInput": {"command": command},
    }
    assert working == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "c1",
        "status": "in_progress",
    }
    output = f"{session_id}\n{place.workspace.resolve()}\nerr\n"
    raw = {"exitCode": 3, "stdout": output, "stderr": ""}
    assert done == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "c1",
        "status": "completed",
        "rawOutput": raw,
    }
    assert [role for role, _ in place.log.read()] == ["shell"]


def test_a_cancel_ends_the_turn_and_leaves_the_command_running(place: Place) -> None:
    steps = [{"fake": "shell", "command": "sleep 3600", "toolCallId": "c1"}]
    client = place.client(*steps)
    session_id = start(client, str(place.workspace))
    asked = prompt(client, session_id, "go")
    [pid] = place.log.wait_for("shell")
    assert settles(lambda: running(pid, "sleep"))
    facts = stat(pid)
    assert facts is not None
    assert (facts.session, facts.ppid) == (pid, client.proc.pid)
    client.notify("session/cancel", {"sessionId": session_id})
    seen, answer = client.until_response(asked)
    assert answer["result"] == {"stopReason": "cancelled"}
    assert [u["status"] for u in updates(seen)] == ["pending", "in_progress"]
    assert running(pid, "sleep")  # the fake kills no command
    client.kill()  # its pty's master closes: the command is hung up
    assert settles(lambda: not session_members(pid), within=WAIT)


def test_the_helpers_steps_leave_a_worker_server_and_a_daemon(place: Place) -> None:
    client = place.client({"fake": "worker_server"}, {"fake": "daemon", "scrub_env": True})
    session_id = start(client, str(place.workspace))
    _, answer = client.until_response(prompt(client, session_id, "go"))
    assert answer["result"] == {"stopReason": "end_turn"}
    [worker] = place.log.pids("worker-server")
    [daemon] = place.log.pids("daemon")
    worker_facts, daemon_facts = stat(worker), stat(daemon)
    assert worker_facts is not None
    assert daemon_facts is not None
    assert (worker_facts.pgrp, worker_facts.ppid) == (client.proc.pid, client.proc.pid)
    assert daemon_facts.ppid != client.proc.pid
    assert daemon_facts.session not in (client.proc.pid, daemon)
    assert Path(f"/proc/{daemon}/environ").read_bytes() == b""
