"""One approval callback for both modes (docs/extend.md, "One callback, both modes"): the
requests it gets from print-mode hook events and from the live agent's permission
requests, and what its answers become in each mode. IO-free: hook events through
``answer``, permission requests as the live agent decodes them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_sdk.extend import Approval, Deny, approval_hooks, approval_permission
from agent_sdk.extend._hooks import answer
from agent_sdk.extend._mcp_answers import McpAnswers
from agent_sdk.live import PermissionToolCall, RequestPermissionParams

pytestmark = pytest.mark.anyio


def event(name: str, **keys: Any) -> bytes:
    return json.dumps({"hook_event_name": name, "session_id": "s", **keys}).encode()


class Asked:
    """An approval callback that records what it was asked and answers ``decision``."""

    def __init__(self, decision: Any = "allow") -> None:
        self.requests: list[Approval] = []
        self.decision = decision

    def __call__(self, request: Approval) -> Any:
        self.requests.append(request)
        return self.decision


async def decided(asked: Asked, line: bytes) -> dict[str, Any]:
    reply = await answer(approval_hooks(asked), line, [])
    return json.loads(reply.stdout) if reply.stdout else {}


async def test_a_shell_command_is_asked_with_its_command_in_a_persons_words() -> None:
    asked = Asked()
    await decided(asked, event("beforeShellExecution", command="git push", cwd="/r"))
    (request,) = asked.requests
    assert (request.kind, request.label, request.command, request.mode) == (
        "shell",
        "$ git push",
        "git push",
        "print",
    )


async def test_a_write_is_asked_with_its_path() -> None:
    asked = Asked()
    tool_input = {"file_path": "/r/a.py", "content": "x"}
    await decided(asked, event("preToolUse", tool_name="Write", tool_input=tool_input))
    (request,) = asked.requests
    assert (request.kind, request.label, request.path) == ("edit", "write /r/a.py", "/r/a.py")


async def test_an_mcp_call_of_the_runs_own_tool_is_asked_with_the_label_its_events_have() -> None:
    # One label for one call (issue 35): ToolCall.label says "tool lookup_issue" too.
    asked = Asked()
    line = event("preToolUse", tool_name="MCP:lookup_issue", tool_input={"n": 1})
    await answer(approval_hooks(asked), line, [], McpAnswers(["lookup_issue", "fail"]))
    (request,) = asked.requests
    assert (request.kind, request.label, request.arguments) == (
        "mcp",
        "tool lookup_issue",
        {"n": 1},
    )


async def test_an_mcp_call_of_another_server_is_told_apart_from_ours() -> None:
    asked = Asked()
    # preToolUse names no server (docs/protocol.md §6.3): not ours, so "mcp <tool>".
    await decided(asked, event("preToolUse", tool_name="MCP:create_issue", tool_input={}))
    # beforeMCPExecution names it: "mcp <server> <tool>", as the call's events do.
    line = event(
        "beforeMCPExecution", tool_name="create_issue", tool_input="{}", mcp_server_name="github"
    )
    await decided(asked, line)
    assert [request.label for request in asked.requests] == [
        "mcp create_issue",
        "mcp github create_issue",
    ]


@pytest.mark.parametrize("tool", ["Read", "Grep", "Shell"])
async def test_reads_searches_and_the_shells_tool_event_are_not_asked(tool: str) -> None:
    asked = Asked(Deny("never"))
    decision = await decided(asked, event("preToolUse", tool_name=tool, tool_input={}))
    assert (asked.requests, decision) == ([], {"permission": "allow"})


async def test_a_deny_reaches_the_hook_answer_with_its_reason() -> None:
    decision = await decided(Asked(Deny("not now")), event("beforeShellExecution", command="ls"))
    assert decision == {"permission": "deny", "user_message": "not now"}


def live_request(kind: str, title: str, raw_input: Any = None) -> RequestPermissionParams:
    call = PermissionToolCall(tool_call_id="t1", title=title, kind=kind, raw_input=raw_input)
    return RequestPermissionParams(session_id="s", tool_call=call)


async def test_a_live_shell_request_is_the_same_request_and_an_allow_is_allow_once() -> None:
    asked = Asked("allow")
    decision = await approval_permission(asked)(live_request("execute", "`git push`"))
    (request,) = asked.requests
    assert (request.kind, request.label, request.command, request.mode) == (
        "shell",
        "$ git push",
        "git push",
        "live",
    )
    assert decision == "allow_once"


@pytest.mark.parametrize(
    ("title", "label"),
    [
        ("agent_sdk-post_comment: post_comment", "tool post_comment"),  # ours
        ("github-create_issue: create_issue", "mcp github create_issue"),
        ("my-server-do_it: do_it", "mcp my-server do_it"),  # a server name with dashes
    ],
)
async def test_a_live_mcp_request_is_labelled_as_its_calls_events_are(
    title: str, label: str
) -> None:
    asked = Asked("allow")
    await approval_permission(asked)(live_request("other", title))
    assert asked.requests[0].label == label


@pytest.mark.parametrize("decision", ["deny", Deny("no")])
async def test_a_live_deny_is_reject(decision: Any) -> None:
    assert await approval_permission(Asked(decision))(live_request("execute", "`ls`")) == "reject"


async def test_a_live_answer_that_is_no_decision_raises_so_the_agent_rejects() -> None:
    with pytest.raises(TypeError, match="not a Decision"):
        await approval_permission(Asked("yes"))(live_request("execute", "`ls`"))
