"""One approval callback for both modes, on the live agent (docs/extend.md, "One callback,
both modes"): ``approval_permission`` adapts it to the live agent's permission requests,
against the fake's ``permission`` turn (it asks before ``pytest -q``)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_sdk import AgentOptions
from agent_sdk.extend import Approval, Deny, approval_permission
from agent_sdk.live import LiveAgent, LiveResult

pytestmark = pytest.mark.anyio

LIMIT = 30.0  # only a broken client or fake waits this long


class Asked:
    def __init__(self, decision: Any) -> None:
        self.requests: list[Approval] = []
        self.decision = decision

    def __call__(self, request: Approval) -> Any:
        self.requests.append(request)
        return self.decision


async def send(options: AgentOptions, asked: Asked) -> LiveResult:
    async with LiveAgent(options, permission=approval_permission(asked)) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            return await session.send("scenario:permission")


async def test_the_live_agent_asks_the_approval_callback_about_the_command(
    options: AgentOptions,
) -> None:
    asked = Asked("allow")
    result = await send(options, asked)
    assert [(r.kind, r.mode) for r in asked.requests] == [("shell", "live")]
    assert "pytest" in (asked.requests[0].command or "")
    assert result.tool_calls[0].status == "succeeded"


async def test_a_deny_of_the_approval_callback_blocks_the_live_call(options: AgentOptions) -> None:
    result = await send(options, Asked(Deny("not now")))
    assert result.tool_calls[0].status == "blocked"


async def test_hooks_given_to_the_live_agent_are_refused_with_the_way_to_decide(
    options: AgentOptions,
) -> None:
    from agent_sdk.errors import AgentConfigError
    from agent_sdk.extend import Hooks

    hooks = Hooks(before_shell=lambda call: "allow")
    with pytest.raises(AgentConfigError, match="live agent runs no hooks") as caught:
        LiveAgent(AgentOptions(binary=options.binary, hooks=hooks))
    assert "approval_permission" in (caught.value.hint or "")
