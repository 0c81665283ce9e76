"""The fake runs hooks in print mode as the contract says the CLI does (docs/protocol.md
§6; fake_agent/scenarios/README.md "Hooks"): the files and their format, which events
fire, the payload, the answers and what the stream shows of them. Each hook is
tests/fake/hook_script.py, run through ``sh -c``, recording what it saw."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_env import fake_env
from proctable import is_running, settles
from test_fake_mcp import ECHO

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


@pytest.fixture
def place(tmp_path: Path) -> Place:
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


# ----------------------------------------------------------------------------- files, format


def test_a_user_hook_runs_from_the_users_cursor_dir(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [str(place.home / ".cursor")]


def test_a_project_hook_runs_from_the_workspace_root(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [str(place.workspace)]


def test_project_hooks_run_in_a_workspace_trusted_by_force_alone(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.run(WRITE, flags=("--force",))
    assert place.events_seen() == ["preToolUse"]


def test_project_and_user_hooks_both_run_project_first(place: Place) -> None:
    place.hooks(place.workspace, preToolUse=[place.hook()])
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    assert [entry["cwd"] for entry in place.seen()] == [
        str(place.workspace),
        str(place.home / ".cursor"),
    ]


def test_a_file_without_version_1_is_rejected_with_a_line_on_stderr(place: Place) -> None:
    place.hooks(place.home, {"hooks": {"preToolUse": [place.hook()]}})
    proc = place.run(WRITE)
    assert place.seen() == []
    path = place.home / ".cursor" / "hooks.json"
    message = f'Ignoring hooks file {path}: it needs "version": 1 and a "hooks" object\n'
    assert proc.stderr.decode() == message
    assert proc.returncode == 0


def test_a_nested_claude_style_group_does_not_fire(place: Place) -> None:
    group = {"matcher": "Write", "hooks": [place.hook()]}
    place.hooks(place.home, preToolUse=[group])
    place.run(WRITE)
    assert place.seen() == []


def test_the_payload_has_the_common_keys_of_the_contract(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    proc = place.run(WRITE)
    session_id = json.loads(proc.stdout.split(b"\n")[0])["session_id"]
    payload = place.seen()[0]["payload"]
    assert payload["conversation_id"] == payload["session_id"] == session_id
    assert payload["generation_id"] == session_id
    assert payload["hook_event_name"] == "preToolUse"
    assert payload["workspace_roots"] == [str(place.workspace)]
    assert payload["cursor_version"].startswith("2026.")
    assert payload["model"] == "auto"
    assert payload["transcript_path"] is None


def test_a_hook_gets_the_project_dir_and_version_but_not_the_conversation_id(
    place: Place,
) -> None:
    place.hooks(place.home, preToolUse=[place.hook()])
    place.run(WRITE)
    env = place.seen()[0]["env"]
    assert env["CURSOR_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"] == str(place.workspace)
    assert env["CURSOR_VERSION"].startswith("2026.")
    assert "CURSOR_CONVERSATION_ID" not in env


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


# ----------------------------------------------------------------------------- answers


def test_exit_2_blocks_with_the_hooks_stderr_and_the_agent_note(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=2, err="REASON-EXIT2\n")])
    proc = place.run(WRITE)
    target = str(place.workspace / "notes.txt")
    reason = f"Hook blocked with message: REASON-EXIT2\n\n{NOTE}"
    assert result(proc) == {"rejected": {"path": target, "reason": reason}}
    assert not (place.workspace / "notes.txt").exists()


def test_a_deny_with_snake_case_user_message_shows_the_words(place: Place) -> None:
    answer = {"permission": "deny", "user_message": "Only files under src/ may change"}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    reason = result(place.run(WRITE))["rejected"]["reason"]
    assert reason == f"Only files under src/ may change\n\n{NOTE}"


def test_a_deny_with_camel_case_words_shows_the_clis_own_sentence(place: Place) -> None:
    answer = {"permission": "deny", "userMessage": "dropped", "agentMessage": "dropped"}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    reason = result(place.run(SHELL))["rejected"]["reason"]
    assert reason == f"Shell blocked by preToolUse hook\n\n{NOTE}"


def test_a_claude_style_deny_shows_its_reason(place: Place) -> None:
    specific = {"permissionDecision": "deny", "permissionDecisionReason": "not today"}
    place.hooks(place.home, preToolUse=[place.hook(answer={"hookSpecificOutput": specific})])
    assert result(place.run(DELETE)) == {"rejected": {"path": "", "reason": f"not today\n\n{NOTE}"}}


def test_a_before_shell_execution_deny_shows_the_fixed_paragraphs(place: Place) -> None:
    answer = {"permission": "deny", "user_message": "no builds now"}
    place.hooks(place.home, beforeShellExecution=[place.hook(answer=answer)])
    rejected = result(place.run(SHELL))["rejected"]
    assert rejected == {
        "command": "echo built",
        "workingDirectory": str(place.workspace),
        "isReadonly": False,
        "reason": SHELL_BLOCKED,
    }


def test_updated_input_changes_what_is_written(place: Place) -> None:
    answer = {"permission": "allow", "updated_input": {"content": "changed\n"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    place.run(WRITE)
    assert (place.workspace / "notes.txt").read_text() == "changed\n"


def test_updated_input_changes_the_shell_command(place: Place) -> None:
    answer = {"updated_input": {"command": "echo safer"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    assert result(place.run(SHELL))["success"]["stdout"] == "safer\n"


def test_post_tool_use_context_lands_in_hook_additional_contexts(place: Place) -> None:
    answer = {"additional_context": "Edits here need a ticket."}
    place.hooks(place.home, postToolUse=[place.hook(answer=answer)])
    assert completed(place.run(WRITE))["hookAdditionalContexts"] == ["Edits here need a ticket."]


def test_another_non_zero_exit_lets_the_call_through(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=1, answer={"permission": "deny"})])
    assert "success" in result(place.run(WRITE))


def test_a_failed_hook_with_fail_closed_blocks(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(exit=1, failClosed=True)])
    reason = result(place.run(WRITE))["rejected"]["reason"]
    assert reason == f"Write blocked by preToolUse hook\n\n{NOTE}"


def test_an_answer_that_is_not_json_lets_the_call_through(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(answer="deny, please")])
    assert "success" in result(place.run(WRITE))


def test_a_hook_past_its_timeout_is_killed_and_the_call_goes_ahead(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60, timeout=0.5)])
    proc = place.run(WRITE)
    assert "success" in result(proc)
    assert settles(lambda: not is_running(place.seen()[0]["pid"]))


def test_sigterm_to_the_fake_kills_a_running_hook(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60)])
    hello = (SCENARIOS_DIR / "hello.ndjson").read_text("utf-8").splitlines()
    scenario = place.root / "scenario.ndjson"
    scenario.write_text("\n".join([*hello[:2], json.dumps(WRITE)]) + "\n", "utf-8")
    env = fake_env(HOME=str(place.home), FAKE_AGENT_SCENARIO=str(scenario))
    argv = ["-p", "-f", "--output-format", "stream-json", "--workspace", str(place.workspace)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fake_agent", *argv, "go"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    assert settles(lambda: bool(place.seen()), within=WAIT)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(WAIT) == -signal.SIGTERM
    assert settles(lambda: not is_running(place.seen()[0]["pid"]))


def test_a_hook_past_its_timeout_with_fail_closed_blocks(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(sleep=60, timeout=0.5, failClosed=True)])
    assert "rejected" in result(place.run(WRITE))


# ----------------------------------------------------------------------------- the shell directive


def test_shell_answers_an_echo_itself_with_force(place: Place) -> None:
    success = result(place.run(SHELL))["success"]
    assert (success["stdout"], success["exitCode"]) == ("built\n", 0)


def test_shell_without_force_is_rejected_with_an_empty_reason(place: Place) -> None:
    rejected = result(place.run(SHELL, flags=("--trust",)))["rejected"]
    assert rejected["reason"] == ""


def test_shell_runs_any_command_for_real(place: Place) -> None:
    success = result(place.run({"fake": "shell", "command": "echo one > f; cat f; exit 4"}))
    assert (success["success"]["stdout"], success["success"]["exitCode"]) == ("one\n", 4)
    assert (place.workspace / "f").read_text() == "one\n"


def test_a_command_a_hook_changed_runs_as_changed(place: Place) -> None:
    answer = {"updated_input": {"command": "printf changed > f"}}
    place.hooks(place.home, preToolUse=[place.hook(answer=answer)])
    assert result(place.run(SHELL))["success"]["stdout"] == ""
    assert (place.workspace / "f").read_text() == "changed"


# ----------------------------------------------------------------------------- hostile input


def test_a_hooks_file_that_is_not_json_is_rejected_with_a_line_on_stderr(place: Place) -> None:
    (place.home / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": {')
    proc = place.run(WRITE)
    assert proc.stderr.decode().startswith("Ignoring hooks file ")
    assert "success" in result(proc)


def test_entries_of_the_wrong_types_never_fire_and_break_nothing(place: Place) -> None:
    garbage = [1, "sh", None, {"command": 5}, {"command": "true", "type": "prompt"}]
    place.hooks(place.home, preToolUse="x", postToolUse=garbage)
    proc = place.run(WRITE)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert "success" in result(proc)


def test_an_answer_that_is_a_json_array_is_a_failed_hook(place: Place) -> None:
    place.hooks(place.home, preToolUse=[place.hook(answer=[{"permission": "deny"}])])
    assert "success" in result(place.run(WRITE))
