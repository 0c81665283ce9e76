"""Hooks that decide (docs/extend.md "Hooks"; docs/protocol.md §6): the answer each hook
call gets from the program's callbacks, and the hooks.json that makes the CLI ask. IO-free:
the JSON the CLI writes on a hook's stdin in, what the hook prints and its exit code out.
"""

from __future__ import annotations

import json
import math
from typing import Any

import anyio
import pytest

from agent_sdk import AgentConfigError
from agent_sdk.extend import (
    Allow,
    Deny,
    FileEdited,
    Hooks,
    SessionStarted,
    ShellCommand,
    ToolUse,
    ToolUsed,
    approval_hooks,
)
from agent_sdk.extend._hooks import answer, hooks_file

pytestmark = pytest.mark.anyio

SESSION = "8f4c2a1e-7b3d-4e8a-9f10-2d6b8c0a5e71"


def payload(event: str, **keys: Any) -> bytes:
    base = {
        "conversation_id": SESSION,
        "generation_id": SESSION,
        "session_id": SESSION,
        "model": "composer-2.5",
        "hook_event_name": event,
        "cursor_version": "2026.10.01-e373342",
        "workspace_roots": ["/repo"],
        "user_email": "dev@example.com",
        "transcript_path": None,
    }
    return json.dumps({**base, **keys}).encode()


SHELL = payload("preToolUse", tool_name="Shell", tool_input={"command": "rm -rf x", "cwd": "/repo"})


async def ask(hooks: Hooks, line: bytes) -> tuple[int, Any, str]:
    errors: list[BaseException] = []
    reply = await answer(hooks, line, errors)
    out = json.loads(reply.stdout) if reply.stdout else None
    return reply.exit_code, out, reply.stderr.decode()


async def test_a_gate_that_allows_answers_permission_allow() -> None:
    assert await ask(Hooks(before_tool=lambda call: "allow"), SHELL) == (
        0,
        {"permission": "allow"},
        "",
    )


async def test_a_deny_carries_its_reason_as_snake_case_user_message() -> None:
    hooks = Hooks(before_tool=lambda call: Deny("not on main"))
    assert (await ask(hooks, SHELL))[1] == {"permission": "deny", "user_message": "not on main"}


async def test_a_bare_deny_still_gives_a_reason() -> None:
    _code, out, _ = await ask(Hooks(before_tool=lambda call: "deny"), SHELL)
    assert out["permission"] == "deny"
    assert out["user_message"]


async def test_allow_with_new_input_sends_updated_input() -> None:
    hooks = Hooks(before_tool=lambda call: Allow(updated_input={"command": "ls"}))
    assert (await ask(hooks, SHELL))[1] == {
        "permission": "allow",
        "updated_input": {"command": "ls"},
    }


async def test_a_shell_command_cannot_be_changed_only_allowed() -> None:
    line = payload("beforeShellExecution", command="ls", cwd="/repo", sandbox=False)
    hooks = Hooks(before_shell=lambda call: Allow(updated_input={"command": "rm"}))
    assert (await ask(hooks, line))[1] == {"permission": "allow"}


async def test_the_callback_gets_the_payload_typed_and_raw() -> None:
    seen: list[ToolUse] = []

    def gate(call: ToolUse) -> str:
        seen.append(call)
        return "allow"

    await ask(Hooks(before_tool=gate), SHELL)
    (call,) = seen
    assert call.tool_name == "Shell"
    assert call.tool_input == {"command": "rm -rf x", "cwd": "/repo"}
    assert call.session_id == SESSION
    assert call.model == "composer-2.5"
    assert call.raw["user_email"] == "dev@example.com"  # a key not named is kept in raw


async def test_an_async_gate_is_awaited() -> None:
    async def gate(call: ShellCommand) -> Deny:
        await anyio.lowlevel.checkpoint()
        return Deny(f"no {call.command}")

    line = payload("beforeShellExecution", command="curl x", cwd="/repo")
    assert (await ask(Hooks(before_shell=gate), line))[1]["user_message"] == "no curl x"


