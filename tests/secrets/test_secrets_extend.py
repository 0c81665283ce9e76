"""The MCP server of ``agent_sdk.extend`` (docs/extend.md): what it sends back to the
agent when a tool fails never holds the run's key, however the run was given it. The
server gets the run's redaction (``redaction_of``: today from its caller, later from the
run that serves the tools); a tool that raises with the key in its message, or is called
with the key where a number goes, answers with the key masked."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import anyio
import msgspec
import pytest
from extend_env import UserHome, serving, short_temp_dir
from secrets_plant import KEY, MakeOptions, fail, lookup_issue, where_shown

from agent_sdk import AgentOptions, run_async
from agent_sdk._options.redaction import redaction_of
from agent_sdk.extend import tool
from agent_sdk.extend._mcp import McpServer

pytestmark = pytest.mark.anyio


@tool
def deploy(target: str, retries: int = 1) -> str:
    """Deploy the build to a target."""
    raise RuntimeError(f"could not log in to {target} with {KEY}")


def call(arguments: dict[str, object]) -> bytes:
    params = {"name": "deploy", "arguments": arguments}
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    ).encode()


async def answers_of(planted: MakeOptions, *lines: bytes) -> list[bytes]:
    redaction = redaction_of(planted(), os.environ)
    server = McpServer([deploy], redact=redaction.text)
    return [answer for line in lines if (answer := await server.handle(line)) is not None]


async def test_a_tool_error_sent_to_the_agent_holds_no_key(planted: MakeOptions) -> None:
    (answer,) = await answers_of(planted, call({"target": "prod"}))
    assert b"could not log in to prod" in answer  # the error did go back
    assert where_shown(answer.decode()) == []


async def test_msgspecs_words_about_bad_arguments_hold_no_key(planted: MakeOptions) -> None:
    (answer,) = await answers_of(planted, call({"target": "prod", "retries": KEY}))
    assert b'"isError":true' in answer.replace(b" ", b"")
    assert where_shown(answer.decode()) == []


async def test_a_tool_error_served_by_a_runs_host_holds_no_key(planted: MakeOptions) -> None:
    # The same, through the host a run serves its tools from (a socket, after the token).
    redact = redaction_of(planted(), os.environ).text
    async with (
        serving([deploy], redact=redact) as host,
        await anyio.connect_unix(host.socket_path) as stream,
    ):
        await stream.send(host.token.encode() + b"\n" + call({"target": "prod"}) + b"\n")
        with anyio.fail_after(60):
            answer = await stream.receive()
    assert b"could not log in to prod" in answer
    assert where_shown(answer.decode()) == []
    assert where_shown(host.calls) == []


async def test_a_print_mode_runs_tool_error_and_its_run_hold_no_key(
    planted: MakeOptions, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # End to end: the fake calls `fail` through the relay; what comes back in the stream
    # (the completed mcpToolCall), the result and the CLI's argv show no key nor token.
    UserHome(tmp_path).set_as_home(monkeypatch)
    with short_temp_dir(monkeypatch, "s-"):
        options = planted("custom_tools", tools=[lookup_issue, fail], cwd=tmp_path)
        with anyio.fail_after(60):
            result = await run_async("go", options=options)
    errors = [c for c in result.tool_calls if c.kind == "mcpToolCall" and c.outcome == "success"]
    assert len(errors) == 2  # both reached the tools
    assert "could not log in with" in msgspec.json.encode(errors[1].completed).decode()
    assert where_shown(result) == []


async def test_a_print_mode_runs_failing_hook_sends_no_key_to_the_agent(
    planted: MakeOptions, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A hook's callback that raises with the key in its message: the call is denied with
    # agent_sdk's own words (the stream's reason, what the model reads), and the result
    # shows the key nowhere but in the program's own exception, kept as raised
    # (hook_errors, as the live agent's callback_errors: docs/extend.md).
    from agent_sdk.extend import Hooks

    raised = RuntimeError(f"could not log in with {KEY}")

    def broken(call: object) -> str:
        raise raised

    UserHome(tmp_path).set_as_home(monkeypatch)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with short_temp_dir(monkeypatch, "s-"):
        options = planted(
            "issue_bot",
            tools=[lookup_issue],
            hooks=Hooks(before_tool=broken, before_shell=broken),
            cwd=workspace,
            force=True,
        )
        with anyio.fail_after(60):
            result = await run_async("go", options=options)
    rejected = [c for c in result.tool_calls if c.outcome == "rejected"]
    assert len(rejected) == 4  # every gated call was denied
    assert result.hook_errors == [raised] * 4
    assert where_shown(msgspec.structs.replace(result, hook_errors=[])) == []


TOKEN_VARIABLES = ["AGENT_SDK_TOOLS_TOKEN", "AGENT_SDK_HOOKS_TOKEN"]


@pytest.mark.parametrize("given", ["tools", "hooks"])
async def test_a_print_mode_runs_own_token_is_redacted_where_the_cli_prints_it(
    given: str, fake_binary: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A CLI that logs what it passes on to the MCP server and the hooks (the token is in
    # its environment, docs/extend.md): the run's error, its stderr, its events and its
    # stdout lines show the token masked, as a key would be.
    from agent_sdk import AgentResultError
    from agent_sdk.extend import Hooks

    made: list[str] = []  # every token made, to look for
    real = secrets.token_urlsafe

    def token_urlsafe(nbytes: int | None = None) -> str:
        made.append(real(nbytes))
        return made[-1]

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    UserHome(tmp_path).set_as_home(monkeypatch)
    scenario = tmp_path / "leak.ndjson"
    scenario.write_text(json.dumps({"fake": "leak_credentials", "variables": TOKEN_VARIABLES}))
    extra: dict[str, object] = {"tools": [lookup_issue]}
    if given == "hooks":
        extra = {"hooks": Hooks(before_tool=lambda call: None)}
    options = AgentOptions(
        binary=fake_binary, env={"FAKE_AGENT_SCENARIO": str(scenario)}, cwd=tmp_path, **extra
    )
    with (
        short_temp_dir(monkeypatch, "s-"),
        anyio.fail_after(60),
        pytest.raises(AgentResultError) as caught,
    ):
        await run_async("go", options=options)
    error = caught.value
    variable = TOKEN_VARIABLES[0] if given == "tools" else TOKEN_VARIABLES[1]
    assert f"{variable}=***" in error.context.stderr  # the CLI did print it
    assert made
    for token in made:
        assert where_shown(error, token) == []
