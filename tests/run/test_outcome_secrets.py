"""How a run ended (docs/protocol.md §5): the API key, given as an option or in the
environment, never shows on an error or a result, whatever the CLI said around it."""

from __future__ import annotations

import msgspec
import pytest
from outcome_streams import (
    INIT,
    SUCCESSFUL,
    error_result,
    failed,
    stream_of,
    succeeded,
)

from agent_sdk import (
    AgentError,
    AgentModelError,
    AgentOptions,
    AgentProtocolError,
    AgentResultError,
)
from agent_sdk._run.outcome import timeout_error

SECRET = "key_sk-live-9f8e7d6c5b4a"


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


@pytest.mark.parametrize("how", list(SECRET_OPTIONS))
def test_the_key_never_shows_on_a_timeout(how: str) -> None:
    stream = stream_of(INIT, f"key {SECRET}\n".encode())
    options = msgspec.structs.replace(SECRET_OPTIONS[how], timeout=5)
    error = timeout_error(stream, "timeout", exit_code=None, stderr=f"{SECRET}\n", options=options)
    assert leaks(error) == []
