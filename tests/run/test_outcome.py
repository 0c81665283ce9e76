"""How a run ended, as a value (docs/protocol.md §5): ``failure_or_result`` turns the exit
status, the stream and the stderr tail into a RunResult or the right error, and
``timeout_error`` builds the error of a run that ran out of time."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from agent_sdk import (
    AgentAuthError,
    AgentError,
    AgentModelError,
    AgentOptionError,
    AgentOptions,
    AgentProcessError,
    AgentProtocolError,
    AgentRefusedError,
    AgentResultError,
    AgentRetriableError,
    AgentTimeoutError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
    ErrorContext,
    RunResult,
    Usage,
)
from agent_sdk._run.outcome import failure_or_result, timeout_error
from agent_sdk._wire.stream import Stream

SECRET = "key_sk-live-9f8e7d6c5b4a"
SESSION = "0b7c2a9e-51d4-4f0e-9a55-1c3e8f2d7b10"


# --- what a run's output said -------------------------------------------------------
def wire(**event: Any) -> bytes:
    return json.dumps(event).encode() + b"\n"


def say(text: str) -> bytes:
    return wire(
        type="assistant",
        message={"role": "assistant", "content": [{"type": "text", "text": text}]},
        session_id=SESSION,
    )


def tool(subtype: str, call_id: str = "c1") -> bytes:
    body: dict[str, Any] = {"args": {"path": "a.py"}}
    if subtype == "completed":
        body["result"] = {"success": {"content": "x"}}
    return wire(
        type="tool_call", subtype=subtype, call_id=call_id, tool_call={"readToolCall": body}
    )


INIT = wire(type="system", subtype="init", session_id=SESSION)
RESULT = wire(
    type="result",
    subtype="success",
    is_error=False,
    result="The test is added.",
    session_id=SESSION,
    request_id="req-1",
    duration_ms=4210,
    duration_api_ms=4000,
    usage={"inputTokens": 10, "outputTokens": 2, "cacheReadTokens": 3, "cacheWriteTokens": 4},
)


def error_result(text: str = "The model refused.", subtype: str = "error") -> bytes:
    return wire(type="result", subtype=subtype, is_error=True, result=text, session_id=SESSION)


def stream_of(
    *lines: bytes, keep_events: bool = False, output_format: str = "stream-json"
) -> Stream:
    stream = Stream(output_format=output_format, keep_events=keep_events)
    for line in lines:
        stream.feed(line)
    stream.end()
    return stream


SUCCESSFUL = (INIT, say("I'll add "), tool("started"), tool("completed"), say("the test."), RESULT)


def outcome(
    stream: Stream,
    *,
    exit_code: int = 0,
    ended_by_us: bool = False,
    stderr: str = "",
    options: AgentOptions | None = None,
) -> RunResult | AgentError:
    return failure_or_result(
        stream,
        exit_code=exit_code,
        ended_by_us=ended_by_us,
        stderr=stderr,
        options=options if options is not None else AgentOptions(),
    )


def succeeded(stream: Stream, **kwargs: Any) -> RunResult:
    value = outcome(stream, **kwargs)
    assert isinstance(value, RunResult), value
    return value


def failed(stream: Stream, **kwargs: Any) -> AgentError:
    value = outcome(stream, **kwargs)
    assert isinstance(value, AgentError), value
    return value


# --- success ------------------------------------------------------------------------
def test_exit_0_with_a_result_is_a_run_result() -> None:
    assert isinstance(outcome(stream_of(*SUCCESSFUL)), RunResult)


def test_the_run_result_takes_its_fields_from_the_result_event() -> None:
    result = succeeded(stream_of(*SUCCESSFUL))
    assert (
        result.result,
        result.session_id,
        result.request_id,
        result.duration_ms,
        result.duration_api_ms,
        result.usage,
    ) == (
        "The test is added.",
        SESSION,
        "req-1",
        4210,
        4000,
        Usage(input_tokens=10, output_tokens=2, cache_read_tokens=3, cache_write_tokens=4),
    )


def test_the_run_result_text_is_the_text_assembled_from_the_stream() -> None:
    assert succeeded(stream_of(*SUCCESSFUL)).text == "I'll add the test."


def test_the_run_result_text_is_assembled_when_events_were_not_kept() -> None:
    result = succeeded(stream_of(*SUCCESSFUL, keep_events=False))
    assert (result.text, result.events) == ("I'll add the test.", [])


def test_the_run_result_has_exit_code_and_stderr() -> None:
    result = succeeded(stream_of(*SUCCESSFUL), stderr="a warning\n")
    assert (result.exit_code, result.stderr) == (0, "a warning\n")


def test_the_run_result_keeps_the_events_the_stream_kept() -> None:
    stream = stream_of(*SUCCESSFUL, keep_events=True)
    result = succeeded(stream)
    assert result.events == stream.events
    assert len(result.events) == len(SUCCESSFUL)


def test_the_run_result_pairs_the_tool_calls_of_kept_events() -> None:
    (call,) = succeeded(stream_of(*SUCCESSFUL, keep_events=True)).tool_calls
    assert (call.call_id, call.kind, call.outcome) == ("c1", "readToolCall", "success")


def test_the_run_result_has_no_tool_calls_when_events_were_not_kept() -> None:
    assert succeeded(stream_of(*SUCCESSFUL, keep_events=False)).tool_calls == []


def test_a_json_run_result_text_is_the_result_text() -> None:
    options = AgentOptions(output_format="json")
    result = succeeded(stream_of(RESULT, output_format="json"), options=options)
    assert (result.result, result.text) == ("The test is added.", "The test is added.")


def test_a_text_run_result_is_its_output_lines() -> None:
    stream = stream_of(b"The test is added.\n", b"It passes.\n", output_format="text")
    result = succeeded(stream, options=AgentOptions(output_format="text"))
    assert (result.result, result.text) == (
        "The test is added.\nIt passes.",
        "The test is added.\nIt passes.",
    )


def test_a_text_run_needs_no_result_event() -> None:
    stream = stream_of(b"plain reply\n", output_format="text")
    assert isinstance(outcome(stream, options=AgentOptions(output_format="text")), RunResult)


# --- the CLI failed: non-zero exit, signal ------------------------------------------
def test_a_non_zero_exit_is_a_process_error() -> None:
    error = failed(stream_of(INIT), exit_code=1, stderr="Error: something broke\n")
    assert type(error) is AgentProcessError


def test_a_process_error_says_the_exit_code_and_quotes_stderr() -> None:
    error = failed(stream_of(INIT), exit_code=3, stderr="Error: something broke\n")
    assert "exited with code 3" in str(error)
    assert "Error: something broke" in str(error)


def test_a_process_error_quotes_non_json_stdout() -> None:
    error = failed(stream_of(b"Error: said on stdout\n"), exit_code=1)
    assert "Error: said on stdout" in str(error)


def test_a_process_error_without_any_message_says_so() -> None:
    error = failed(stream_of(), exit_code=1)
    assert "no error message" in str(error)


def test_a_process_error_carries_exit_code_stderr_stdout_lines_and_session() -> None:
    stream = stream_of(INIT, b"a banner\n")
    error = failed(stream, exit_code=1, stderr="Error: x\n")
    assert (error.exit_code, error.stderr, error.stdout_lines, error.session_id) == (
        1,
        "Error: x\n",
        ["a banner"],
        SESSION,
    )


def test_a_non_zero_exit_after_a_result_is_still_a_process_error() -> None:
    error = failed(stream_of(*SUCCESSFUL), exit_code=1)
    assert isinstance(error, AgentProcessError)


def test_the_model_error_is_an_agent_model_error_with_its_models() -> None:
    error = failed(
        stream_of(), exit_code=1, stderr="Cannot use this model: x. Available models: a, b\n"
    )
    assert isinstance(error, AgentModelError)
    assert error.available_models == ["a", "b"]


def test_the_model_error_hint_lists_the_models() -> None:
    error = failed(
        stream_of(), exit_code=1, stderr="Cannot use this model: x. Available models: a, b\n"
    )
    assert error.hint is not None
    assert "(a, b)" in error.hint


@pytest.mark.parametrize(
    ("said", "error_type"),
    [
        ("Press any key to sign in...", AgentAuthError),
        ("⚠ Warning: The provided API key is invalid.", AgentAuthError),
        ("⚠ Workspace Trust Required", AgentTrustError),
        ("Error: Workspace path does not exist: /x", AgentWorkspaceError),
        ("Error: You've hit your usage limit", AgentUsageLimitError),
        ("error: unknown option '--frobnicate'", AgentOptionError),
        ("RetriableError: [unavailable] try later", AgentRetriableError),
        ("RetriableError: [invalid_argument] unknown option '--x'", AgentRefusedError),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else None,
)
def test_a_recognised_failure_is_its_process_error_subclass_with_a_hint(
    said: str, error_type: type[AgentProcessError]
) -> None:
    error = failed(stream_of(), exit_code=1, stderr=said + "\n")
    assert type(error) is error_type
    assert error.hint


def test_a_failure_said_on_stdout_is_recognised_too() -> None:
    error = failed(stream_of(b"Not logged in\n"), exit_code=1)
    assert isinstance(error, AgentAuthError)


def test_a_negative_exit_is_killed_by_that_signal() -> None:
    error = failed(stream_of(INIT), exit_code=-9)
    assert type(error) is AgentProcessError
    assert "killed by signal SIGKILL" in str(error)
    assert error.exit_code == -9


def test_an_unknown_signal_number_is_named_by_its_number() -> None:
    error = failed(stream_of(INIT), exit_code=-250)
    assert "killed by signal 250" in str(error)


def test_a_long_message_is_cut_in_the_middle_in_str() -> None:
    stderr = "".join(f"line {i}\n" for i in range(2000))
    error = failed(stream_of(), exit_code=1, stderr=stderr)
    assert "code 1: line 0\nline 1\n" in str(error)
    assert str(error).endswith("\nline 1999")
    assert "\nline 1000\n" not in str(error)
    assert "characters cut" in str(error)


def test_a_long_message_is_kept_whole_on_the_error() -> None:
    stderr = "".join(f"line {i}\n" for i in range(2000))
    error = failed(stream_of(), exit_code=1, stderr=stderr)
    assert error.stderr == stderr


LONG_MODELS = [f"model-{i:03d}-with-settings" for i in range(250)]
LONG_MODEL_ERROR = f"Cannot use this model: x. Available models: {', '.join(LONG_MODELS)}\n"


def test_a_long_model_error_line_is_still_an_agent_model_error() -> None:
    assert len(LONG_MODEL_ERROR) > 5000
    error = failed(stream_of(), exit_code=1, stderr=LONG_MODEL_ERROR)
    assert isinstance(error, AgentModelError)


def test_a_long_model_error_has_all_its_models() -> None:
    error = failed(stream_of(), exit_code=1, stderr=LONG_MODEL_ERROR)
    assert isinstance(error, AgentModelError)
    assert error.available_models == LONG_MODELS


def test_a_long_model_error_message_starts_with_the_cli_message_and_counts_the_rest() -> None:
    error = failed(stream_of(), exit_code=1, stderr=LONG_MODEL_ERROR)
    assert error.message == (
        "cursor-agent exited with code 1: Cannot use this model: x. Available models: "
        "model-000-with-settings, model-001-with-settings, model-002-with-settings, "
        "... and 247 more; see .available_models"
    )


# --- the output broke the contract --------------------------------------------------
def test_exit_0_without_a_result_is_a_protocol_error() -> None:
    error = failed(stream_of(INIT, say("half a reply")), exit_code=0)
    assert type(error) is AgentProtocolError
    assert "no result event" in str(error)


def test_a_protocol_error_keeps_the_session_id() -> None:
    error = failed(stream_of(INIT, say("half a reply")), exit_code=0)
    assert error.session_id == SESSION


def test_a_json_run_without_a_result_is_a_protocol_error() -> None:
    stream = stream_of(b"Warning: something\n", output_format="json")
    error = failed(stream, options=AgentOptions(output_format="json"))
    assert type(error) is AgentProtocolError


# --- the agent reported an error ----------------------------------------------------
def test_a_result_with_is_error_is_a_result_error() -> None:
    error = failed(stream_of(INIT, error_result()))
    assert type(error) is AgentResultError


def test_a_result_error_carries_its_result_event() -> None:
    stream = stream_of(INIT, error_result())
    error = failed(stream)
    assert isinstance(error, AgentResultError)
    assert error.event is stream.result_event


def test_a_result_error_message_says_the_subtype_and_quotes_the_result() -> None:
    error = failed(stream_of(INIT, error_result("The model refused.", subtype="error_max_turns")))
    assert "error_max_turns" in str(error)
    assert "The model refused." in str(error)


def test_a_result_error_without_result_text_quotes_what_the_cli_said() -> None:
    error = failed(stream_of(INIT, error_result("")), stderr="Error: upstream failed\n")
    assert "Error: upstream failed" in str(error)


# --- the CLI hung and agent_sdk ended it --------------------------------------------
def test_ended_by_us_after_a_result_is_a_success() -> None:
    result = succeeded(stream_of(*SUCCESSFUL), exit_code=-15, ended_by_us=True)
    assert (result.result, result.exit_code) == ("The test is added.", -15)


def test_ended_by_us_after_an_error_result_is_a_result_error() -> None:
    error = failed(stream_of(INIT, error_result()), exit_code=-9, ended_by_us=True)
    assert type(error) is AgentResultError


def test_ended_by_us_without_a_result_is_a_protocol_error() -> None:
    error = failed(stream_of(INIT, say("half")), exit_code=-9, ended_by_us=True)
    assert type(error) is AgentProtocolError
    assert "did not exit" in str(error)


def test_ended_by_us_in_a_text_run_is_a_success() -> None:
    stream = stream_of(b"reply\n", output_format="text")
    result = succeeded(
        stream, exit_code=-9, ended_by_us=True, options=AgentOptions(output_format="text")
    )
    assert result.result == "reply"


# --- every error carries an ErrorContext --------------------------------------------
FAILURES: dict[str, tuple[dict[str, Any], tuple[bytes, ...]]] = {
    "process": ({"exit_code": 1, "stderr": "Error: x\n"}, (INIT,)),
    "recognised": ({"exit_code": 1, "stderr": "Not logged in\n"}, (INIT,)),
    "signal": ({"exit_code": -9}, (INIT,)),
    "no-result": ({"exit_code": 0}, (INIT,)),
    "is-error": ({"exit_code": 0}, (INIT, error_result())),
    "ended-without-result": ({"exit_code": -9, "ended_by_us": True}, (INIT,)),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_every_error_has_an_error_context(case: str) -> None:
    kwargs, lines = FAILURES[case]
    error = failed(stream_of(*lines, b"a banner\n"), **{"stderr": "warn\n", **kwargs})
    assert isinstance(error.context, ErrorContext)
    assert (error.context.session_id, error.context.stdout_lines) == (SESSION, ["a banner"])


@pytest.mark.parametrize("case", list(FAILURES))
def test_every_error_carries_the_events_the_stream_kept(case: str) -> None:
    kwargs, lines = FAILURES[case]
    stream = stream_of(*lines, keep_events=True)
    error = failed(stream, **kwargs)
    assert error.events == stream.events
    assert error.events


def test_the_error_properties_read_its_context() -> None:
    error = failed(stream_of(INIT, b"banner\n"), exit_code=2, stderr="boom\n")
    context = error.context
    assert (error.session_id, error.exit_code, error.stderr, error.stdout_lines) == (
        context.session_id,
        context.exit_code,
        context.stderr,
        context.stdout_lines,
    )


# --- secrets ------------------------------------------------------------------------
SECRET_OPTIONS = {
    "api_key": AgentOptions(api_key=SECRET),
    "env-api-key": AgentOptions(env={"CURSOR_API_KEY": SECRET}),
    "env-auth-token": AgentOptions(env={"CURSOR_AUTH_TOKEN": SECRET}),
}


def leaks(error: AgentError) -> list[str]:
    """Where the secret shows on an error."""
    places = {
        "str": str(error),
        "message": error.message,
        "stderr": error.stderr,
        "stdout_lines": "\n".join(error.stdout_lines),
        "hint": error.hint or "",
    }
    return [name for name, text in places.items() if SECRET in text]


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_process_error(how: str) -> None:
    stream = stream_of(INIT, f"using key {SECRET}\n".encode())
    error = failed(
        stream, exit_code=1, stderr=f"Error: key {SECRET} is invalid\n", options=SECRET_OPTIONS[how]
    )
    assert leaks(error) == []


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_recognised_process_error(how: str) -> None:
    stderr = f"Cannot use this model: {SECRET}. Available models: a, {SECRET}\n"
    error = failed(stream_of(), exit_code=1, stderr=stderr, options=SECRET_OPTIONS[how])
    assert isinstance(error, AgentModelError)
    assert leaks(error) == []


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_in_a_result_error_quoting_the_result(how: str) -> None:
    stream = stream_of(INIT, error_result(f"The key {SECRET} was refused."))
    error = failed(stream, options=SECRET_OPTIONS[how])
    assert isinstance(error, AgentResultError)
    assert "was refused" in str(error)
    assert leaks(error) == []


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_protocol_error(how: str) -> None:
    stream = stream_of(INIT, f"key={SECRET}\n".encode())
    error = failed(stream, stderr=f"key={SECRET}\n", options=SECRET_OPTIONS[how])
    assert isinstance(error, AgentProtocolError)
    assert leaks(error) == []


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_text_run_failure(how: str) -> None:
    options = msgspec.structs.replace(SECRET_OPTIONS[how], output_format="text")
    stream = stream_of(f"Error: key {SECRET}\n".encode(), output_format="text")
    error = failed(stream, exit_code=1, options=options)
    assert leaks(error) == []


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_in_a_run_results_stderr(how: str) -> None:
    result = succeeded(
        stream_of(*SUCCESSFUL), stderr=f"debug: key {SECRET}\n", options=SECRET_OPTIONS[how]
    )
    assert SECRET not in result.stderr


def test_what_is_said_around_the_key_is_kept() -> None:
    error = failed(
        stream_of(),
        exit_code=1,
        stderr=f"Error: key {SECRET} is invalid\n",
        options=AgentOptions(api_key=SECRET),
    )
    assert "Error: key *** is invalid" in error.stderr


# --- timeout_error ------------------------------------------------------------------
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


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_timeout(how: str) -> None:
    stream = stream_of(INIT, f"key {SECRET}\n".encode())
    options = msgspec.structs.replace(SECRET_OPTIONS[how], timeout=5)
    error = timeout_error(stream, "timeout", exit_code=None, stderr=f"{SECRET}\n", options=options)
    assert leaks(error) == []
