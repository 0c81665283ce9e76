"""Budgets of a run and of a session (docs/budgets.md), against the in-memory transport:
the event that goes over a limit is delivered, then the CLI is ended and a typed error
raised; a session's turns share one budget, and its token limit stops the next turn."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from scripts import SESSION, init, lines, result, say, scripted

from agent_sdk import (
    AgentBudgetError,
    AgentOptions,
    Budget,
    Event,
    Run,
    Session,
    SystemInit,
    ToolCallStarted,
    run,
    run_async,
)
from agent_sdk._run.spending import Spending
from agent_sdk.testing import Exit, MemoryTransport, Pause, Step

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim


def started(n: int, kind: str = "shellToolCall") -> dict[str, Any]:
    return {
        "type": "tool_call",
        "subtype": "started",
        "call_id": f"call-{n}",
        "tool_call": {kind: {"args": {"command": "ls", "path": "a.py"}}},
        "session_id": SESSION,
    }


def completed(n: int, kind: str = "shellToolCall") -> dict[str, Any]:
    done = {"args": {"path": "a.py"}, "result": {"success": {}}}
    return {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": f"call-{n}",
        "tool_call": {kind: done},
        "session_id": SESSION,
    }


def calls(*kinds: str, first: int = 1) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, kind in enumerate(kinds, first):
        out += [started(n, kind), completed(n, kind)]
    return out


def busy(*kinds: str) -> list[Step]:
    """A CLI that makes these tool calls in one write, then works on for ever."""
    return [lines(init(), *calls(*kinds)), Pause(math.inf)]


def options(**limits: Any) -> AgentOptions:
    return AgentOptions(budget=Budget(**limits))


async def streamed(transport: MemoryTransport, opts: AgentOptions) -> list[Event]:
    seen: list[Event] = []
    with pytest.raises(AgentBudgetError) as caught, anyio.fail_after(GUARD):
        async with run("go", options=opts, transport=transport) as events:
            async for event in events:
                seen.append(event)
    seen.append(caught.value)  # type: ignore[arg-type]
    return seen


def call_ids(events: list[Any]) -> list[tuple[str, str]]:
    return [(e.subtype, e.call_id) for e in events if getattr(e, "type", "") == "tool_call"]


async def test_the_tool_call_that_goes_over_is_delivered_then_the_run_raises() -> None:
    transport = MemoryTransport(busy("shellToolCall", "readToolCall", "editToolCall"))
    *seen, error = await streamed(transport, options(tool_calls=2))
    assert call_ids(seen) == [
        ("started", "call-1"),
        ("completed", "call-1"),
        ("started", "call-2"),
        ("completed", "call-2"),
        ("started", "call-3"),
    ]
    assert isinstance(error, AgentBudgetError)
    assert (error.limit, error.used, error.allowed, error.scope) == ("tool_calls", 3, 2, "run")


async def test_the_cli_is_ended_when_the_budget_is_spent() -> None:
    transport = MemoryTransport(busy("shellToolCall", "shellToolCall"))
    await streamed(transport, options(tool_calls=1))
    assert transport.signals == ["SIGTERM"]


async def test_a_kind_limit_counts_only_that_kind() -> None:
    kinds = ("readToolCall", "shellToolCall", "readToolCall", "shellToolCall")
    *seen, error = await streamed(
        MemoryTransport(busy(*kinds)), options(tool_calls_by_kind={"shell": 1})
    )
    assert isinstance(error, AgentBudgetError)
    assert (error.limit, error.kind, error.used, error.allowed) == (
        "tool_calls_by_kind",
        "shell",
        2,
        1,
    )
    last = seen[-1]
    assert isinstance(last, ToolCallStarted)
    assert last.call_id == "call-4"


async def test_the_error_says_which_limit_the_figures_and_how_to_raise_it() -> None:
    error = (await streamed(MemoryTransport(busy("shellToolCall")), options(tool_calls=0)))[-1]
    assert isinstance(error, AgentBudgetError)
    assert "tool call 1, over the 0 allowed (Budget(tool_calls=0))" in error.message
    assert error.hint is not None
    assert "Budget(tool_calls=1)" in error.hint
    assert "resume" in error.hint  # the chat is known: it can go on


async def test_the_error_keeps_the_events_up_to_the_one_that_went_over() -> None:
    transport = MemoryTransport(busy("shellToolCall", "shellToolCall", "shellToolCall"))
    with pytest.raises(AgentBudgetError) as caught, anyio.fail_after(GUARD):
        await run_async("go", options=options(tool_calls=1), transport=transport)
    assert call_ids(caught.value.events)[-1] == ("started", "call-2")
    assert len(caught.value.tool_calls) == 2
    assert caught.value.session_id == SESSION


async def test_what_is_delivered_does_not_depend_on_how_the_output_is_cut() -> None:
    events = [init(), *calls("shellToolCall", "shellToolCall", "shellToolCall")]
    one_write = MemoryTransport([lines(*events), Pause(math.inf)])
    line_by_line = MemoryTransport([*(lines(e) for e in events), Pause(math.inf)])
    first = await streamed(one_write, options(tool_calls=2))
    second = await streamed(line_by_line, options(tool_calls=2))
    assert call_ids(first) == call_ids(second)


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "streamed"])
async def test_the_runs_tool_calls_end_with_the_one_that_went_over(keep: bool) -> None:
    # The read holds a call after the one that went over: it is not the run's.
    transport = MemoryTransport(busy("shellToolCall", "shellToolCall", "shellToolCall"))
    opts = AgentOptions(budget=Budget(tool_calls=1), keep_events=keep)
    with pytest.raises(AgentBudgetError), anyio.fail_after(GUARD):
        async with run("go", options=opts, transport=transport) as events:
            async for _ in events:
                pass
    assert events.tool_calls[-1].call_id == "call-2"
    assert [e.call_id for e in events.events if isinstance(e, ToolCallStarted)] == (
        ["call-1", "call-2"] if keep else []
    )


async def test_batches_deliver_the_same_events_then_raise() -> None:
    transport = MemoryTransport(busy("shellToolCall", "shellToolCall"))
    seen: list[Event] = []
    with pytest.raises(AgentBudgetError), anyio.fail_after(GUARD):
        async with run("go", options=options(tool_calls=1), transport=transport) as events:
            async for batch in events.batches():
                seen += batch
    assert call_ids(seen)[-1] == ("started", "call-2")


async def test_a_run_within_its_budget_succeeds() -> None:
    transport = MemoryTransport([lines(init(), *calls("shellToolCall"), result()), Exit(0)])
    reply = await run_async("go", options=options(tool_calls=1, turns=1), transport=transport)
    assert reply.result == "done"


async def test_a_run_whose_tokens_go_over_still_succeeds() -> None:
    # Usage comes with the result only: nothing is left to stop (docs/budgets.md).
    usage = {"inputTokens": 500, "outputTokens": 20}
    transport = MemoryTransport([lines(init(), result(usage=usage)), Exit(0)])
    reply = await run_async("go", options=options(tokens=10), transport=transport)
    assert reply.result == "done"


async def test_a_running_run_stops_at_its_next_tool_call_once_a_shared_budget_is_spent() -> None:
    # A fleet's runs share its budget (fleet/_runner.py): one going over stops the others.
    shared = Spending(Budget(tool_calls=1), "fleet")
    waiting = MemoryTransport([lines(init()), lines(started(9)), Pause(math.inf)])
    with anyio.fail_after(GUARD):
        # Each with a budget of its own too, which the shared one's limit stops as well.
        first = run("a", options=options(tool_calls=10), transport=waiting)
        async with first._share(shared, inside=True):
            assert isinstance(await first.__anext__(), SystemInit)  # it runs
            over_transport = MemoryTransport(busy("shellToolCall", "readToolCall"))
            over = run("b", options=options(tool_calls=10), transport=over_transport)
            with pytest.raises(AgentBudgetError):
                await run_async_of(over._share(shared, inside=True))
            with pytest.raises(AgentBudgetError) as caught:
                async for _ in first:
                    pass
    assert caught.value.scope == "fleet"
    assert waiting.signals == ["SIGTERM"]


async def run_async_of(events: Run) -> None:
    async with events:
        async for _ in events:
            pass


# --- sessions ---------------------------------------------------------------------------
def started_clis(make: Callable[[], MemoryTransport]) -> int:
    made: list[MemoryTransport] = make.made  # type: ignore[attr-defined]
    return sum(transport.started_with is not None for transport in made)


def turn(*kinds: str, first: int = 1, usage: dict[str, int] | None = None) -> list[Step]:
    extra = {"usage": usage} if usage else {}
    return [lines(init(), *calls(*kinds, first=first), say("ok"), result(**extra)), Exit(0)]


async def test_a_session_refuses_the_turn_past_its_turns_without_starting_it() -> None:
    make = scripted(turn())
    session = Session(options=options(turns=2), transport=make)
    await session.send("one")
    await session.send("two")
    with pytest.raises(AgentBudgetError) as caught:
        await session.send("three")
    assert (caught.value.limit, caught.value.used, caught.value.allowed) == ("turns", 3, 2)
    assert caught.value.scope == "session"
    assert started_clis(make) == 2


async def test_a_sessions_turns_share_its_tool_calls() -> None:
    make = scripted(turn("shellToolCall", "readToolCall"), busy("editToolCall"))
    session = Session(options=options(tool_calls=2), transport=make)
    await session.send("one")
    with pytest.raises(AgentBudgetError) as caught, anyio.fail_after(GUARD):
        await session.send("two")
    assert (caught.value.used, caught.value.allowed) == (3, 2)


async def test_a_sessions_token_limit_stops_its_next_turn() -> None:
    usage = {"inputTokens": 40, "outputTokens": 10, "cacheReadTokens": 5}
    make = scripted(turn(usage=usage))
    session = Session(options=options(tokens=50), transport=make)
    first = await session.send("one")  # went over: it is done, and still succeeds
    assert first.result == "done"
    with pytest.raises(AgentBudgetError) as caught:
        await session.send("two")
    assert (caught.value.limit, caught.value.used, caught.value.allowed) == ("tokens", 55, 50)
    assert started_clis(make) == 1


async def test_a_session_whose_budget_is_spent_starts_no_more_turns() -> None:
    make = scripted(busy("shellToolCall", "shellToolCall"), turn())
    session = Session(options=options(tool_calls=1), transport=make)
    with pytest.raises(AgentBudgetError), anyio.fail_after(GUARD):
        await session.send("one")
    with pytest.raises(AgentBudgetError) as caught:
        await session.send("two")
    assert caught.value.limit == "tool_calls"
    assert started_clis(make) == 1


async def test_a_spent_session_keeps_its_chat() -> None:
    make = scripted(busy("shellToolCall", "shellToolCall"))
    session = Session(options=options(tool_calls=1), transport=make)
    with pytest.raises(AgentBudgetError), anyio.fail_after(GUARD):
        await session.send("one")
    assert session.session_id == SESSION