async def test_a_gate_that_raises_denies_and_keeps_the_error_from_the_agent() -> None:
    def gate(call: ToolUse) -> str:
        raise ValueError("sk-secret-in-the-message")

    errors: list[BaseException] = []
    reply = await answer(Hooks(before_tool=gate), SHELL, errors)
    out = json.loads(reply.stdout)
    assert out["permission"] == "deny"
    assert "failed" in out["user_message"]
    assert "sk-secret" not in reply.stdout.decode()
    assert [type(e) for e in errors] == [ValueError]


async def test_a_gate_that_takes_too_long_denies() -> None:
    async def gate(call: ToolUse) -> str:
        await anyio.sleep_forever()
        return "allow"

    errors: list[BaseException] = []
    reply = await answer(Hooks(before_tool=gate, timeout=0.01), SHELL, errors)
    assert json.loads(reply.stdout)["permission"] == "deny"
    assert [type(e) for e in errors] == [TimeoutError]


@pytest.mark.parametrize(
    "decision",
    [
        Allow(updated_input={"when": object()}),
        Allow(updated_input={"text": "\ud800"}),  # a lone surrogate: no UTF-8
        Allow(updated_input="ls"),  # type: ignore[arg-type]
        Deny(object()),  # type: ignore[arg-type]
    ],
    ids=["an object", "a lone surrogate", "not a dict", "a reason JSON cannot hold"],
)
async def test_an_answer_that_cannot_be_sent_denies_and_is_kept(decision: Any) -> None:
    # It raised out of the answer: the relay got nothing and blocked, with no reason, and
    # the error was not in hook_errors (issue 34).
    errors: list[BaseException] = []
    reply = await answer(Hooks(before_tool=lambda call: decision), SHELL, errors)
    assert reply.exit_code == 0
    out = json.loads(reply.stdout)
    assert out["permission"] == "deny"
    assert "before_tool hook failed" in out["user_message"]
    assert [type(e) for e in errors] == [TypeError]
    assert "before_tool" in str(errors[0])


async def test_an_observers_text_that_cannot_be_sent_adds_nothing_and_is_kept() -> None:
    errors: list[BaseException] = []
    line = payload("postToolUse", tool_name="Read", tool_input={}, tool_output="{}")
    reply = await answer(Hooks(after_tool=lambda used: "\ud800"), line, errors)
    assert (reply.exit_code, json.loads(reply.stdout)) == (0, {})
    assert [type(e) for e in errors] == [TypeError]


async def test_a_gate_that_answers_something_else_denies() -> None:
    errors: list[BaseException] = []
    reply = await answer(Hooks(before_tool=lambda call: True), SHELL, errors)
    assert json.loads(reply.stdout)["permission"] == "deny"
    assert [type(e) for e in errors] == [TypeError]


async def test_a_payload_of_the_wrong_shape_denies_a_gate() -> None:
    line = payload("preToolUse", tool_name=["not", "a", "name"])
    errors: list[BaseException] = []
    reply = await answer(Hooks(before_tool=lambda call: "allow"), line, errors)
    assert json.loads(reply.stdout)["permission"] == "deny"
    assert errors


@pytest.mark.parametrize(
    "line",
    [b"", b"not json", b"[1]", b'{"hook_event_name": 3}', b'{"hook_event_name": "\xff"}'],
)
async def test_input_that_is_no_hook_event_is_denied_in_json_and_exits_2(line: bytes) -> None:
    code, out, err = await ask(Hooks(before_tool=lambda call: "allow"), line)
    assert code == 2
    assert out is not None
    assert out["permission"] == "deny"
    assert "agent_sdk" in err


async def test_an_event_without_a_callback_gets_an_empty_answer() -> None:
    assert await ask(Hooks(), SHELL) == (0, {}, "")


async def test_after_tool_text_becomes_additional_context() -> None:
    line = payload("postToolUse", tool_name="Write", tool_output='{"success":true}', duration=3.5)
    seen: list[ToolUsed] = []

    def note(call: ToolUsed) -> str:
        seen.append(call)
        return "remember to run the tests"

    assert (await ask(Hooks(after_tool=note), line))[1] == {
        "additional_context": "remember to run the tests"
    }
    assert seen[0].tool_output == '{"success":true}'
    assert seen[0].duration == 3.5


