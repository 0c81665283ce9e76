"""``Run.batches()``: the run's events a read at a time (docs/lifecycle.md, "A read at a
time"), against the in-memory transport: the same events and rules as iterating the run."""

from __future__ import annotations

import math

import anyio
import pytest
from scripts import init, lines, result, say

from agent_sdk import (
    AgentModelError,
    AgentOptions,
    AgentTimeoutError,
    AgentUsageError,
    Event,
    run,
)
from agent_sdk.testing import Exit, MemoryTransport, Output, Pause, Stderr, Step

pytestmark = pytest.mark.anyio

GUARD = 10  # a regression fails instead of hanging; not a timing claim

TWO_READS: list[Step] = [
    lines(init(), say("a")),
    Pause(0.01),
    lines(say("b"), result("ab")),
    Exit(0),
]


async def batches_of(
    events: object, received: list[list[Event]] | None = None
) -> list[list[Event]]:
    """Every batch of ``events`` (into ``received``, which keeps them if it raises)."""
    received = [] if received is None else received
    with anyio.fail_after(GUARD):
        async for batch in events.batches():  # type: ignore[attr-defined]
            received.append(batch)
    return received


def texts(batch: list[Event]) -> list[str]:
    return [getattr(event, "text", event.type) for event in batch]


async def test_each_batch_holds_the_events_of_one_read_in_order() -> None:
    batches = await batches_of(run("go", transport=MemoryTransport(TWO_READS)))
    assert [texts(batch) for batch in batches] == [["system", "a"], ["b", "result"]]


async def test_batches_hold_the_same_events_as_iterating_the_run() -> None:
    plain = [event async for event in run("go", transport=MemoryTransport(TWO_READS))]
    batches = await batches_of(run("go", transport=MemoryTransport(TWO_READS)))
    assert [event for batch in batches for event in batch] == plain


async def test_the_result_is_set_once_the_batches_end() -> None:
    events = run("go", transport=MemoryTransport(TWO_READS))
    await batches_of(events)
    assert (events.result.result, events.result.text) == ("ab", "ab")


async def test_a_line_split_across_reads_comes_in_the_batch_that_completes_it() -> None:
    line = lines(say("whole")).data
    script: list[Step] = [Output(line[:10]), Pause(0.01), Output(line[10:]), lines(result())]
    batches = await batches_of(run("go", transport=MemoryTransport(script)))
    assert texts(batches[0]) == ["whole"]
    assert all(batches)  # never an empty batch


async def test_a_failure_is_raised_after_every_batch_before_it() -> None:
    script: list[Step] = [
        lines(init(), say("a")),
        Stderr("Cannot use this model: nope. Available models: auto, gpt-5\n"),
        Exit(1),
    ]
    received: list[list[Event]] = []
    with pytest.raises(AgentModelError):
        await batches_of(run("go", transport=MemoryTransport(script)), received)
    assert [texts(batch) for batch in received] == [["system", "a"]]


async def test_a_timeout_is_raised_after_the_batches_printed_before_it() -> None:
    script: list[Step] = [lines(init(), say("a")), Pause(math.inf)]
    events = run("go", options=AgentOptions(timeout=0.2), transport=MemoryTransport(script))
    received: list[list[Event]] = []
    with pytest.raises(AgentTimeoutError):
        await batches_of(events, received)
    assert [texts(batch) for batch in received] == [["system", "a"]]


async def test_batches_take_over_where_plain_iteration_stopped() -> None:
    script: list[Step] = [lines(init(), say("a"), say("b")), Pause(0.01), lines(result())]
    events = run("go", transport=MemoryTransport(script))
    with anyio.fail_after(GUARD):
        first = await events.__anext__()
    batches = await batches_of(events)
    assert texts([first]) == ["system"]
    assert [texts(batch) for batch in batches] == [["a", "b"], ["result"]]


async def test_plain_iteration_takes_over_where_batches_stopped() -> None:
    events = run("go", transport=MemoryTransport(TWO_READS))
    with anyio.fail_after(GUARD):
        first = await events.batches().__anext__()
        rest = [event async for event in events]
    assert texts(first) == ["system", "a"]
    assert texts(rest) == ["b", "result"]
    assert events.result.result == "ab"


async def test_a_closed_run_has_no_batches() -> None:
    events = run("go", transport=MemoryTransport(TWO_READS))
    await events.aclose()
    assert await batches_of(events) == []


async def test_aclose_from_another_task_ends_the_batches_cleanly() -> None:
    transport = MemoryTransport([lines(init()), Pause(math.inf)])
    events = run("go", transport=transport)
    received: list[list[Event]] = []

    async def consume() -> None:
        async for batch in events.batches():
            received.append(batch)

    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            tg.start_soon(consume)
            await anyio.sleep(0.05)
            await events.aclose()
    assert [texts(batch) for batch in received] == [["system"]]
    assert transport.signals == ["SIGTERM"]


async def test_batches_and_plain_iteration_cannot_run_in_two_tasks_at_once() -> None:
    events = run("go", transport=MemoryTransport([lines(init()), Pause(math.inf)]))

    async def consume() -> None:
        async for _ in events:
            pass

    with anyio.fail_after(GUARD):
        async with events, anyio.create_task_group() as tg:
            tg.start_soon(consume)
            await anyio.sleep(0.05)
            with pytest.raises(AgentUsageError, match="already being iterated"):
                await events.batches().__anext__()
            tg.cancel_scope.cancel()
