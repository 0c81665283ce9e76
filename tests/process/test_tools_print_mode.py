"""Python tools in print mode (docs/extend.md, "Print mode"), end to end on the fake,
which reads ``$HOME/.cursor/mcp.json`` and the effective ``cli-config.json`` as the
contract says the CLI does: a run given tools gets its own HOME (our server only) and a
private config dir allowing ``Mcp(agent_sdk:*)``, the CLI calls the tools served in this
process through the relay, without ``--force``, and nothing is left after the run; the
user's HOME and config are never changed."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import msgspec
import pytest
from extend_env import (
    A_FILE_OF_THEIRS,
    CONFIG,
    LOGIN_AND_MCP,
    UserHome,
    fail,
    left_behind,
    lookup_issue,
    short_temp_dir,
)

from agent_sdk import AgentOptions, Session, run, run_async, run_sync
from agent_sdk.extend import CustomToolCall
from agent_sdk.tool_results import McpSuccess

pytestmark = pytest.mark.anyio

MakeOptions = Callable[..., AgentOptions]


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private temp dir (a socket's path is short), set as the system's and
    the CLI's temp dir: what the run makes is all in there."""
    with short_temp_dir(monkeypatch, "tools-", tmpdir_env=True) as where:
        yield where


@pytest.fixture
def user(temp_dir: Path) -> UserHome:
    """A user's HOME with a config dir (``~/.cursor``: a login, a config without any
    permission, an mcp.json of their own) and a file of theirs."""
    return UserHome(temp_dir, {**CONFIG, **LOGIN_AND_MCP, **A_FILE_OF_THEIRS})


@pytest.fixture
def tools_options(fake_binary: str, user: UserHome, temp_dir: Path) -> MakeOptions:
    def make(**kwargs: object) -> AgentOptions:
        workspace = temp_dir / "ws"
        workspace.mkdir(exist_ok=True)
        return AgentOptions(
            binary=fake_binary,
            cwd=workspace,
            env=user.run_env(FAKE_AGENT_SCENARIO="custom_tools"),
            tools=[lookup_issue, fail],
            **kwargs,  # type: ignore[arg-type]
        )

    return make


def mcp_results(result: object) -> list[tuple[str | None, str, bool]]:
    found = []
    for call in result.tool_calls:  # type: ignore[attr-defined]
        if call.kind != "mcpToolCall":
            continue
        payload = call.result
        text = payload.content[0].text.text if isinstance(payload, McpSuccess) else ""
        error = payload.is_error if isinstance(payload, McpSuccess) else True
        found.append((call.outcome, text, error))
    return found


async def test_the_cli_calls_the_tools_served_in_this_process(
    tools_options: MakeOptions,
) -> None:
    with anyio.fail_after(60):
        result = await run_async("look up issue 26", options=tools_options())
    assert mcp_results(result) == [
        ("success", '{"number":26,"title":"Issue 26"}', False),
        ("success", "RuntimeError: the tracker is down", True),
    ]


async def test_each_call_of_our_tools_knows_it_was_ours(tools_options: MakeOptions) -> None:
    with anyio.fail_after(60):
        result = await run_async("look up issue 26", options=tools_options())
    ours = [c.custom_tool for c in result.tool_calls if c.kind == "mcpToolCall"]
    assert ours == [
        CustomToolCall("lookup_issue", {"number": 26}, '{"number":26,"title":"Issue 26"}', False),
        CustomToolCall(
            "fail", {"reason": "the tracker is down"}, "RuntimeError: the tracker is down", True
        ),
    ]


async def test_a_call_that_reached_no_tool_of_ours_is_not_ours(tools_options: MakeOptions) -> None:
    options = msgspec.structs.replace(tools_options(), tools=())
    with anyio.fail_after(60):
        result = await run_async("look up issue 26", options=options)
    assert [c.custom_tool for c in result.tool_calls if c.kind == "mcpToolCall"] == [None, None]


