"""The budget of a run's own tools (docs/budgets.md, "Your own tools"), without processes:
the host's question (``OwnToolCalls.admit``) counts each call of ours once, before it runs,
the stream leaves their ``started`` events uncounted, and stops the run at the call that
was refused, wherever the stream stood when it was."""

from __future__ import annotations

from typing import Any

import msgspec

from agent_sdk import Budget, Event
from agent_sdk._run.spending import Spending, first_over
from agent_sdk._run.tool_budget import OwnToolCalls
from agent_sdk._wire.stream import Stream

SESSION = "s-1"


def wire(*events: dict[str, Any]) -> list[Event]:
    return Stream().feed(b"".join(msgspec.json.encode(e) + b"\n" for e in events))


def mcp(n: int, subtype: str = "started", **args: Any) -> dict[str, Any]:
    given = {
        "name": "agent_sdk-lookup",
        "args": {"n": n},
        "toolName": "lookup",
        "providerIdentifier": "agent_sdk",
        **args,
    }
    payload: dict[str, Any] = {"args": {k: v for k, v in given.items() if v is not None}}
    if subtype == "completed":
        payload["result"] = {"success": {"content": [], "isError": False}}
    call = {"mcpToolCall": payload}
    return {"type": "tool_call", "subtype": subtype, "call_id": f"c{n}", "tool_call": call,
            "session_id": SESSION}  # fmt: skip


def shell(n: int) -> dict[str, Any]:
    call = {"shellToolCall": {"args": {"command": "ls"}}}
    return {"type": "tool_call", "subtype": "started", "call_id": f"s{n}", "tool_call": call,
            "session_id": SESSION}  # fmt: skip


RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
          "session_id": SESSION}  # fmt: skip


def counting(**limits: Any) -> tuple[Spending, OwnToolCalls]:
    spending = Spending(Budget(**limits), "run")
    return spending, OwnToolCalls(spending)


def test_a_call_over_the_limit_is_refused_in_words_that_say_how_to_raise_it() -> None:
    _, own = counting(tool_calls_by_kind={"mcp": 1})
    assert own.admit("lookup") is None
    refusal = own.admit("lookup")
    assert refusal is not None
    assert "mcp call 2, over the 1 allowed (Budget(tool_calls_by_kind={'mcp': 1}))" in refusal
    assert "the program did not run lookup" in refusal
    assert "raise it in AgentOptions(budget=...), e.g. Budget(tool_calls_by_kind={'mcp': 2})" in (
        refusal
    )


def test_a_call_of_ours_is_counted_once_where_it_reached_the_host() -> None:
    spending, own = counting(tool_calls=2, tool_calls_by_kind={"mcp": 2})
    assert own.admit("lookup") is None
    events = wire(mcp(1), mcp(1, "completed"), shell(2))
    assert first_over(spending, events, False, own) is None
    assert (spending.tool_calls, spending.by_kind) == (2, {"mcp": 1, "shell": 1})


def test_another_servers_call_is_counted_by_the_stream() -> None:
    spending, own = counting(tool_calls_by_kind={"mcp": 1})
    other = mcp(1, providerIdentifier="docs", name="docs-lookup")
    assert first_over(spending, wire(other), False, own) is None
    assert own.admit("lookup") is not None  # the second mcp call


def test_the_run_stops_at_the_start_of_the_refused_call_read_after_the_refusal() -> None:
    spending, own = counting(tool_calls_by_kind={"mcp": 1})
    assert own.admit("lookup") is None
    assert own.admit("lookup") is not None  # before the stream read anything
    events = wire(mcp(1), mcp(1, "completed"), mcp(2), mcp(2, "completed"), RESULT)
    over = first_over(spending, events, False, own)
    assert over is not None
    assert over[0] == 3  # up to the second call's start
    assert (over[1].kind, over[1].used, over[1].allowed) == ("mcp", 2, 1)


def test_a_refusal_after_its_start_was_read_stops_the_run_at_the_next_completion() -> None:
    spending, own = counting(tool_calls_by_kind={"mcp": 1})
    assert own.admit("lookup") is None
    assert first_over(spending, wire(mcp(1), mcp(1, "completed"), mcp(2)), False, own) is None
    assert own.admit("lookup") is not None
    over = first_over(spending, wire({"type": "assistant", "message": {"role": "assistant",
        "content": [{"type": "text", "text": "hm"}]}, "session_id": SESSION},
        mcp(2, "completed"), RESULT), False, own)  # fmt: skip
    assert over is not None
    assert over[0] == 2


def test_a_refusal_the_stream_cannot_place_stops_the_run_at_its_result() -> None:
    spending, own = counting(tool_calls_by_kind={"mcp": 1})
    assert own.admit("lookup") is None
    assert own.admit("lookup") is not None
    # The stream never shows the refused call's start (a build that writes none).
    over = first_over(spending, wire(mcp(1), mcp(1, "completed"), RESULT), True, own)
    assert over is not None
    assert over[0] == 3


def test_a_call_of_ours_is_told_by_its_name_when_no_server_is_named() -> None:
    spending, own = counting(tool_calls_by_kind={"mcp": 1})
    assert own.admit("lookup") is None
    events = wire(mcp(1, providerIdentifier=None), mcp(2, providerIdentifier=None, name="x-y"))
    over = first_over(spending, events, False, own)
    assert over is not None
    assert over[0] == 2  # the second is another server's: the second mcp call


def test_a_wider_budget_spent_elsewhere_refuses_the_call() -> None:
    fleet = Spending(Budget(tool_calls=1), "fleet")
    assert fleet.tool_call(None, "shell") is None
    own = OwnToolCalls(Spending(Budget(), "run", parent=fleet))
    refusal = own.admit("lookup")
    assert refusal is not None
    assert "Fleet(budget=...)" in refusal
