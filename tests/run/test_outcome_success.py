"""How a run ended (docs/protocol.md §5): a run that exited 0 with a result is a
RunResult, its fields from the result event, its text and tool calls from the stream,
in every output format."""

from __future__ import annotations

from outcome_streams import (
    RESULT,
    SESSION,
    SUCCESSFUL,
    outcome,
    stream_of,
    succeeded,
)

from agent_sdk import (
    AgentOptions,
    RunResult,
    Usage,
)


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
