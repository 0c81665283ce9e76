"""How a run ended (docs/protocol.md §5): an output without a result event is an
AgentProtocolError, a result event with is_error an AgentResultError quoting it."""

from __future__ import annotations

from outcome_streams import (
    INIT,
    SESSION,
    error_result,
    failed,
    say,
    stream_of,
)

from agent_sdk import (
    AgentOptions,
    AgentProtocolError,
    AgentResultError,
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