async def test_without_tools_the_same_calls_reach_no_server(tools_options: MakeOptions) -> None:
    # The counterpart: the fake does not find our server by itself.
    options = msgspec.structs.replace(tools_options(), tools=())
    with anyio.fail_after(60):
        result = await run_async("look up issue 26", options=options)
    assert [outcome for outcome, _, _ in mcp_results(result)] == ["error", "error"]


async def test_nothing_is_left_after_the_run(tools_options: MakeOptions, temp_dir: Path) -> None:
    with anyio.fail_after(60):
        await run_async("look up issue 26", options=tools_options())
    assert left_behind(temp_dir) == []


async def test_the_users_home_and_config_are_unchanged(
    tools_options: MakeOptions, user: UserHome
) -> None:
    before = user.snapshot()
    with anyio.fail_after(60):
        await run_async("look up issue 26", options=tools_options(model="gpt-5"))
    assert user.snapshot() == before


async def test_a_streamed_run_serves_the_tools_until_its_end(tools_options: MakeOptions) -> None:
    kinds = []
    with anyio.fail_after(60):
        async with run("look up issue 26", options=tools_options()) as events:
            async for event in events:
                kinds.append(type(event).__name__)
    assert "ToolCallCompleted" in kinds


async def test_a_session_serves_the_tools_on_each_turn(tools_options: MakeOptions) -> None:
    with anyio.fail_after(60):
        session = Session(options=tools_options())
        first = await session.send("look up issue 26")
        second = await session.send("again")
    assert mcp_results(first)[0][0] == "success"
    assert mcp_results(second)[0][0] == "success"


def test_run_sync_from_a_plain_script_serves_the_tools(
    fake_binary: str, user: UserHome, temp_dir: Path
) -> None:
    program = (
        "import sys, msgspec\n"
        "from agent_sdk import AgentOptions, run_sync\n"
        "from agent_sdk.extend import tool\n"
        "@tool\n"
        "def lookup_issue(number: int) -> str:\n"
        "    '''Look up an issue.'''\n"
        "    return f'Issue {number}'\n"
        "@tool\n"
        "def fail(reason: str) -> str:\n"
        "    '''Fail.'''\n"
        "    raise RuntimeError(reason)\n"
        "options = AgentOptions(binary=sys.argv[1], tools=[lookup_issue, fail])\n"
        "result = run_sync('go', options=options)\n"
        "print([c.outcome for c in result.tool_calls if c.kind == 'mcpToolCall'])\n"
    )
    env = user.program_env(FAKE_AGENT_SCENARIO="custom_tools")
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", program, fake_binary],
        env=env,
        cwd=temp_dir,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.strip() == "['success', 'success']", done.stderr
    assert left_behind(temp_dir) == []


def test_a_sigkilled_owners_dirs_are_swept_by_the_next_run_with_tools(
    tools_options: MakeOptions, temp_dir: Path
) -> None:
    import subprocess

    program = (
        "import sys, tempfile, anyio, time\n"
        "tempfile.tempdir = sys.argv[1]\n"
        "from agent_sdk import AgentOptions\n"
        "from agent_sdk.extend import tool\n"
        "from agent_sdk.extend._home import with_tools\n"
        "from agent_sdk.options import build_invocation\n"
        "@tool\n"
        "def t() -> str:\n"
        "    '''T.'''\n"
        "    return 'x'\n"
        "async def main():\n"
        "    options = AgentOptions(tools=[t])\n"
        "    inv = build_invocation('p', options, binary='x', environ={'HOME': sys.argv[2]})\n"
        "    with_tools(inv, options)\n"
        "    print('ready', flush=True)\n"
        "    time.sleep(600)\n"
        "anyio.run(main)\n"
    )
    home = str(temp_dir / "home")
    child = subprocess.Popen(
        [sys.executable, "-c", program, str(temp_dir), home], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert len(left_behind(temp_dir)) == 3  # a HOME, a config dir, a host's dir
    run_sync("look up issue 26", options=tools_options())
    assert left_behind(temp_dir) == []
