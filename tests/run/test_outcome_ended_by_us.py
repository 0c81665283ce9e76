"""How a run ended (docs/protocol.md §5): a CLI that hung after its reply and that
agent_sdk ended is judged by the result it gave, not by the signal."""

from __future__ import annotations

from outcome_streams import (
    INIT,
    SUCCESSFUL,
    error_result,
    failed,
    say,
    stream_of,
    succeeded,
)

from agent_sdk import (
    AgentOptions,
    AgentProtocolError,
    AgentResultError,
)


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
