"""The relay in hook mode and the host's hook calls (docs/extend.md, "How hooks reach the
program"), on real processes: the relay is started as the CLI starts a hook (the event's
JSON on stdin, the socket's path as its argument, the token in its environment), and the
answer of the ``Hooks`` of this test's process comes back as its stdout, stderr and exit
code, on asyncio and trio.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import LIMIT, PONG, raw_ping, serving, short_temp_dir

from agent_sdk.extend import Deny, Hooks, ShellCommand, ToolUse
from agent_sdk.extend._host import HOOKS_TOKEN_ENV, relay_command

pytestmark = pytest.mark.anyio


def shell_event(command: str) -> bytes:
    payload = {"hook_event_name": "beforeShellExecution", "command": command, "cwd": "/w"}
    return json.dumps(payload).encode() + b"\n"


def tool_event(tool: str = "Write") -> bytes:
    payload = {"hook_event_name": "preToolUse", "tool_name": tool, "tool_input": {"a": 1}}
    return json.dumps(payload).encode()  # no newline: the relay reads until EOF too


def no_pushes(call: ShellCommand) -> Any:
    return Deny("pushing is for people") if call.command.startswith("git push") else "allow"


def broken(call: ToolUse) -> Any:
    raise RuntimeError("the tracker is down")


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "hookrelay-") as where:
        yield where


async def hook_call(
    host_path: str, token: str | None, event: bytes
) -> tuple[int, dict[str, Any] | None, bytes]:
    env = {HOOKS_TOKEN_ENV: token} if token is not None else {}
    with anyio.fail_after(LIMIT):
        done = await anyio.run_process(
            relay_command("hook", host_path), input=event, env=env, check=False
        )
    answer = json.loads(done.stdout) if done.stdout else None
    return done.returncode, answer, done.stderr


async def test_an_allowed_command_is_answered_allow_with_exit_0(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_shell=no_pushes)) as host:
        code, answer, _ = await hook_call(host.socket_path, host.token, shell_event("ls"))
    assert (code, answer) == (0, {"permission": "allow"})


async def test_a_denied_command_is_answered_with_its_reason(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_shell=no_pushes)) as host:
        event = shell_event("git push origin main")
        code, answer, _ = await hook_call(host.socket_path, host.token, event)
    assert (code, answer) == (0, {"permission": "deny", "user_message": "pushing is for people"})


async def test_a_callback_that_raises_denies_and_the_host_keeps_the_error(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_tool=broken)) as host:
        code, answer, _ = await hook_call(host.socket_path, host.token, tool_event())
        errors = list(host.hook_errors)
    assert code == 0
    assert answer is not None
    assert answer["permission"] == "deny"
    assert "before_tool hook failed" in answer["user_message"]
    assert [str(e) for e in errors] == ["the tracker is down"]


async def test_a_relay_that_cannot_reach_the_host_denies_in_json_and_exits_2(
    temp_dir: Path,
) -> None:
    code, answer, stderr = await hook_call(
        str(temp_dir / "gone.sock"), "t0ken-never-shown", tool_event()
    )
    assert code == 2
    assert answer is not None
    assert answer["permission"] == "deny"
    assert "cannot reach" in answer["user_message"]
    assert b"blocked" in stderr
    assert b"t0ken-never-shown" not in stderr


async def test_an_observer_that_cannot_reach_the_host_lets_the_run_go_on_in_json(
    temp_dir: Path,
) -> None:
    edited = json.dumps({"hook_event_name": "afterFileEdit", "file_path": "a.py", "edits": []})
    code, answer, stderr = await hook_call(str(temp_dir / "gone.sock"), "t0ken", edited.encode())
    assert (code, answer) == (0, {})
    assert b"cannot reach" in stderr


async def test_a_relay_without_the_token_exits_2_and_says_why(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_tool=broken)) as host:
        code, _, stderr = await hook_call(host.socket_path, None, tool_event())
    assert code == 2
    assert b"AGENT_SDK_HOOKS_TOKEN is not set" in stderr


async def test_a_wrong_token_gets_no_answer_and_blocks(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_tool=broken)) as host:
        code, answer, stderr = await hook_call(host.socket_path, "not-the-token", tool_event())
        errors = list(host.hook_errors)
    assert (code, errors) == (2, [])  # the callback never ran
    assert answer is not None
    assert answer["permission"] == "deny"
    assert b"the call was blocked" in stderr


async def test_a_host_without_hooks_blocks_a_hook_call_in_json(temp_dir: Path) -> None:
    async with serving(hooks=None) as host:
        code, answer, stderr = await hook_call(host.socket_path, host.token, tool_event())
    assert code == 2
    assert answer is not None
    assert answer["permission"] == "deny"
    assert b"no hooks" in stderr


async def test_input_that_is_no_hook_event_is_denied_in_json_and_exits_2(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_tool=broken)) as host:
        code, answer, _ = await hook_call(host.socket_path, host.token, b'{"jsonrpc": "2.0"}\n')
    assert code == 2
    assert answer is not None
    assert answer["permission"] == "deny"


async def test_the_mcp_path_still_answers_after_a_hook_call(temp_dir: Path) -> None:
    async with serving(hooks=Hooks(before_shell=no_pushes)) as host:
        await hook_call(host.socket_path, host.token, shell_event("ls"))
        assert await raw_ping(host, host.token) == PONG
