"""Hooks that decide, in print mode (docs/extend.md, "Hooks that decide"), end to end on the
fake, which runs ``$HOME/.cursor/hooks.json`` as the contract says the CLI does (through
``sh -c``, the event on stdin, exit 2, ``failClosed``, the answer spellings): a run given
``Hooks`` gets its own HOME whose ``hooks.json`` runs the relay in hook mode, and the
callbacks of this process decide on the agent's calls; nothing is left after the run and
the user's HOME, config and tree are never changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from extend_env import A_FILE_OF_THEIRS, CONFIG, LIMIT, UserHome, left_behind, short_temp_dir
from fake_env import fake_env

from agent_sdk import AgentOptions, Session, run, run_async
from agent_sdk.extend import (
    Allow,
    Approval,
    Deny,
    Hooks,
    ShellCommand,
    ToolUse,
    ToolUsed,
    approval_hooks,
    tool,
)
from agent_sdk.extend._host import ToolHost
from agent_sdk.tool_results import Rejection

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue by its number."""
    return f"Issue {number}: hooks that decide"


@tool
def post_comment(number: int, text: str) -> str:
    """Post a comment on an issue."""
    return "posted"


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "hooks-", tmpdir_env=True) as where:
        yield where


@pytest.fixture
def user(temp_dir: Path) -> UserHome:
    """A user's HOME with a config dir and a file of theirs."""
    return UserHome(temp_dir, {**CONFIG, **A_FILE_OF_THEIRS})


@pytest.fixture
def workspace(temp_dir: Path) -> Path:
    path = temp_dir / "ws"
    path.mkdir()
    return path


@pytest.fixture
def options(fake_binary: str, user: UserHome, workspace: Path) -> MakeOptions:
    def make(hooks: Hooks | None, **kwargs: Any) -> AgentOptions:
        # Real writes (the fake simulates them unless asked): what a hook lets through
        # or changes is on disk.
        env = user.run_env(FAKE_AGENT_SCENARIO="issue_bot", FAKE_AGENT_FILES="real")
        kwargs.setdefault("tools", [lookup_issue, post_comment])
        return AgentOptions(
            binary=fake_binary, cwd=workspace, env=env, force=True, hooks=hooks, **kwargs
        )

    return make


def call_of(result: Any, kind: str) -> Any:
    (call,) = [c for c in result.tool_calls if c.kind == kind]
    return call


def allow(call: object) -> str:
    return "allow"


async def test_an_allowed_shell_command_is_asked_about_then_runs(options: MakeOptions) -> None:
    asked: list[tuple[str, str | None]] = []

    def record(call: ShellCommand) -> str:
        asked.append((call.command, call.cwd))
        return "allow"

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_shell=record)))
    assert [command for command, _ in asked] == ["echo tests pass"]
    assert call_of(result, "shellToolCall").outcome == "success"
    assert result.hook_errors == []


async def test_a_denied_write_is_rejected_with_the_callbacks_reason(
    options: MakeOptions, workspace: Path
) -> None:
    def no_writes(call: ToolUse) -> Any:
        return Deny("writes wait for review") if call.tool_name == "Write" else "allow"

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_tool=no_writes)))
    write = call_of(result, "writeToolCall")
    assert write.outcome == "rejected"
    assert isinstance(write.result, Rejection)
    assert write.result.by_hook
    assert write.result.hook_message == "writes wait for review"
    assert not (workspace / "triage.md").exists()


async def test_a_denied_shell_command_is_rejected_by_a_hook(options: MakeOptions) -> None:
    def no_shell(call: ShellCommand) -> Any:
        return Deny("no shell")

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_shell=no_shell)))
    shell = call_of(result, "shellToolCall")
    assert shell.outcome == "rejected"
    assert shell.result.by_hook  # the CLI's fixed words for a shell deny (§6.4)


async def test_updated_input_changes_what_the_call_does(
    options: MakeOptions, workspace: Path
) -> None:
    def redirect(call: ToolUse) -> Any:
        if call.tool_name != "Write":
            return "allow"
        assert isinstance(call.tool_input, dict)
        return Allow(updated_input={**call.tool_input, "content": "checked by a person\n"})

    with anyio.fail_after(LIMIT):
        await run_async("triage", options=options(Hooks(before_tool=redirect)))
    assert (workspace / "triage.md").read_text() == "checked by a person\n"


async def test_after_tool_context_reaches_the_calls_hook_contexts(options: MakeOptions) -> None:
    def context(call: ToolUsed) -> str | None:
        return "the tracker is the source of truth" if call.tool_name == "Write" else None

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(after_tool=context)))
    write = call_of(result, "writeToolCall")
    assert write.hook_additional_contexts == ["the tracker is the source of truth"]


async def test_a_callback_that_raises_denies_and_the_run_keeps_the_error(
    options: MakeOptions,
) -> None:
    def broken(call: ToolUse) -> Any:
        raise RuntimeError("the review service is down")

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_tool=broken)))
    write = call_of(result, "writeToolCall")
    assert write.outcome == "rejected"
    assert "before_tool hook failed" in (write.result.hook_message or "")
    assert "review service" not in write.result.reason  # never sent to the agent
    assert {str(e) for e in result.hook_errors} == {"the review service is down"}


async def test_a_callback_that_hangs_denies_after_its_timeout(options: MakeOptions) -> None:
    async def hangs(call: ShellCommand) -> Any:
        await anyio.sleep(LIMIT)

    hooks = Hooks(before_shell=hangs, timeout=0.5)
    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(hooks))
    assert call_of(result, "shellToolCall").outcome == "rejected"
    assert [type(e) for e in result.hook_errors] == [TimeoutError]


