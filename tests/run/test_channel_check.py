"""A run given tools or hooks whose CLI never reached them ends when the agent begins,
before it can act without them (docs/extend.md, "Never silently bypassed"), against the
in-memory transport: what the transport says was reached is the host's record."""

from __future__ import annotations

import math
from typing import Any

import anyio
import pytest
from scripts import SESSION, init, lines, result, say

from agent_sdk import AgentChannelError, AgentOptions, AgentResultError, Event, run
from agent_sdk.extend import Hooks, tool
from agent_sdk.testing import MemoryTransport, Pause, Step

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim


@tool
def lookup(number: int) -> str:
    """Look an issue up."""
    return f"issue {number}"


class Reached(MemoryTransport):
    """The in-memory CLI, and what of the run's tools and hooks it reached."""

    def __init__(self, script: list[Step], missing: tuple[str, ...]) -> None:
        super().__init__(script)
        self.missing = missing
        self.asked = 0

    def channel_missing(self) -> tuple[str, ...]:
        self.asked += 1
        return self.missing


def shell_started() -> dict[str, Any]:
    call = {"shellToolCall": {"args": {"command": "rm -rf build"}}}
    return {
        "type": "tool_call",
        "subtype": "started",
        "call_id": "c1",
        "tool_call": call,
        "session_id": SESSION,
    }


def working() -> list[Step]:
    """A CLI that starts, then acts at once (a tool call first), and works on."""
    return [lines(init(), shell_started(), say("done")), Pause(math.inf)]


async def streamed(
    transport: MemoryTransport, options: AgentOptions, seen: list[Event] | None = None
) -> list[Event]:
    seen = [] if seen is None else seen
    with anyio.fail_after(GUARD):
        async with run("go", options=options, transport=transport) as events:
            async for event in events:
                seen.append(event)
    return seen


async def test_tools_never_reached_end_the_run_before_its_first_tool_call() -> None:
    transport = Reached(working(), missing=("tools",))
    seen: list[Event] = []
    with pytest.raises(AgentChannelError) as caught:
        await streamed(transport, AgentOptions(tools=[lookup]), seen)
    assert caught.value.missing == ("tools",)
    assert caught.value.channel == "plugin"
    assert [e.type for e in seen] == ["system"]  # the call was never delivered


async def test_the_cli_is_ended_when_the_channel_was_not_reached() -> None:
    transport = Reached(working(), missing=("hooks",))
    with pytest.raises(AgentChannelError):
        await streamed(transport, AgentOptions(hooks=Hooks(before_shell=lambda call: None)))
    assert transport.signals == ["SIGTERM"]


async def test_the_error_names_what_was_missing_and_the_other_channel() -> None:
    transport = Reached(working(), missing=("tools", "hooks"))
    options = AgentOptions(tools=[lookup], hooks=Hooks(before_shell=lambda call: None))
    with pytest.raises(AgentChannelError) as caught:
        await streamed(transport, options)
    assert "its tools and its hooks" in str(caught.value)
    assert "tools_channel='home'" in (caught.value.hint or "")


async def test_the_home_channel_hint_names_the_sign_in() -> None:
    transport = Reached(working(), missing=("tools",))
    with pytest.raises(AgentChannelError) as caught:
        await streamed(transport, AgentOptions(tools=[lookup], tools_channel="home"))
    assert "signed out" in (caught.value.hint or "")


async def test_a_run_whose_channel_was_reached_goes_on_and_is_asked_once() -> None:
    script: list[Step] = [lines(init(), shell_started(), say("a"), say("b"), result())]
    transport = Reached(script, missing=())
    seen = await streamed(transport, AgentOptions(tools=[lookup]))
    assert [e.type for e in seen] == ["system", "tool_call", "assistant", "assistant", "result"]
    assert transport.asked == 1


async def test_a_run_that_fails_before_the_agent_acts_keeps_the_clis_own_error() -> None:
    failed = {
        "type": "result",
        "subtype": "error",
        "is_error": True,
        "result": "not logged in",
        "session_id": SESSION,
    }
    transport = Reached([lines(init(), failed)], missing=("tools",))
    with pytest.raises(AgentResultError):
        await streamed(transport, AgentOptions(tools=[lookup]))


async def test_a_run_without_tools_or_hooks_is_never_asked() -> None:
    transport = Reached([lines(init(), say("hi"), result())], missing=("tools",))
    await streamed(transport, AgentOptions())
    assert transport.asked == 0
