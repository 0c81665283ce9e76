"""A result's and an error's repr stay short whatever they hold: they count the events
and show the start of the reply, never every event (a log line or a debugger must not
format a 150k-event run)."""

from __future__ import annotations

import msgspec
import pytest

from agent_sdk import (
    AgentError,
    AgentOutputError,
    AgentProcessError,
    AgentResultError,
    AgentTimeoutError,
    AssistantEvent,
    ErrorContext,
    ResultEvent,
    RunResult,
    ToolCallStarted,
)
from agent_sdk._wire.event_base import _Event
from agent_sdk.events import Event
from agent_sdk.live import LiveResult

MANY = 100_000
LIMIT = 400  # characters: a line of a log, whatever the run held


@pytest.fixture
def formatted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the events whose repr was built."""
    shown: list[str] = []
    original = _Event.__repr__

    def counted(self: _Event) -> str:
        shown.append(type(self).__name__)
        return original(self)

    monkeypatch.setattr(_Event, "__repr__", counted)
    return shown


def _events() -> list[Event]:
    call = ToolCallStarted(call_id="c", tool_call=msgspec.Raw(b'{"lsToolCall":{}}'))
    text = AssistantEvent(session_id="s-1", timestamp_ms=1)
    return [call if i % 2 else text for i in range(MANY)]


def _context() -> ErrorContext:
    return ErrorContext(
        session_id="s-1", exit_code=1, stderr="e" * 10_000, events=_events(), stdout_lines=["o"]
    )


def test_a_result_with_many_events_has_a_short_repr_that_counts_them(
    formatted: list[str],
) -> None:
    reply = "The cart sums its items. " * 1000
    result = RunResult[None](
        result=reply.replace(" ", ""), text=reply, session_id="s-1", events=_events(), output=None
    )
    shown = repr(result)
    assert len(shown) < LIMIT
    assert formatted == []
    # The reply a person reads (messages apart), not the CLI's glued `result`.
    assert shown.startswith("RunResult(text='The cart sums its items. ")
    assert "session_id='s-1'" in shown
    assert f"{MANY:,}" in shown
    assert f"{len(reply):,}" in shown


@pytest.mark.parametrize("error_type", [AgentError, AgentProcessError, AgentTimeoutError])
def test_an_error_with_many_events_has_a_short_repr(
    error_type: type[AgentError], formatted: list[str]
) -> None:
    error = error_type("it failed: " + "m" * 10_000, context=_context(), hint="h" * 10_000)
    for shown in (repr(error), repr(error.context)):
        assert len(shown) < LIMIT
        assert "it failed: mmm" in shown or shown.startswith("ErrorContext(")
        assert "s-1" in shown
        assert f"{MANY:,}" in shown
    assert repr(error).startswith(f"{error_type.__name__}('it failed: ")
    assert formatted == []


def test_a_result_error_and_an_output_error_have_short_reprs(formatted: list[str]) -> None:
    event = ResultEvent(is_error=True, result="r" * 10_000)
    errors: list[AgentError] = [
        AgentResultError("error result: " + "r" * 10_000, event=event, context=_context()),
        AgentOutputError(
            "no JSON in: " + "r" * 10_000,
            reply="r" * 10_000,
            json=None,
            problem="p",
            attempts=2,
            context=_context(),
        ),
    ]
    for error in errors:
        assert len(repr(error)) < LIMIT
        assert repr(error).startswith(f"{type(error).__name__}(")
    assert formatted == []


def test_a_live_result_with_many_events_has_a_short_repr(formatted: list[str]) -> None:
    result = LiveResult(
        text="y" * 10_000, stop_reason="end_turn", session_id="s-1", duration_ms=5, events=_events()
    )
    shown = repr(result)
    assert len(shown) < LIMIT
    assert "stop_reason='end_turn'" in shown
    assert f"{MANY:,}" in shown
    assert formatted == []
