"""The live run of ``agent-sdk``, in process: events to the sink, errors returned."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import pytest

from agent_sdk import AgentOptions
from agent_sdk.cli.live import JsonSink, _live
from agent_sdk.errors import AgentProcessError
from agent_sdk.events import Event

pytestmark = pytest.mark.anyio


async def test_every_event_goes_to_the_sink_and_a_success_returns_no_error(
    fake_options: Callable[..., AgentOptions],
) -> None:
    out = io.StringIO()
    assert await _live("add a test", fake_options("tools"), JsonSink(out), 0.0) is None
    types = [json.loads(line)["type"] for line in out.getvalue().splitlines()]
    assert types[0] == "system"
    assert types[-1] == "result"
    assert types.count("tool_call") == 34


async def test_a_failed_run_returns_its_error_instead_of_raising(
    fake_options: Callable[..., AgentOptions],
) -> None:
    error = await _live("hi", fake_options("crash"), JsonSink(io.StringIO()), 0.0)
    assert isinstance(error, AgentProcessError)
    assert "TypeError" in str(error)


class _ClosedPipe(JsonSink):
    """A sink whose reader went away."""

    def event(self, event: Event) -> None:
        raise BrokenPipeError


async def test_a_broken_pipe_is_raised_bare_not_in_an_exception_group(
    fake_options: Callable[..., AgentOptions],
) -> None:
    with pytest.raises(BrokenPipeError):
        await _live("hi", fake_options("hello"), _ClosedPipe(io.StringIO()), 0.0)
