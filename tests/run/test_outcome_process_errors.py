"""How a run ended (docs/protocol.md §5): a CLI that exited non-zero or was killed is an
AgentProcessError, the subclass of a failure we recognise, its message quoting what
the CLI said, cut in the middle when long."""

from __future__ import annotations

import pytest
from outcome_streams import (
    INIT,
    SESSION,
    SUCCESSFUL,
    failed,
    stream_of,
)

from agent_sdk import (
    AgentAuthError,
    AgentModelError,
    AgentOptionError,
    AgentProcessError,
    AgentRefusedError,
    AgentRetriableError,
    AgentTrustError,
    AgentUsageLimitError,
    AgentWorkspaceError,
)


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
