"""A result split over several lines by raw newlines (docs/protocol.md §3, unverified):
joined back, and counted where a run reports what it met, on success and on failure."""

from __future__ import annotations

import pytest
from scripts import init, lines, result, say

from agent_sdk import AgentError, AgentOptions, Run, run_async
from agent_sdk.testing import Exit, MemoryTransport, Output, Pause, Stderr

pytestmark = pytest.mark.anyio

REPLY = "Done.\n\nThe test passes."


def split_result() -> bytes:
    """The result line as reported: the escapes of its text raw newlines."""
    return lines(result(REPLY)).data.replace(b"\\n", b"\n")


async def test_a_split_result_ends_the_run_as_one_and_is_counted() -> None:
    data = split_result()
    cut = data.index(b"The test")  # the pieces in two reads
    script = [lines(init(), say("Done.")), Output(data[:cut]), Pause(0), Output(data[cut:])]
    done = await run_async("go", transport=MemoryTransport([*script, Exit(0)]))
    assert done.result == REPLY
    assert done.rejoined_events == 1
    assert done.stderr == ""


async def test_a_run_reports_the_count_while_it_streams() -> None:
    transport = MemoryTransport([lines(init()), Output(split_result()), Exit(0)])
    async with Run("go", options=AgentOptions(), transport=transport) as running:
        async for _ in running:
            pass
        assert running.rejoined_events == 1


async def test_a_failed_run_counts_it_in_its_context() -> None:
    script = [lines(init()), Output(split_result()), Stderr("boom"), Exit(1)]
    with pytest.raises(AgentError) as caught:
        await run_async("go", transport=MemoryTransport(script))
    assert caught.value.context.rejoined_events == 1


async def test_a_run_without_a_split_counts_none() -> None:
    done = await run_async("go", transport=MemoryTransport([lines(init(), result()), Exit(0)]))
    assert done.rejoined_events == 0
