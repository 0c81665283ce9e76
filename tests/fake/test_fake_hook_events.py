"""Which hooks the fake fires in print mode, as the contract says the CLI does
(docs/protocol.md §6.2-§6.3): sessionStart first (its env reaching later hooks), sessionEnd
last with the run's status, never the prompt, stop or response hooks; and each tool hook's
payload: preToolUse's tool name, input and call id (an MCP call as ``MCP:tool``, picked by a
matcher), postToolUse's output, afterFileEdit's texts, beforeShellExecution's command.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hook_place import (
    DELETE,
    SHELL,
    WRITE,
    Place,
    place_fixture,  # noqa: F401  (the fixture ``place``)
)
from mcp_place import ECHO

# ----------------------------------------------------------------------------- which events fire


def test_session_start_fires_first_and_session_end_last(place: Place) -> None:
    hook = place.hook()
    place.hooks(place.home, sessionStart=[hook], sessionEnd=[hook], preToolUse=[hook])
    place.run(WRITE)
    assert place.events_seen() == ["sessionStart", "preToolUse", "sessionEnd"]


def test_session_end_says_the_run_completed(place: Place) -> None:
    place.hooks(place.home, sessionEnd=[place.hook()])
    place.run()
    payload = place.seen()[0]["payload"]
    assert (payload["reason"], payload["final_status"]) == ("completed", "completed")
    assert isinstance(payload["duration_ms"], int)


def test_session_end_says_error_when_the_run_fails(place: Place) -> None:
    place.hooks(place.home, sessionEnd=[place.hook()])
    place.run({"fake": "exit", "code": 1})
    assert place.seen()[0]["payload"]["final_status"] == "error"


def test_session_starts_env_reaches_later_hooks(place: Place) -> None:
    start = place.hook(answer={"env": {"FROM_SESSION_START": "yes"}})
    place.hooks(place.home, sessionStart=[start], preToolUse=[place.hook()])
    place.run(WRITE)
    assert place.seen()[1]["env"]["FROM_SESSION_START"] == "yes"


def test_prompt_stop_and_response_hooks_never_fire(place: Place) -> None:
    hook = place.hook()
    place.hooks(place.home, beforeSubmitPrompt=[hook], stop=[hook], afterAgentResponse=[hook])
    place.run(WRITE)
    assert place.seen() == []


@pytest.mark.parametrize(
    ("step", "tool", "tool_input"),
    [
        (WRITE, "Write", {"content": "hello\n"}),
        (DELETE, "Delete", {}),
        (SHELL, "Shell", {"command": "echo built", "timeout": 30000}),
    ],
)
def test_pre_tool_use_gets_the_tool_name_input_and_call_id(
    place: Place, step: dict[str, Any], tool: str, tool_input: dict[str, Any]
) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(step)
    payload = place.seen()[0]["payload"]
    assert payload["tool_name"] == tool
    assert tool_input.items() <= payload["tool_input"].items()
    assert payload["tool_use_id"] == step["call_id"]


def test_a_write_hook_sees_the_absolute_file_path(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    assert place.seen()[0]["payload"]["tool_input"]["file_path"] == str(
        place.workspace / "notes.txt"
    )


def test_a_matcher_picks_the_tool(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(matcher="Shell"), place.hook(matcher="Write")])
    place.run(WRITE)
    assert [entry["payload"]["tool_name"] for entry in place.seen()] == ["Write"]


def test_an_mcp_call_fires_pre_tool_use_as_mcp_colon_tool(place: Place) -> None:
    pid_file = place.root / "server.pid"
    servers = {"echo": {"command": sys.executable, "args": [ECHO, str(pid_file)]}}
    (place.home / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    place.hooks(place.home, preToolUse=[place.hook(matcher="MCP:echo")])
    place.run({"fake": "mcp_call", "server": "echo", "tool": "echo", "args": {"q": 1}})
    payload = place.seen()[0]["payload"]
    assert (payload["tool_name"], payload["tool_input"]) == ("MCP:echo", {"q": 1})


def test_post_tool_use_gets_the_output_as_a_json_string(place: Place) -> None:
    place.hooks(place.home, postToolUse=[place.hook()])
    place.run(WRITE)
    payload = place.seen()[0]["payload"]
    output = {"file_path": str(place.workspace / "notes.txt"), "success": True}
    assert json.loads(payload["tool_output"]) == output
    assert isinstance(payload["duration"], float)


def test_post_tool_use_does_not_fire_for_a_call_that_did_not_run(place: Place) -> None:
    place.hooks(place.home, postToolUse=[place.hook()])
    place.run(WRITE, flags=("--trust",))  # no --force: rejected
    assert place.seen() == []


def test_after_file_edit_gets_the_old_and_new_text(place: Place) -> None:
    (place.workspace / "notes.txt").write_text("before\n")
    place.hooks(place.home, afterFileEdit=[place.hook()])
    place.run(WRITE)
    payload = place.seen()[0]["payload"]
    assert payload["file_path"] == str(place.workspace / "notes.txt")
    assert payload["edits"] == [{"old_string": "before\n", "new_string": "hello\n"}]


def test_before_shell_execution_gets_the_command_cwd_and_sandbox(place: Place) -> None:
    place.hooks(place.home, beforeShellExecution=[place.hook()])
    place.run(SHELL)
    payload = place.seen()[0]["payload"]
    assert (payload["command"], payload["cwd"], payload["sandbox"]) == (
        "echo built",
        str(place.workspace),
        False,
    )
