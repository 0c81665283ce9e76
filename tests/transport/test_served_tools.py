"""A transport asked for a run's own tools with nobody to serve them (started outside a
run: ``_transport/served_tools.py``) refuses to start: never a CLI whose tools silently are
not there (docs/architecture.md, "Where a lower layer names a higher one")."""

from __future__ import annotations

import pytest

import fake_agent
from agent_sdk import AgentConfigError, AgentOptions
from agent_sdk._transport.subprocess import SubprocessTransport
from agent_sdk.extend import Hooks, tool

pytestmark = pytest.mark.anyio


@tool
def lookup_issue(number: int) -> str:
    """Look up an issue."""
    return f"Issue {number}"


async def _allow(call: object) -> None:
    return None


@pytest.mark.parametrize(
    "given",
    [{"tools": [lookup_issue]}, {"hooks": Hooks(before_shell=_allow)}],
    ids=["tools", "hooks"],
)
async def test_a_transport_started_outside_a_run_with_tools_or_hooks_starts_nothing(
    given: dict[str, object],
) -> None:
    transport = SubprocessTransport()
    options = AgentOptions(binary=fake_agent.executable(), **given)  # type: ignore[arg-type]

    with pytest.raises(AgentConfigError, match="served by the run"):
        await transport.start("Look up issue 26", options)

    assert transport.pid is None
    await transport.aclose()