async def test_hooks_without_tools_need_no_tools(options: MakeOptions) -> None:
    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_shell=Deny), tools=()))
    assert call_of(result, "shellToolCall").outcome == "rejected"


async def test_nothing_is_left_on_disk_nor_in_the_users_home_or_tree(
    options: MakeOptions, temp_dir: Path, user: UserHome, workspace: Path
) -> None:
    before = user.snapshot()
    with anyio.fail_after(LIMIT):
        await run_async("triage", options=options(Hooks(before_tool=allow, before_shell=allow)))
    assert left_behind(temp_dir) == []
    assert user.snapshot() == before
    assert sorted(os.listdir(workspace)) == ["triage.md"]  # the agent's only


async def test_the_users_own_hooks_keep_running(options: MakeOptions, user: UserHome) -> None:
    script = user.cursor / "hooks" / "log.sh"
    script.parent.mkdir()
    log = user.home.parent / "hook.log"
    script.write_text(f'#!/bin/sh\ncat >> "{log}"\necho\necho "{{}}"\n')
    script.chmod(0o700)
    theirs = {"version": 1, "hooks": {"preToolUse": [{"command": "./hooks/log.sh"}]}}
    (user.cursor / "hooks.json").write_text(json.dumps(theirs))
    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(Hooks(before_shell=allow)))
    logged = log.read_text()
    assert logged.count('"preToolUse"') == 4  # two MCP calls, the shell, the write
    assert call_of(result, "shellToolCall").outcome == "success"


async def test_a_streamed_run_answers_its_hooks(options: MakeOptions) -> None:
    outcomes = []
    with anyio.fail_after(LIMIT):
        async with run("triage", options=options(Hooks(before_shell=Deny))) as events:
            async for event in events:
                outcome = getattr(event, "outcome", None)
                if getattr(event, "kind", None) == "shellToolCall" and outcome:
                    outcomes.append(outcome)
            errors = events.hook_errors
    assert outcomes == ["rejected"]
    assert errors == []


async def test_a_session_answers_its_hooks_on_each_turn(options: MakeOptions) -> None:
    asked: list[str] = []

    def record(call: ShellCommand) -> str:
        asked.append(call.command)
        return "allow"

    with anyio.fail_after(LIMIT):
        session = Session(options=options(Hooks(before_shell=record)))
        await session.send("triage")
        await session.send("again")
    assert asked == ["echo tests pass", "echo tests pass"]


def test_a_hook_that_cannot_reach_the_run_blocks_the_call(
    temp_dir: Path, user: UserHome, workspace: Path
) -> None:
    # The run's hooks.json with its host gone (the run ended, the socket removed): the
    # relay exits 2, which blocks, and its words are the stream's reason.
    from agent_sdk.extend._home import hooks_json

    host = ToolHost([], hooks=Hooks(before_tool=allow))
    host.open()
    (user.cursor / "hooks.json").write_bytes(hooks_json(host, user.cursor / "none.json"))
    host.close()
    env = fake_env(FAKE_AGENT_SCENARIO="issue_bot", HOME=str(user.home))
    env["AGENT_SDK_HOOKS_TOKEN"] = "t0ken-of-a-gone-run"
    done = subprocess.run(
        [sys.executable, "-m", "fake_agent", "-p", "--output-format", "stream-json", "--force"],
        input=b"triage",
        capture_output=True,
        cwd=workspace,
        env=env,
        timeout=LIMIT,
        check=True,
    )
    reasons = [
        json.loads(line)["tool_call"]["writeToolCall"]["result"]["rejected"]["reason"]
        for line in done.stdout.splitlines()
        if b'"writeToolCall"' in line and b'"completed"' in line
    ]
    assert len(reasons) == 1
    assert reasons[0].startswith("Hook blocked with message: agent_sdk relay: cannot reach")
    assert not (workspace / "triage.md").exists()


def test_a_run_given_something_else_as_hooks_is_refused() -> None:
    from agent_sdk.errors import AgentConfigError

    with pytest.raises(AgentConfigError, match="not a Hooks"):
        AgentOptions(hooks={"before_tool": allow})


def test_the_relay_and_hooks_json_never_hold_the_token(temp_dir: Path) -> None:
    from agent_sdk.extend._home import hooks_json

    host = ToolHost([], hooks=Hooks(before_tool=allow))
    host.open()
    try:
        written = hooks_json(host, temp_dir / "none.json")
    finally:
        host.close()
    assert host.token.encode() not in written
    entry = json.loads(written)["hooks"]["preToolUse"][0]
    assert entry["failClosed"] is True
    assert entry["command"].split()[-2:] == ["hook", host.socket_path]
    assert os.environ.get("AGENT_SDK_HOOKS_TOKEN") is None


async def test_one_approval_callback_is_asked_before_each_call_that_changes_something(
    options: MakeOptions, workspace: Path
) -> None:
    labels: list[str] = []

    def approve(request: Approval) -> Any:
        labels.append(request.label)
        return Deny("a person said no") if request.kind == "shell" else "allow"

    with anyio.fail_after(LIMIT):
        result = await run_async("triage", options=options(approval_hooks(approve)))
    assert labels == [
        "tool lookup_issue",  # as its events say it (ToolCall.label)
        "$ echo tests pass",
        f"write {workspace / 'triage.md'}",
        "tool post_comment",
    ]
    assert call_of(result, "shellToolCall").outcome == "rejected"
    assert call_of(result, "writeToolCall").outcome == "success"
