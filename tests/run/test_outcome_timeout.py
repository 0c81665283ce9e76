"""How a run ended (docs/protocol.md §5): ``timeout_error`` builds the error of a run
that ran out of time, naming the limit, the events seen and the session to resume."""

from __future__ import annotations

from outcome_streams import (
    INIT,
    SESSION,
    say,
    stream_of,
)

from agent_sdk import (
    AgentOptions,
    AgentTimeoutError,
    ErrorContext,
)
from agent_sdk._run.outcome import timeout_error


def test_a_timeout_is_an_agent_timeout_error_and_a_timeout_error() -> None:
    error = timeout_error(
        stream_of(INIT), "timeout", exit_code=None, stderr="", options=AgentOptions(timeout=5)
    )
    assert isinstance(error, AgentTimeoutError)
    assert isinstance(error, TimeoutError)


def test_a_timeout_message_names_the_limit_events_and_session() -> None:
    stream = stream_of(INIT, say("working"))
    error = timeout_error(
        stream, "timeout", exit_code=None, stderr="", options=AgentOptions(timeout=5)
    )
    assert "did not finish within 5 s (AgentOptions.timeout)" in str(error)
    assert "after 2 events" in str(error)
    assert SESSION in str(error)


def test_an_idle_timeout_message_names_the_idle_limit() -> None:
    error = timeout_error(
        stream_of(INIT), "idle", exit_code=None, stderr="", options=AgentOptions(idle_timeout=2.5)
    )
    assert "printed nothing for 2.5 s (AgentOptions.idle_timeout)" in str(error)


def test_a_timeout_with_a_session_hints_at_resuming_it() -> None:
    error = timeout_error(
        stream_of(INIT), "timeout", exit_code=None, stderr="", options=AgentOptions(timeout=5)
    )
    assert error.hint is not None
    assert "resume" in error.hint


def test_a_timeout_without_a_session_hints_only_at_raising_the_timeout() -> None:
    error = timeout_error(
        stream_of(), "timeout", exit_code=None, stderr="", options=AgentOptions(timeout=5)
    )
    assert error.hint == "raise the timeout"


def test_a_timeout_quotes_what_the_cli_said() -> None:
    error = timeout_error(
        stream_of(INIT),
        "timeout",
        exit_code=None,
        stderr="still thinking\n",
        options=AgentOptions(timeout=5),
    )
    assert "still thinking" in str(error)


def test_a_timeout_carries_an_error_context_with_the_session_and_events() -> None:
    stream = stream_of(INIT, say("working"), keep_events=True)
    error = timeout_error(
        stream, "timeout", exit_code=-9, stderr="", options=AgentOptions(timeout=5)
    )
    assert isinstance(error.context, ErrorContext)
    assert (error.session_id, error.exit_code, error.events) == (SESSION, -9, stream.events)