async def test_an_observer_that_raises_adds_nothing_and_blocks_nothing() -> None:
    def note(started: SessionStarted) -> str:
        raise RuntimeError("boom")

    errors: list[BaseException] = []
    reply = await answer(Hooks(session_start=note), payload("sessionStart"), errors)
    assert (reply.exit_code, json.loads(reply.stdout)) == (0, {})
    assert errors


async def test_after_edit_gets_the_edits() -> None:
    seen: list[FileEdited] = []
    line = payload(
        "afterFileEdit", file_path="/repo/a.py", edits=[{"old_string": "a", "new_string": "b"}]
    )
    await ask(Hooks(after_edit=seen.append), line)
    assert seen[0].file_path == "/repo/a.py"
    assert [(e.old_string, e.new_string) for e in seen[0].edits] == [("a", "b")]


def test_the_hooks_file_is_version_1_with_flat_entries_for_the_callbacks_given() -> None:
    hooks = Hooks(before_shell=lambda call: "allow", after_tool=lambda call: None, timeout=20)
    document = json.loads(hooks_file(hooks, ["/usr/bin/python3", "-I", "/x/relay.py", "hook"]))
    assert document["version"] == 1
    # sessionStart always: the probe that tells the run its hooks are running
    assert set(document["hooks"]) == {"beforeShellExecution", "postToolUse", "sessionStart"}
    (gate,) = document["hooks"]["beforeShellExecution"]
    assert gate["command"] == "/usr/bin/python3 -I /x/relay.py hook"
    assert gate["failClosed"] is True
    assert gate["timeout"] > 20
    assert document["hooks"]["postToolUse"][0]["failClosed"] is False


def test_the_hooks_file_quotes_the_command_for_the_clis_shell() -> None:
    hooks = Hooks(before_tool=lambda call: "allow")
    document = json.loads(hooks_file(hooks, ["/home/a b/py'thon", "$(touch x)"]))
    command = document["hooks"]["preToolUse"][0]["command"]
    assert command == "'/home/a b/py'\"'\"'thon' '$(touch x)'"


# --- the timeout, checked when the hooks are made ------------------------------------------
BAD_TIMEOUTS = [math.nan, math.inf, -1, 0, "30", True, None]


@pytest.mark.parametrize("timeout", BAD_TIMEOUTS, ids=repr)
def test_a_timeout_that_is_no_positive_number_of_seconds_is_refused(timeout: Any) -> None:
    # It was taken, then the run died with a raw ValueError (nan, inf: in hooks.json's
    # timeout) or TypeError ("30"), or every gate denied (-1, 0).
    with pytest.raises(AgentConfigError) as caught:
        Hooks(before_tool=lambda call: "allow", timeout=timeout)
    assert caught.value.message.startswith(f"Hooks(timeout={timeout!r}): timeout must be")
    assert "seconds" in caught.value.message
    assert caught.value.hint is not None


@pytest.mark.parametrize("timeout", BAD_TIMEOUTS, ids=repr)
def test_approval_hooks_refuse_it_in_their_own_terms(timeout: Any) -> None:
    with pytest.raises(AgentConfigError, match=r"^approval_hooks\(timeout="):
        approval_hooks(lambda request: "allow", timeout=timeout)


@pytest.mark.parametrize("timeout", [0.5, 30, 1e6])
def test_a_positive_finite_timeout_is_taken(timeout: float) -> None:
    assert Hooks(timeout=timeout).timeout == timeout
    assert approval_hooks(lambda request: "allow", timeout=timeout).timeout == timeout


def test_a_string_timeout_is_told_how_to_convert() -> None:
    with pytest.raises(AgentConfigError) as caught:
        Hooks(timeout="30")  # type: ignore[arg-type]
    assert caught.value.hint is not None
    assert "float('30')" in caught.value.hint
