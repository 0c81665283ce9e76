"""Where an error's hint is: once, as the last line of ``str(error)`` (docs/errors.md).

``str(error)`` is ``error.message``, then ``Hint: `` and ``error.hint`` on a line of its
own; ``error.message`` never holds the hint. So ``print(error)`` says it once, and a UI that
lays out the two itself reads ``.message`` and ``.hint``. Checked here on the errors real
failures raise (the fake agent's failing scenarios, a missing binary, a missing working
directory, options that cannot be used); on every error class in
tests/wire/test_error_text.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import fake_agent
from agent_sdk import AgentError, AgentOptions, run_sync


def _hint_once(error: AgentError) -> None:
    assert error.hint, f"{type(error).__name__} has no hint"
    assert str(error) == f"{error.message}\nHint: {error.hint}"
    assert error.hint not in error.message
    assert "Hint:" not in error.message


@pytest.mark.parametrize(
    "scenario",
    [
        "config_race",
        "invalid_api_key",
        "not_logged_in",
        "refused_argument",
        "retriable_error",
        "stdout_error",
        "unknown_model",
        "usage_limit",
    ],
)
def test_a_failed_run_says_its_hint_once(scenario: str) -> None:
    options = AgentOptions(binary=fake_agent.executable(), env={"FAKE_AGENT_SCENARIO": scenario})
    with pytest.raises(AgentError) as info:
        run_sync("hi", options=options)
    _hint_once(info.value)


def test_a_missing_binary_says_its_hint_once(tmp_path: Path) -> None:
    with pytest.raises(AgentError) as info:
        run_sync("hi", options=AgentOptions(binary=str(tmp_path / "cursor-agent")))
    _hint_once(info.value)


def test_a_missing_working_directory_says_its_hint_once(tmp_path: Path) -> None:
    options = AgentOptions(binary=fake_agent.executable(), cwd=str(tmp_path / "gone"))
    with pytest.raises(AgentError) as info:
        run_sync("hi", options=options)
    _hint_once(info.value)


def test_an_option_that_cannot_be_used_says_its_hint_once() -> None:
    with pytest.raises(AgentError) as info:
        AgentOptions(timeout=0)
    _hint_once(info.value)
