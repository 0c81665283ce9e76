"""A run whose CLI does not load its tools or run its hooks ends before the agent acts,
with a typed error that says why (docs/extend.md, "Never silently bypassed"), end to end
on the fake playing such builds (``FAKE_AGENT_BUILD``, ``FAKE_AGENT_PLUGIN_SERVERS``);
the other channel then works where the build honours it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from extend_env import CONFIG, UserHome, short_temp_dir

from agent_sdk import AgentChannelError, AgentOptions, Event, run, run_async
from agent_sdk.extend import Decision, Hooks, tool

pytestmark = pytest.mark.anyio

LIMIT = 60.0  # a hang guard, not a timing claim


@pytest.fixture
def temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_temp_dir(monkeypatch, "builds-", tmpdir_env=True) as where:
        yield where


@pytest.fixture
def user(temp_dir: Path) -> UserHome:
    return UserHome(temp_dir, CONFIG)


class Called:
    """What the program's tool and gate were asked."""

    def __init__(self) -> None:
        self.tool: list[int] = []
        self.gate: list[Any] = []

    def lookup(self) -> Any:
        @tool(name="lookup_issue")
        def lookup_issue(number: int) -> str:
            """Look up an issue by its number."""
            self.tool.append(number)
            return f"Issue {number}"

        return lookup_issue

    def before_tool(self, call: Any) -> Decision:
        self.gate.append(call)
        return "allow"


@pytest.fixture
def called() -> Called:
    return Called()


@pytest.fixture
def make(fake_binary: str, user: UserHome, temp_dir: Path) -> Callable[..., AgentOptions]:
    def options(build: str = "", scenario: str = "custom_tools", **kwargs: Any) -> AgentOptions:
        workspace = temp_dir / "ws"
        workspace.mkdir(exist_ok=True)
        env = user.run_env(FAKE_AGENT_SCENARIO=scenario, FAKE_AGENT_BUILD=build)
        return AgentOptions(binary=fake_binary, cwd=workspace, env=env, **kwargs)

    return options


async def test_a_build_that_ignores_the_plugin_dir_ends_the_run_before_the_tool_runs(
    make: Callable[..., AgentOptions], called: Called
) -> None:
    options = make("ignores-plugin-dir", tools=[called.lookup()])
    seen: list[Event] = []
    with pytest.raises(AgentChannelError) as caught, anyio.fail_after(LIMIT):
        async with run("look up issue 26", options=options) as events:
            async for event in events:
                seen.append(event)
    assert caught.value.missing == ("tools",)
    assert caught.value.channel == "plugin"
    assert "tools_channel='home'" in (caught.value.hint or "")
    assert called.tool == []
    assert [event.type for event in seen] == ["system", "user"]  # init, echo, then nothing


async def test_the_home_channel_works_where_the_plugin_dir_is_ignored(
    make: Callable[..., AgentOptions], called: Called
) -> None:
    options = make("ignores-plugin-dir", tools=[called.lookup()], tools_channel="home")
    with anyio.fail_after(LIMIT):
        await run_async("look up issue 26", options=options)
    assert called.tool == [26]


async def test_a_build_that_wants_plugin_servers_approved_ends_the_run(
    make: Callable[..., AgentOptions], called: Called
) -> None:
    options = make(tools=[called.lookup()])
    env = {**(options.env or {}), "FAKE_AGENT_PLUGIN_SERVERS": "needs-approval"}
    with pytest.raises(AgentChannelError), anyio.fail_after(LIMIT):
        await run_async("look up issue 26", options=msgspec.structs.replace(options, env=env))
    assert called.tool == []


async def test_a_build_that_runs_no_hooks_ends_the_run_before_the_gate_is_bypassed(
    make: Callable[..., AgentOptions], called: Called
) -> None:
    options = make("no-hooks", scenario="tools", hooks=Hooks(before_tool=called.before_tool))
    with pytest.raises(AgentChannelError) as caught, anyio.fail_after(LIMIT):
        await run_async("add a test", options=options)
    assert caught.value.missing == ("hooks",)
    assert called.gate == []


@pytest.mark.parametrize("channel", ["plugin", "home"])
async def test_a_build_that_starts_no_server_ends_the_run_on_either_channel(
    make: Callable[..., AgentOptions], called: Called, channel: str
) -> None:
    options = make("no-mcp", tools=[called.lookup()], tools_channel=channel)
    with pytest.raises(AgentChannelError) as caught, anyio.fail_after(LIMIT):
        await run_async("look up issue 26", options=options)
    assert caught.value.channel == channel
    assert called.tool == []


async def test_a_good_build_reaches_tools_and_hooks_through_the_plugin_dir(
    make: Callable[..., AgentOptions], called: Called
) -> None:
    hooks = Hooks(before_tool=called.before_tool)
    options = make(tools=[called.lookup()], hooks=hooks)
    with anyio.fail_after(LIMIT):
        await run_async("look up issue 26", options=options)
    assert called.tool == [26]
    assert called.gate  # the gate was asked before the calls
