"""Live turns against the fake (``fake-cursor-agent acp``): the permission requests of a
turn (docs/acp.md §3.11), answered with the option of the decision's kind, the call's
status following the answer.
Every wait is bounded by ``fail_after``; asyncio and trio both run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from fake_live import LIMIT, message, playing

from agent_sdk import AgentOptions
from agent_sdk.live import (
    AcpToolCallUpdate,
    LiveAgent,
    RequestPermissionParams,
    SelectedOutcome,
)
from agent_sdk.tool_results import Rejection, ShellSuccess

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("decision", "status"), [("allow_once", "succeeded"), ("reject", "blocked")]
)
async def test_a_permission_answer_sets_the_tool_call_status(
    options: AgentOptions, decision: str, status: str
) -> None:
    async with LiveAgent(options, permission=lambda request: decision) as agent:  # type: ignore[arg-type,return-value]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    (call,) = result.tool_calls
    assert call.status == status  # ACP says `completed` either way (§3.10)
    if decision == "reject":
        assert isinstance(call.result, Rejection)
        assert call.result.command == "pytest -q"
    else:
        assert isinstance(call.result, ShellSuccess)
        assert call.result.stdout == "12 passed in 0.41s\n"


def permission_branches(options: AgentOptions, tmp_path: Path) -> AgentOptions:
    step = {
        "fake": "permission",
        "toolCall": {"toolCallId": "call-1\nfc_1", "title": "`make`", "kind": "execute"},
        "on": {"allow-once": [], "allow-always": [], "reject-once": []},
        "allow": [],
        "reject": [],
    }
    for option in ("allow-once", "allow-always", "reject-once"):
        step["on"][option] = [msgspec.json.decode(message(option))]  # type: ignore[index]
    step["reject"] = [msgspec.json.decode(message("rejected"))]
    return playing(options, tmp_path, msgspec.json.encode(step).decode())


@pytest.mark.parametrize(
    ("decision", "answered"),
    [
        ("allow_once", "allow-once"),
        ("allow_always", "allow-always"),
        ("reject", "reject-once"),
        (SelectedOutcome(option_id="no-such-option"), "rejected"),
    ],
)
async def test_a_decision_is_answered_with_the_option_of_its_kind(
    options: AgentOptions, tmp_path: Path, decision: Any, answered: str
) -> None:
    seen: list[RequestPermissionParams] = []

    def decide(request: RequestPermissionParams) -> Any:
        seen.append(request)
        return decision

    async with LiveAgent(permission_branches(options, tmp_path), permission=decide) as agent:
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("go")
    assert result.text == answered
    assert seen[0].tool_call.tool_call_id == "call-1\nfc_1"
    assert seen[0].session_id == session.session_id


async def test_force_auto_approves_without_asking(options: AgentOptions) -> None:
    asked: list[RequestPermissionParams] = []
    forced = msgspec.structs.replace(options, force=True)
    async with LiveAgent(forced, permission=asked.append) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    assert asked == []
    assert "all 12 pass" in result.text
    assert result.tool_calls[0].status == "succeeded"


async def test_a_permission_request_says_pending_after_in_progress(
    options: AgentOptions,
) -> None:
    asked: list[RequestPermissionParams] = []

    def allow(request: RequestPermissionParams) -> str:
        asked.append(request)
        return "allow_once"

    async with LiveAgent(options, permission=allow) as agent:  # type: ignore[arg-type]
        session = await agent.new_session()
        with anyio.fail_after(LIMIT):
            result = await session.send("scenario:permission")
    statuses = [e.status for e in result.events if isinstance(e, AcpToolCallUpdate)]
    assert statuses == ["in_progress"]  # passed through between started and completed
    # The request still says `pending` after `in_progress`: trust the stream (§2 note).
    assert asked[0].tool_call.status == "pending"
    assert asked[0].tool_call.content is not None
    assert "Not in allowlist: pytest" in str(asked[0].tool_call.content)
